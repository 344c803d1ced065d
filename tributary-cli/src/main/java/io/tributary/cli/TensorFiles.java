package io.tributary.cli;

import io.tributary.format.AtomicFile;
import io.tributary.format.ModelFile;
import io.tributary.format.ModelWriter;
import io.tributary.format.TagContents;
import io.tributary.format.Tags;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.npy.Npy;
import io.tributary.tensor.npy.Npz;
import io.tributary.tensor.npy.NpzReadOptions;
import io.tributary.tensor.npy.NpzReader;
import io.tributary.tensor.serialization.Parameters;
import io.tributary.tensor.serialization.ParametersCodec;
import io.tributary.tensor.serialization.Serializer;
import io.tributary.tensor.serialization.SerializerRegistry;
import java.io.BufferedOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SequencedMap;

/**
 * Reads and writes the named tensors of .npy, .npz, .pb and .zip (model) files.
 *
 * <p>A .npy file holds one tensor, named {@code arr_0}. A .pb file holds a serialized
 * {@code Parameters} message whose {@code tensor_type} picks the serializer from the registry;
 * the names are those the serializer's format carries, else {@code arr_0}, {@code arr_1}, ....
 * A .zip model file holds tags; its tensors are one tag's parameters.
 */
final class TensorFiles {
  /** The largest message protobuf can hold: 2 GiB - 1 (and the largest Java array). */
  private static final long MAX_PB_BYTES = Integer.MAX_VALUE - 8;

  private final SerializerRegistry registry;

  TensorFiles(SerializerRegistry registry) {
    this.registry = registry;
  }

  /**
   * The tensors in {@code file}, in file order.
   *
   * @throws IOException when the file is missing, unreadable or malformed, or of unknown type
   */
  SequencedMap<String, Tensor> read(Path file) throws IOException {
    TensorFormat format = TensorFormat.of(file);
    if (Files.isDirectory(file)) {
      throw new TensorFileException("is a directory, not a tensor file");
    }
    requireRegularFile(file);
    return switch (format) {
      case NPY -> Npz.named(List.of(Npy.read(file)));
      case NPZ -> Npz.read(file);
      case PB -> readParameters(file);
      case MODEL -> readModel(file, null);
    };
  }

  /**
   * The parameters of {@code tag} (the newest when null) of the model file {@code file}.
   *
   * @throws IOException when the file is malformed or has no such tag
   */
  SequencedMap<String, Tensor> readModel(Path file, String tag) throws IOException {
    if (Files.isDirectory(file)) {
      throw new TensorFileException("is a directory, not a tensor file");
    }
    requireRegularFile(file);
    try (ModelFile m = ModelFile.open(file)) {
      return (tag == null ? m.newest() : m.tag(tag)).parameters();
    }
  }

  /**
   * Writes {@code tensors} as tag {@code tag} of the model file {@code file}: a new tag of an
   * existing file (whose other tags are kept), or a new file. Either way atomically.
   *
   * @throws IOException when the tag is invalid or taken, or the file cannot be read or written
   */
  void writeModel(Path file, String tag, SequencedMap<String, Tensor> tensors) throws IOException {
    checkTag(tag);
    Path dir = file.toAbsolutePath().getParent();
    if (!Files.isDirectory(dir)) {
      throw new TensorFileException("its directory " + dir + " does not exist");
    }
    try {
      if (Files.exists(file)) {
        ModelWriter.addTag(file, tag, TagContents.of(tensors));
      } else {
        SequencedMap<String, TagContents> tags = new LinkedHashMap<>();
        tags.put(tag, TagContents.of(tensors));
        ModelWriter.save(file, tags);
      }
    } catch (IllegalArgumentException e) {
      throw new TensorFileException(e.getMessage());
    }
  }

  /**
   * Refuses, before anything is opened, a path that exists but is no regular file: a FIFO would
   * block the read forever, a device never end.
   *
   * @throws TensorFileException when it is a FIFO, socket, device or other special file
   */
  static void requireRegularFile(Path file) throws TensorFileException {
    if (Files.exists(file) && !Files.isDirectory(file) && !Files.isRegularFile(file)) {
      throw new TensorFileException("is not a regular file (a FIFO, socket or device): refused "
          + "before reading");
    }
  }

  /**
   * Refuses a {@code .pb} of {@code size} bytes from its first bytes, before reading it whole:
   * a message starts with a field tag (not zero, of a known wire type), and a length-delimited
   * first field cannot be longer than the file.
   */
  private static void requireMessageStart(Path file, long size) throws IOException {
    if (size == 0) {
      return; // the empty message
    }
    byte[] head = new byte[(int) Math.min(size, 16)];
    try (FileChannel ch = FileChannel.open(file)) {
      java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(head);
      while (b.hasRemaining() && ch.read(b) >= 0) {
        // reads the head, however short the reads
      }
    }
    int[] at = {0};
    long tag = varint(head, at);
    int wire = (int) (tag & 7);
    if (tag < 0 || (tag >>> 3) == 0 || (wire != 0 && wire != 1 && wire != 2 && wire != 5)) {
      throw new TensorFileException("is not a protobuf message: its first bytes are no field tag"
          + " (a Flower Parameters message starts with field 1 or 2)");
    }
    if (wire == 2) {
      long length = varint(head, at);
      if (length < 0 || length > size - at[0]) {
        throw new TensorFileException("is not a protobuf message: its first field claims "
            + (length < 0 ? "a malformed length" : length + " bytes") + " of a file of " + size);
      }
    }
  }

