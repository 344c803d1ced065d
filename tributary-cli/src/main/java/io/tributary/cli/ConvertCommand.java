package io.tributary.cli;

import io.tributary.tensor.Tensor;
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

/** The {@code convert} command: converts tensors between .npz and .pb (serialized Parameters). */
@Command(
    name = "convert",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = {
      "Convert tensors between .npz and .pb files (either direction, or re-encode one format), "
          + "keeping order, dtypes, shapes and values.",
      "Names are kept where the output carries them (.npz entries, proto.ndarray Value.name); "
          + "otherwise tensors are named arr_0, arr_1, ... as numpy does.",
      "OUT is written to a temporary file in its directory and then moved into place.",
      "Exits with 2, printing one line on stderr, when IN cannot be read or OUT cannot be written."
    })
final class ConvertCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Parameters(index = "0", paramLabel = "IN", description = "the .npz, .pb or .npy file to read")
  Path in;

  @Parameters(index = "1", paramLabel = "OUT", description = "the .npz, .pb or .npy (one tensor only) file to write")
  Path out;

  @Option(
      names = "--tensor-type",
      paramLabel = "TYPE",
      description = "the FEP-0002 tensor type of .pb output: proto.ndarray (the default) or numpy.ndarray")
  String tensorType;

  @Override
  public Integer call() {
    PrintWriter err = spec.commandLine().getErr();
    TensorFiles files = new TensorFiles(SerializerRegistry.load());
    try {
      TensorFormat.of(in);
    } catch (TensorFileException e) {
      return Problems.report(err, "convert", in, e);
    }
    Serializer pbSerializer;
    try {
      pbSerializer = outputSerializer(files);
    } catch (IOException e) {
      return Problems.report(err, "convert", out, e);
    }
    SequencedMap<String, Tensor> tensors;
    try {
      tensors = files.read(in);
    } catch (IOException e) {
      return Problems.report(err, "convert", in, e);
    }
    try {
      files.write(out, tensors, pbSerializer);
    } catch (IOException e) {
      return Problems.report(err, "convert", out, e);
    }
    PrintWriter stdout = spec.commandLine().getOut();
    stdout.println("wrote " + tensors.size() + (tensors.size() == 1 ? " tensor" : " tensors") + " to " + out
        + (pbSerializer == null ? "" : " (" + pbSerializer.tensorType() + ")"));
    stdout.flush();
    return 0;
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
}
