package io.tributary.tensor.npy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.tensor.DType;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Malformed and lying NPZ archives are refused with a message naming the entry. */
class NpzBadInputTest {
  @TempDir Path dir;

  /** A zip with the given entries (name, content), deflated or stored. */
  static byte[] zip(boolean deflate, Object... nameThenBytes) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (ZipOutputStream z = new ZipOutputStream(out)) {
      for (int i = 0; i < nameThenBytes.length; i += 2) {
        byte[] data = (byte[]) nameThenBytes[i + 1];
        ZipEntry e = new ZipEntry((String) nameThenBytes[i]);
        if (!deflate) {
          java.util.zip.CRC32 crc = new java.util.zip.CRC32();
          crc.update(data);
          e.setMethod(ZipEntry.STORED);
          e.setSize(data.length);
          e.setCompressedSize(data.length);
          e.setCrc(crc.getValue());
        }
        z.putNextEntry(e);
        z.write(data);
        z.closeEntry();
      }
    }
    return out.toByteArray();
  }

  static byte[] array(int n) throws NpyException {
    return Npy.toBytes(TestTensors.patterned(DType.FLOAT32, Shape.of(n), n));
  }

  /** Replaces every occurrence of {@code from} with {@code to} (same length). */
  static byte[] replace(byte[] in, String from, String to) {
    byte[] out = in.clone();
    byte[] f = from.getBytes(StandardCharsets.ISO_8859_1);
    byte[] t = to.getBytes(StandardCharsets.ISO_8859_1);
    for (int i = 0; i + f.length <= out.length; i++) {
      if (Arrays.equals(out, i, i + f.length, f, 0, f.length)) {
        System.arraycopy(t, 0, out, i, t.length);
      }
    }
    return out;
  }

  /** Overwrites a 4-byte little-endian field of the first central directory header. */
  static byte[] patchCentral(byte[] zip, int fieldOffset, long value) {
    byte[] out = zip.clone();
    for (int i = 0; i + 4 <= out.length; i++) {
      if (out[i] == 'P' && out[i + 1] == 'K' && out[i + 2] == 1 && out[i + 3] == 2) {
        for (int k = 0; k < 4; k++) {
          out[i + fieldOffset + k] = (byte) (value >>> (8 * k));
        }
        return out;
      }
    }
    throw new AssertionError("no central directory header");
  }

  private static byte[] garbageAfterSignature() {
    byte[] b = new byte[64];
    Arrays.fill(b, (byte) 0x55);
    b[0] = 'P';
    b[1] = 'K';
    b[2] = 3;
    b[3] = 4;
    return b;
  }

  static Stream<Arguments> badArchives() throws IOException {
    byte[] good = zip(true, "a.npy", array(5), "b.npy", array(7));
    byte[] goodStored = zip(false, "a.npy", array(50));
    return Stream.of(
        Arguments.of("garbage", "this is not a zip file at all".getBytes(StandardCharsets.US_ASCII), "not a zip archive"),
        Arguments.of("empty input", new byte[0], "not a zip archive"),
        Arguments.of("npy instead of npz", array(3), "not a zip archive"),
        Arguments.of("local header then garbage", garbageAfterSignature(), "zip"),
        Arguments.of("entry name not UTF-8", replace(good, "b.npy", "\u00ff.npy"), "zip"),
        Arguments.of("duplicate entry", replace(good, "b.npy", "a.npy"), "duplicate entry 'a.npy'"),
        Arguments.of("non-npy entry", zip(true, "a.npy", array(2), "readme.txt", new byte[3]),
            "entry 'readme.txt' is not a .npy array"),
        Arguments.of("directory entry", zip(true, "dir/", new byte[0]), "entry 'dir/' is not a .npy array"),
        Arguments.of("truncated deflated entry", Arrays.copyOf(good, 70), "entry 'a.npy'"),
        Arguments.of("truncated stored entry", Arrays.copyOf(goodStored, 150), "entry 'a.npy'"),
        Arguments.of("entry holding garbage", zip(true, "x.npy", "garbage!".getBytes(StandardCharsets.US_ASCII)),
            "entry 'x.npy': not an NPY array"),
        Arguments.of("entry with bytes after its array", zip(false, "x.npy", Arrays.copyOf(array(4), array(4).length + 3)),
            "entry 'x.npy': holds more bytes than its array"),
        Arguments.of("entry with unsupported dtype",
            zip(true, "o.npy", NpyBadInputTest.npy("{'descr': '|O', 'fortran_order': False, 'shape': (1,)}", 8)),
            "entry 'o.npy': object dtype"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("badArchives")
  void readBytes_badArchive_throwsNpyExceptionNamingTheProblem(String name, byte[] zip, String message) {
    assertThatThrownBy(() -> Npz.read(zip)).isInstanceOf(NpyException.class).hasMessageContaining(message);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("badArchives")
  void readPath_badArchive_throwsNpyExceptionNamingTheFile(String name, byte[] zip, String message) throws IOException {
    Path file = dir.resolve("bad.npz");
    Files.write(file, zip);
    assertThatThrownBy(() -> Npz.read(file)).isInstanceOf(NpyException.class).hasMessageContaining(file.toString());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("badArchives")
  void npzReader_badArchive_failsWithReadsMessage(String name, byte[] zip, String message) throws IOException {
    Path file = dir.resolve("bad.npz");
    Files.write(file, zip);
    Throwable whole = org.assertj.core.api.Assertions.catchThrowable(() -> Npz.read(file));
    assertThat(whole).isInstanceOf(NpyException.class);
    // The streaming reader finds header problems in open and data problems while transferring.
    assertThatThrownBy(() -> {
      try (NpzReader r = NpzReader.open(file, NpzReadOptions.defaults())) {
        r.transferTo((i, n, len) -> java.io.OutputStream.nullOutputStream());
      }
    }).isInstanceOf(NpyException.class).hasMessage(whole.getMessage());
  }

  @Test
  void readPath_centralSizeSmallerThanData_throwsTruncated() throws IOException {
    byte[] zip = patchCentral(zip(true, "a.npy", array(100)), 24, 200);
    assertThat(readFile(zip)).hasMessageContaining("entry 'a.npy'").hasMessageContaining("truncated");
  }

  @Test
  void readPath_centralSizeLargerThanData_throwsSizeMismatch() throws IOException {
    byte[] npy = array(100);
    byte[] zip = patchCentral(zip(true, "a.npy", npy), 24, npy.length + 1000);
    assertThat(readFile(zip)).hasMessageContaining("entry 'a.npy'").hasMessageContaining("declares " + (npy.length + 1000));
  }

  @Test
  void readPath_absurdCompressionRatio_throwsBeforeReading() throws IOException {
    byte[] zip = patchCentral(zip(true, "a.npy", array(100)), 24, 0xFFFF_FFF0L);
    assertThat(readFile(zip)).hasMessageContaining("entry 'a.npy'").hasMessageContaining("in total, over 100 times");
    // With the total unlimited, deflate's own bound still refuses it.
    Path file = dir.resolve("patched.npz");
    assertThatThrownBy(() -> Npz.read(file, new NpzReadOptions(Long.MAX_VALUE, Long.MAX_VALUE)))
        .isInstanceOf(NpyException.class).hasMessageContaining("ratio deflate cannot produce");
  }

  @Test
  void readPath_storedSizesDisagree_throws() throws IOException {
    byte[] npy = array(10);
    byte[] zip = patchCentral(zip(false, "a.npy", npy), 24, npy.length + 8);
    assertThat(readFile(zip)).hasMessageContaining("stored entry 'a.npy' declares");
  }

  @Test
  void readPath_wrongCrc_throwsCrcMismatch() throws IOException {
    byte[] zip = patchCentral(zip(true, "a.npy", array(10)), 16, 0x12345678L);
    assertThat(readFile(zip)).hasMessageContaining("entry 'a.npy'").hasMessageContaining("CRC-32 mismatch");
  }

  @Test
  void read_emptyArchive_returnsNoArrays() throws IOException {
    byte[] empty = Npz.toBytes(Map.of(), false);
    assertThat(Npz.read(empty)).isEmpty();
    Path file = dir.resolve("empty.npz");
    Npz.write(file, new LinkedHashMap<>(), true);
    assertThat(Npz.read(file)).isEmpty();
  }

  @Test
  void toBytes_bfloat16Array_throwsNamingTheArray() {
    Map<String, Tensor> arrays = Map.of("w", Tensor.zeros(DType.BFLOAT16, Shape.of(2)));
    assertThatThrownBy(() -> Npz.toBytes(arrays, true))
        .isInstanceOf(NpyUnsupportedDtypeException.class)
        .hasMessageContaining("array 'w'")
        .hasMessageContaining("bfloat16");
  }

  private Throwable readFile(byte[] zip) throws IOException {
    Path file = dir.resolve("patched.npz");
    Files.write(file, zip);
    Throwable t = org.assertj.core.api.Assertions.catchThrowable(() -> Npz.read(file));
    assertThat(t).isInstanceOf(NpyException.class).hasMessageContaining(file.toString());
    return t;
  }
}