  /** The varint at {@code at[0]} of {@code b}, or -1 when it does not end within the bytes. */
  private static long varint(byte[] b, int[] at) {
    long v = 0;
    for (int shift = 0; shift < 64 && at[0] < b.length; shift += 7) {
      byte x = b[at[0]++];
      v |= (long) (x & 0x7f) << shift;
      if (x >= 0) {
        return v;
      }
    }
    return -1;
  }

  /** Rejects an invalid tag before any work is done. */
  static void checkTag(String tag) throws TensorFileException {
    String problem = Tags.problem(tag);
    if (problem != null) {
      throw new TensorFileException(problem);
    }
  }

  private SequencedMap<String, Tensor> readParameters(Path file) throws IOException {
    long size = Files.size(file);
    if (size > MAX_PB_BYTES) {
      throw new TensorFileException(size + " bytes is more than a protobuf message can hold (2 GiB)");
    }
    requireMessageStart(file, size);
    Parameters parameters = ParametersCodec.decode(Files.readAllBytes(file));
    return registry.forType(parameters.tensorType()).deserializeNamed(parameters);
  }

  /**
   * The serializer for {@code tensorType}, checked before any work is done.
   *
   * @throws IOException ({@link io.tributary.tensor.serialization.UnsupportedTensorTypeException})
   *     naming the type and the known ones
   */
  Serializer serializer(String tensorType) throws IOException {
    return registry.forType(tensorType);
  }

  /**
   * Writes {@code tensors} to {@code file} in the format its extension names, as
   * {@link AtomicFile} writes model files: through a temporary file in the same directory that
   * is fsynced and then moved over {@code file}, so that a failure leaves any earlier
   * {@code file} intact and never a half-written one, and temporary files of killed runs are
   * removed.
   *
   * @param pbSerializer the serializer for .pb output; unused for the other formats
   * @throws IOException when the file cannot be written or the format cannot hold the tensors
   */
  void write(Path file, SequencedMap<String, Tensor> tensors, Serializer pbSerializer) throws IOException {
    TensorFormat format = TensorFormat.of(file);
    if (format == TensorFormat.MODEL) {
      throw new TensorFileException("a .zip model file needs a tag: use --tag");
    }
    Path dir = file.toAbsolutePath().getParent();
    if (!Files.isDirectory(dir)) {
      throw new TensorFileException("its directory " + dir + " does not exist");
    }
    // Everything that can be refused is refused before the temporary file exists.
    Tensor npy = format == TensorFormat.NPY ? single(tensors) : null;
    byte[] pb = format == TensorFormat.PB ? ParametersCodec.encode(pbSerializer.serializeNamed(tensors)) : null;
    AtomicFile.write(file, ch -> {
      OutputStream out = new BufferedOutputStream(unclosable(ch), 1 << 16);
      switch (format) {
        case NPY -> Npy.write(npy, out);
        case NPZ -> Npz.write(out, tensors, false);
        case PB -> out.write(pb);
        case MODEL -> throw new IllegalStateException("model files are written by writeModel");
      }
      out.flush();
    });
  }

  /**
   * Opens the .npz {@code file} for {@link #writeNumpyNdarray}, judging it and reading every
   * array's header.
   *
   * @throws IOException when the file is missing, unreadable or malformed
   */
  NpzReader openNpz(Path file) throws IOException {
    if (Files.isDirectory(file)) {
      throw new TensorFileException("is a directory, not a tensor file");
    }
    return NpzReader.open(file, NpzReadOptions.defaults());
  }

  /**
   * Writes the arrays of {@code npz} to the .pb {@code file} as {@code numpy.ndarray}
   * Parameters, the same bytes {@link #write} writes for them, atomically as it does, but
   * streaming: one array at a time goes from the archive into the file.
   *
   * @throws io.tributary.tensor.npy.NpyException when the archive's data is malformed
   * @throws IOException when the file cannot be written or the message would be too large
   */
  void writeNumpyNdarray(Path file, NpzReader npz) throws IOException {
    Path dir = file.toAbsolutePath().getParent();
    if (!Files.isDirectory(dir)) {
      throw new TensorFileException("its directory " + dir + " does not exist");
    }
    AtomicFile.write(file, ch -> {
      OutputStream out = new BufferedOutputStream(unclosable(ch), 1 << 16);
      ParametersCodec.writeNumpyNdarray(npz, out);
      out.flush();
    });
  }

  /** A stream into {@code ch} whose close only flushes, leaving the channel to be fsynced. */
  private static OutputStream unclosable(FileChannel ch) {
    return new FilterOutputStream(Channels.newOutputStream(ch)) {
      @Override
      public void write(byte[] b, int off, int len) throws IOException {
        out.write(b, off, len);
      }

      @Override
      public void close() throws IOException {
        flush();
      }
    };
  }

  private static Tensor single(Map<String, Tensor> tensors) throws TensorFileException {
    if (tensors.size() != 1) {
      throw new TensorFileException(
          "a .npy file holds exactly one tensor, the input has " + tensors.size() + "; write a .npz instead");
    }
    return tensors.values().iterator().next();
  }

}
