package io.tributary.tensor.serialization;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.tensor.DType;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.npy.NpyException;
import io.tributary.tensor.npy.Npz;
import io.tributary.tensor.npy.NpzReadOptions;
import io.tributary.tensor.npy.NpzReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link ParametersCodec#writeNumpyNdarray}, which streams an .npz into numpy.ndarray Parameters,
 * writes the bytes of the path that reads every tensor first, and fails as it does.
 */
class ParametersCodecStreamingTest {
  @TempDir Path dir;

  /** The old path: every tensor read, serialized into NPY blobs, and the message encoded. */
  private static byte[] whole(Path npz) throws IOException {
    return ParametersCodec.encode(new NumpyNdarraySerializer().serializeNamed(Npz.read(npz)));
  }

  private static byte[] streamed(Path npz) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (NpzReader r = NpzReader.open(npz, NpzReadOptions.defaults())) {
      ParametersCodec.writeNumpyNdarray(r, out);
    }
    return out.toByteArray();
  }

  /** Tensors of every dtype NPY holds, random, with the shapes that need care. */
  private static LinkedHashMap<String, Tensor> everyDtype() {
    Random random = new Random(22);
    LinkedHashMap<String, Tensor> m = new LinkedHashMap<>();
    for (DType d : DType.values()) {
      if (d != DType.BFLOAT16) {
        m.put("t_" + d.typeName(), RandomTensors.random(d, Shape.of(3, 5), random));
      }
    }
    m.put("scalar", Tensor.scalar(2.5));
    m.put("scalar_int", RandomTensors.random(DType.INT64, Shape.of(), random));
    m.put("empty", Tensor.zeros(DType.FLOAT32, Shape.of(0, 4)));
    m.put("empty_strings", Tensor.ofStrings(Shape.of(0)));
    m.put("big", RandomTensors.random(DType.FLOAT32, Shape.of(700, 1000), random));
    m.put("rank4", RandomTensors.random(DType.INT16, Shape.of(2, 3, 4, 5), random));
    return m;
  }

  /** An NPY whose header is {@code dict} (padded as numpy pads it) and data {@code data}. */
  private static byte[] npy(String dict, byte[] data) {
    int unpadded = 10 + dict.length() + 1;
    int pad = 64 - unpadded % 64;
    String header = dict + " ".repeat(pad) + "\n";
    ByteBuffer b = ByteBuffer.allocate(10 + header.length() + data.length).order(ByteOrder.LITTLE_ENDIAN);
    b.put(new byte[] {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0}).putShort((short) header.length());
    b.put(header.getBytes(StandardCharsets.ISO_8859_1)).put(data);
    return b.array();
  }

  private static byte[] bytes(ByteOrder order, int count, int width, long seed) {
    ByteBuffer b = ByteBuffer.allocate(count * width).order(order);
    Random r = new Random(seed);
    for (int i = 0; i < count; i++) {
      switch (width) {
        case 2 -> b.putShort((short) r.nextInt());
        case 4 -> b.putFloat(r.nextFloat());
        default -> b.putDouble(r.nextGaussian());
      }
    }
    return b.array();
  }

  /** Entries numpy may write that are not what Tributary writes: these are decoded and re-encoded. */
  private static LinkedHashMap<String, byte[]> foreignEntries() {
    LinkedHashMap<String, byte[]> m = new LinkedHashMap<>();
    m.put("big_endian", npy("{'descr': '>f8', 'fortran_order': False, 'shape': (3, 4), }",
        bytes(ByteOrder.BIG_ENDIAN, 12, 8, 1)));
    m.put("fortran", npy("{'descr': '<i2', 'fortran_order': True, 'shape': (3, 5), }",
        bytes(ByteOrder.LITTLE_ENDIAN, 15, 2, 2)));
    m.put("fortran_1d", npy("{'descr': '<f4', 'fortran_order': True, 'shape': (6,), }",
        bytes(ByteOrder.LITTLE_ENDIAN, 6, 4, 3)));
    m.put("native_order", npy("{'descr': '=f4', 'fortran_order': False, 'shape': (2, 2), }",
        bytes(ByteOrder.LITTLE_ENDIAN, 4, 4, 4)));
    m.put("compact_header", npy("{'descr':'<f8','fortran_order':False,'shape':(2,)}",
        bytes(ByteOrder.LITTLE_ENDIAN, 2, 8, 5)));
    m.put("wide_unicode", npy("{'descr': '<U6', 'fortran_order': False, 'shape': (2,), }",
        "a\0\0\0b\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0z\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0"
            .getBytes(StandardCharsets.ISO_8859_1)));
    m.put("byte_strings", npy("{'descr': '|S3', 'fortran_order': False, 'shape': (2,), }",
        "abcd\0\0".getBytes(StandardCharsets.ISO_8859_1)));
    m.put("big_endian_scalar", npy("{'descr': '>i4', 'fortran_order': False, 'shape': (), }",
        new byte[] {0, 0, 1, 2}));
    return m;
  }

  private Path zip(String name, Map<String, byte[]> entries, boolean deflated) throws IOException {
    Path f = dir.resolve(name);
    try (ZipOutputStream zip = new ZipOutputStream(Files.newOutputStream(f))) {
      for (Map.Entry<String, byte[]> e : entries.entrySet()) {
        ZipEntry z = new ZipEntry(e.getKey() + ".npy");
        if (!deflated) {
          CRC32 crc = new CRC32();
          crc.update(e.getValue());
          z.setMethod(ZipEntry.STORED);
          z.setSize(e.getValue().length);
          z.setCrc(crc.getValue());
        }
        zip.putNextEntry(z);
        zip.write(e.getValue());
        zip.closeEntry();
      }
    }
    return f;
  }

  static Stream<Arguments> archives() {
    return Stream.of(
        Arguments.of("every dtype, stored", "tributary", false),
        Arguments.of("every dtype, deflated", "tributary", true),
        Arguments.of("foreign layouts, stored", "foreign", false),
        Arguments.of("foreign layouts, deflated", "foreign", true),
        Arguments.of("no arrays", "none", false),
        Arguments.of("one scalar", "scalar", true));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("archives")
  void writeNumpyNdarray_givesTheBytesOfReadingEverythingFirst(String label, String kind, boolean deflated)
      throws IOException {
    Path f = dir.resolve("in.npz");
    switch (kind) {
      case "tributary" -> Npz.write(f, everyDtype(), deflated);
      case "foreign" -> f = zip("in.npz", foreignEntries(), deflated);
      case "none" -> Npz.write(f, Map.of(), deflated);
      default -> Npz.write(f, Map.of("s", Tensor.scalar(1.0f)), deflated);
    }

    byte[] expected = whole(f);

    assertThat(streamed(f)).isEqualTo(expected);
    assertThat(new NumpyNdarraySerializer().deserialize(ParametersCodec.decode(expected)))
        .containsExactlyElementsOf(Npz.read(f).values());
  }

  @Test
  void npzReader_namesAndLengths_areKnownBeforeAnyDataIsRead() throws IOException {
    Path f = zip("in.npz", foreignEntries(), true);
    Parameters p = ParametersCodec.decode(whole(f));
    try (NpzReader r = NpzReader.open(f, NpzReadOptions.defaults())) {
      assertThat(r.names()).containsExactlyElementsOf(foreignEntries().keySet());
      assertThat(r.npyLengths()).containsExactlyElementsOf(p.tensors().stream().map(t -> (long) t.length).toList());
    }
  }

  /** Archives whose data is bad past the header: found only while streaming. */
  static Stream<Arguments> corruptData() {
    return Stream.of(
        Arguments.of("CRC mismatch in the second entry", 1, "entry 'b.npy': CRC-32 mismatch"),
        Arguments.of("truncated data in the last entry", 2, "entry 'c.npy': truncated"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("corruptData")
  void writeNumpyNdarray_corruptData_failsWithTheMessageOfReadingEverythingFirst(String label, int which,
      String problem)
      throws IOException {
    LinkedHashMap<String, byte[]> entries = new LinkedHashMap<>();
    entries.put("a", npy("{'descr': '<f4', 'fortran_order': False, 'shape': (4,), }", new byte[16]));
    entries.put("b", npy("{'descr': '<f8', 'fortran_order': False, 'shape': (4,), }", new byte[32]));
    entries.put("c", npy("{'descr': '<i4', 'fortran_order': False, 'shape': (8,), }", new byte[32]));
    Path f = zip("bad.npz", entries, false);
    byte[] raw = Files.readAllBytes(f);
    if (which == 1) {
      // Flip a data byte of b (zeros, after a's 144 bytes plus headers) without fixing the CRC.
      int at = indexOf(raw, "b.npy") + 5 + 128 + 8;
      raw[at] ^= 1;
    } else {
      // Claim more elements than the data holds, keeping the header's length and the zip's CRC right.
      byte[] c = npy("{'descr': '<i4', 'fortran_order': False, 'shape': (9,), }", new byte[32]);
      entries.put("c", c);
      f = zip("bad.npz", entries, false);
      raw = Files.readAllBytes(f);
    }
    Files.write(f, raw);
    Path bad = f;

    Throwable old = org.assertj.core.api.Assertions.catchThrowable(() -> whole(bad));
    assertThat(old).isInstanceOf(NpyException.class).hasMessageContaining(bad.toString() + ": " + problem);
    assertThatThrownBy(() -> streamed(bad)).isInstanceOf(NpyException.class).hasMessage(old.getMessage());
  }

  private static int indexOf(byte[] haystack, String needle) {
    byte[] n = needle.getBytes(StandardCharsets.US_ASCII);
    outer:
    for (int i = 0; i + n.length <= haystack.length; i++) {
      for (int j = 0; j < n.length; j++) {
        if (haystack[i + j] != n[j]) {
          continue outer;
        }
      }
      return i;
    }
    throw new AssertionError(needle + " not found");
  }

  @Test
  void writeNumpyNdarray_failingOutput_throwsTheOutputsException() throws IOException {
    Path f = dir.resolve("in.npz");
    Npz.write(f, everyDtype(), true);
    IOException full = new IOException("No space left on device");
    OutputStream failing = new OutputStream() {
      private long written;

      @Override
      public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
      }

      @Override
      public void write(byte[] b, int off, int len) throws IOException {
        written += len;
        if (written > 100_000) {
          throw full;
        }
      }
    };
    try (NpzReader r = NpzReader.open(f, NpzReadOptions.defaults())) {
      assertThatThrownBy(() -> ParametersCodec.writeNumpyNdarray(r, failing)).isSameAs(full);
    }
  }

  @Test
  void npzReader_headerProblems_areFoundByOpenWithTheMessagesOfRead() throws IOException {
    LinkedHashMap<String, byte[]> entries = new LinkedHashMap<>();
    entries.put("a", npy("{'descr': '<f4', 'fortran_order': False, 'shape': (4,), }", new byte[16]));
    entries.put("o", npy("{'descr': '|O', 'fortran_order': False, 'shape': (1,), }", new byte[8]));
    Path f = zip("object.npz", entries, true);

    Throwable old = org.assertj.core.api.Assertions.catchThrowable(() -> Npz.read(f));
    assertThat(old).isInstanceOf(NpyException.class).hasMessageContaining("entry 'o.npy': object dtype");
    assertThatThrownBy(() -> NpzReader.open(f, NpzReadOptions.defaults()).close())
        .isInstanceOf(NpyException.class).hasMessage(old.getMessage());
  }

  @Test
  void writeNumpyNdarray_twice_isRefused() throws IOException {
    Path f = dir.resolve("in.npz");
    Npz.write(f, Map.of("x", Tensor.scalar(1.0)), false);
    try (NpzReader r = NpzReader.open(f, NpzReadOptions.defaults())) {
      ParametersCodec.writeNumpyNdarray(r, OutputStream.nullOutputStream());
      assertThatThrownBy(() -> ParametersCodec.writeNumpyNdarray(r, OutputStream.nullOutputStream()))
          .isInstanceOf(IllegalStateException.class);
    }
  }
}
