package io.tributary.cli;

import io.tributary.tensor.Tensor;
import io.tributary.tensor.npy.NpyException;
import io.tributary.tensor.npy.NpzReader;
import io.tributary.tensor.serialization.NumpyNdarraySerializer;
import io.tributary.tensor.serialization.ProtoNdarraySerializer;
import io.tributary.tensor.serialization.Serializer;
import io.tributary.tensor.serialization.SerializerRegistry;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.SequencedMap;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * The {@code convert} command: converts tensors between .npz, .pb (serialized Parameters) and one
 * tag of a .zip model file.
 */
@Command(
    name = "convert",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = {
      "Convert tensors between .npz and .pb files (either direction, or re-encode one format), "
          + "keeping order, dtypes, shapes and values.",
      "Names are kept where the output carries them (.npz entries, proto.ndarray Value.name); "
          + "otherwise tensors are named arr_0, arr_1, ... as numpy does.",
      "A .zip model file IN gives the parameters of its newest tag, or of --tag; a .zip OUT gets them "
          + "as the new tag --tag (added to an existing model, whose other tags are kept, or a new one).",
      "OUT is written to a temporary file in its directory and then moved into place.",
      "Exits with 2, printing one line on stderr, when IN cannot be read or OUT cannot be written."
    })
final class ConvertCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Parameters(index = "0", paramLabel = "IN", description = "the .npz, .pb, .npy or .zip (model) file to read")
  Path in;

  @Parameters(index = "1", paramLabel = "OUT", description = "the .npz, .pb, .npy (one tensor only) or .zip (model) file to write")
  Path out;

  @Option(
      names = "--tensor-type",
      paramLabel = "TYPE",
      description = "the FEP-0002 tensor type of .pb output: proto.ndarray (the default) or numpy.ndarray")
  String tensorType;

  @Option(
      names = "--tag",
      paramLabel = "TAG",
      description = "the model tag to read from a .zip IN (default: its newest) or to write to a .zip OUT (required)")
  String tag;

  @Override
  public Integer call() {
    PrintWriter err = spec.commandLine().getErr();
    TensorFiles files = new TensorFiles(SerializerRegistry.load());
    TensorFormat inFormat;
    try {
      inFormat = TensorFormat.of(in);
    } catch (TensorFileException e) {
      return Problems.report(err, "convert", in, e);
    }
    boolean modelOut;
    try {
      modelOut = checkTag(inFormat);
    } catch (TensorFileException e) {
      return Problems.report(err, "convert", out, e);
    }
    Serializer pbSerializer;
    try {
      pbSerializer = outputSerializer(files);
    } catch (IOException e) {
      return Problems.report(err, "convert", out, e);
    }
    if (inFormat == TensorFormat.NPZ && pbSerializer != null
        && NumpyNdarraySerializer.TENSOR_TYPE.equals(pbSerializer.tensorType())) {
      return streamNpzToNumpyNdarray(files, pbSerializer, err);
    }
    SequencedMap<String, Tensor> tensors;
    try {
      tensors = inFormat == TensorFormat.MODEL ? files.readModel(in, tag) : files.read(in);
    } catch (IOException e) {
      return Problems.report(err, "convert", in, e);
    }
    try {
      if (modelOut) {
        files.writeModel(out, tag, tensors);
      } else {
        files.write(out, tensors, pbSerializer);
      }
    } catch (IOException e) {
      return Problems.report(err, "convert", out, e);
    }
    return wrote(tensors.size(), pbSerializer, modelOut);
  }

  private int wrote(int count, Serializer pbSerializer, boolean modelOut) {
    PrintWriter stdout = spec.commandLine().getOut();
    stdout.println("wrote " + count + (count == 1 ? " tensor" : " tensors") + " to " + out
        + (pbSerializer == null ? "" : " (" + pbSerializer.tensorType() + ")")
        + (modelOut ? " as tag " + tag : ""));
    stdout.flush();
    return 0;
  }

  /**
   * .npz to numpy.ndarray .pb, the conversion of the largest files, streams: the archive's
   * headers are read first, then each array goes from the archive into the output in turn,
   * never all of them in memory (ParametersCodec.writeNumpyNdarray). The output's bytes, the
   * messages and the atomic write are those of the general path.
   */
  private int streamNpzToNumpyNdarray(TensorFiles files, Serializer pbSerializer, PrintWriter err) {
    NpzReader npz;
    try {
      npz = files.openNpz(in);
    } catch (IOException e) {
      return Problems.report(err, "convert", in, e);
    }
    try (npz) {
      try {
        files.writeNumpyNdarray(out, npz);
      } catch (NpyException e) {
        // The archive's data, read while the output is written, is the input's problem.
        return Problems.report(err, "convert", in, e);
      } catch (IOException e) {
        return Problems.report(err, "convert", out, e);
      }
      return wrote(npz.size(), pbSerializer, false);
    } catch (IOException e) {
      // Closing the archive failed after the output was written.
      return Problems.report(err, "convert", in, e);
    }
  }

  /** The serializer for a .pb OUT, or null for other formats, which take no tensor type. */
  private Serializer outputSerializer(TensorFiles files) throws IOException {
    if (TensorFormat.of(out) == TensorFormat.PB) {
      return files.serializer(tensorType == null ? ProtoNdarraySerializer.TENSOR_TYPE : tensorType);
    }
    if (tensorType != null) {
      throw new TensorFileException("--tensor-type applies only to .pb output");
    }
    return null;
  }

  /**
   * Checks --tag against the formats: it needs a .zip on one side, and a .zip OUT needs it.
   *
   * @return whether OUT is a model file
   */
  private boolean checkTag(TensorFormat inFormat) throws TensorFileException {
    boolean modelOut = TensorFormat.of(out) == TensorFormat.MODEL;
    if (tag != null && inFormat != TensorFormat.MODEL && !modelOut) {
      throw new TensorFileException("--tag applies only to .zip model files");
    }
    if (modelOut) {
      if (tag == null) {
        throw new TensorFileException("writing a .zip model needs --tag TAG");
      }
      TensorFiles.checkTag(tag);
    }
    return modelOut;
  }
}
