package io.tributary.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.tensor.DType;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.testing.PythonEnv;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class IdxTest {
  @TempDir Path dir;

  /** An IDX header for type code {@code type} and the given dimensions. */
  static byte[] header(int type, long... dims) {
    ByteBuffer b = ByteBuffer.allocate(4 + 4 * dims.length);
    b.put((byte) 0).put((byte) 0).put((byte) type).put((byte) dims.length);
    for (long d : dims) {
      b.putInt((int) d);
    }
    return b.array();
  }

  static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] p : parts) {
      out.writeBytes(p);
    }
    return out.toByteArray();
  }

  static byte[] gzip(byte[] data) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
      gz.write(data);
    }
    return out.toByteArray();
  }

  Path write(String name, byte[] bytes) throws IOException {
    Path p = dir.resolve(name);
    Files.write(p, bytes);
    return p;
  }

  static Stream<Arguments> types() {
    // type code, dtype, big-endian data for the values {1, -2, 3, 4, 5, 6} (uint8: 254 for -2).
    ByteBuffer i16 = ByteBuffer.allocate(12);
    ByteBuffer i32 = ByteBuffer.allocate(24);
    ByteBuffer f32 = ByteBuffer.allocate(24);
    ByteBuffer f64 = ByteBuffer.allocate(48);
    for (int v : new int[] {1, -2, 3, 4, 5, 6}) {
      i16.putShort((short) v);
      i32.putInt(v);
      f32.putFloat(v + 0.5f);
      f64.putDouble(v + 0.25);
    }
    byte[] i8 = {1, -2, 3, 4, 5, 6};
    return Stream.of(
        Arguments.of(0x08, DType.UINT8, i8, new double[] {1, 254, 3, 4, 5, 6}),
        Arguments.of(0x09, DType.INT8, i8, new double[] {1, -2, 3, 4, 5, 6}),
        Arguments.of(0x0B, DType.INT16, i16.array(), new double[] {1, -2, 3, 4, 5, 6}),
        Arguments.of(0x0C, DType.INT32, i32.array(), new double[] {1, -2, 3, 4, 5, 6}),
        Arguments.of(0x0D, DType.FLOAT32, f32.array(), new double[] {1.5, -1.5, 3.5, 4.5, 5.5, 6.5}),
        Arguments.of(0x0E, DType.FLOAT64, f64.array(),
            new double[] {1.25, -1.75, 3.25, 4.25, 5.25, 6.25}));
  }

  @ParameterizedTest
  @MethodSource("types")
  void read_everyTypeRawAndGzip_valuesAndShape(int code, DType dtype, byte[] data, double[] expected)
      throws IOException {
    byte[] file = concat(header(code, 2, 3), data);
    for (Path p : new Path[] {write("raw.idx", file), write("gz.idx", gzip(file))}) {
      Tensor t = Idx.read(p);
      assertThat(t.dtype()).isEqualTo(dtype);
      assertThat(t.shape()).isEqualTo(Shape.of(2, 3));
      assertThat(t.toDoubleArray()).containsExactly(expected);
    }
  }

  @Test
  void read_largeMultiByteData_convertsAcrossBlockBoundaries() throws IOException {
    int n = 50_000; // more than one 64 KiB read block of int32
    ByteBuffer data = ByteBuffer.allocate(4 * n);
    for (int i = 0; i < n; i++) {
      data.putInt(i * 7919 - 1_000_000);
    }
    Tensor t = Idx.read(write("big.idx.gz", gzip(concat(header(0x0C, n), data.array()))));
    for (int i = 0; i < n; i += 997) {
      assertThat(t.getInt(i)).isEqualTo(i * 7919 - 1_000_000);
    }
    assertThat(t.getInt(n - 1)).isEqualTo((n - 1) * 7919 - 1_000_000);
  }

  static Stream<Arguments> malformed() throws IOException {
    byte[] ok = concat(header(0x08, 2, 2), new byte[] {1, 2, 3, 4});
    return Stream.of(
        Arguments.of("empty", new byte[0], "the file ends inside the magic number"),
        Arguments.of("short magic", new byte[] {0, 0, 8}, "the file ends inside the magic number"),
        Arguments.of("bad magic", concat(new byte[] {1, 0, 8, 1}, new byte[8]),
            "bad magic 0x01000801"),
        Arguments.of("unknown type", concat(header(0x0A, 1), new byte[] {1}),
            "unknown element type code 0x0a"),
        Arguments.of("zero dims", new byte[] {0, 0, 8, 0}, "declares zero dimensions"),
        Arguments.of("cut in dims", Arrays.copyOf(header(0x08, 2, 2), 9),
            "the file ends inside 2 dimensions"),
        Arguments.of("dimension above 2^31-1", concat(header(0x08, 0x80000000L), new byte[1]),
            "dimension 0 is 2147483648, more than 2^31 - 1"),
        Arguments.of("over the byte limit", header(0x0E, 0x7fffffffL, 0x7fffffffL, 0x7fffffffL),
            "need more than the 2147483648-byte limit"),
        Arguments.of("truncated data", Arrays.copyOf(ok, ok.length - 1), "the file has 15: truncated"),
        Arguments.of("trailing bytes", concat(ok, new byte[] {9}), "the file has 17: trailing bytes"),
        Arguments.of("hostile size, tiny raw file", header(0x08, 40_000, 40_000),
            "header describes 1600000012 bytes"),
        Arguments.of("gzip, header lies about size", gzip(concat(header(0x08, 30_000, 30_000),
            new byte[100])), "but the gzip trailer records 112"),
        Arguments.of("gzip truncated", Arrays.copyOf(gzip(ok), gzip(ok).length - 6),
            "gzip trailer records"),
        Arguments.of("gzip too short", new byte[] {0x1f, (byte) 0x8b, 8, 0},
            "shorter than the smallest gzip stream"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("malformed")
  void read_malformed_throwsNamingFileBeforeAllocating(String what, byte[] bytes, String message)
      throws IOException {
    Path p = write("bad-" + what.replace(' ', '_') + ".idx", bytes);
    assertThatThrownBy(() -> Idx.read(p))
        .isInstanceOfSatisfying(DatasetFormatException.class,
            e -> assertThat(e.source()).isEqualTo(p.toString()))
        .hasMessageStartingWith(p + ": ")
        .hasMessageContaining(message);
  }

  @Test
  void read_gzipDataCorruptAfterValidTrailer_throwsTyped() throws IOException {
    byte[] raw = concat(header(0x08, 300), new byte[300]);
    Arrays.fill(raw, 8, raw.length, (byte) 7);
    byte[] gz = gzip(raw);
    gz[gz.length / 2] ^= 0x55; // damage the deflate stream, keep the trailer
    Path p = write("corrupt.gz", gz);
    assertThatThrownBy(() -> Idx.read(p))
        .isInstanceOf(DatasetFormatException.class)
        .hasMessageStartingWith(p + ": ");
  }

  @Test
  void read_limit_appliesToDataBytes() throws IOException {
    Path p = write("f.idx", concat(header(0x0D, 4), new byte[16]));
    assertThat(Idx.read(p, 16).size()).isEqualTo(4);
    assertThatThrownBy(() -> Idx.read(p, 15))
        .isInstanceOf(DatasetFormatException.class)
        .hasMessageContaining("dimensions [4] of float32 need more than the 15-byte limit");
  }

  @Test
  void read_zeroSizedDimension_emptyTensor() throws IOException {
    Tensor t = Idx.read(write("e.idx", header(0x08, 0, 28, 28)));
    assertThat(t.shape()).isEqualTo(Shape.of(0, 28, 28));
  }

  /** Found by IdxFuzzTest: dimensions whose product overflows before a zero one threw. */
  @Test
  void read_zeroDimensionAfterHugeOnes_emptyTensor() throws IOException {
    long big = Integer.MAX_VALUE;
    Tensor t = Idx.read(write("z.idx", header(0x08, big, big, big, 0, 7)));
    assertThat(t.shape()).isEqualTo(Shape.of(big, big, big, 0, 7));
    assertThat(t.size()).isZero();
  }

  private void writeMnistPair(String prefix, int n, boolean gz) throws IOException {
    byte[] pixels = new byte[n * 2 * 3];
    byte[] labels = new byte[n];
    for (int i = 0; i < pixels.length; i++) {
      pixels[i] = (byte) (i * 37);
    }
    for (int i = 0; i < n; i++) {
      labels[i] = (byte) (i % 10);
    }
    byte[] img = concat(header(0x08, n, 2, 3), pixels);
    byte[] lab = concat(header(0x08, n), labels);
    String suffix = gz ? ".gz" : "";
    write(prefix + "-images-idx3-ubyte" + suffix, gz ? gzip(img) : img);
    write(prefix + "-labels-idx1-ubyte" + suffix, gz ? gzip(lab) : lab);
  }

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void loadMnistLayout_rawOrGzip_flattenedScaledFeatures(boolean gz) throws IOException {
    writeMnistPair("train", 12, gz);
    writeMnistPair("t10k", 5, !gz);
    TrainTestSplit s = Idx.loadMnistLayout(dir, "mini");
    assertThat(s.train().name()).isEqualTo("mini/train");
    assertThat(s.train().size()).isEqualTo(12);
    assertThat(s.test().size()).isEqualTo(5);
    assertThat(s.train().exampleShape()).containsExactly(6);
    assertThat(s.train().numClasses()).isEqualTo(10);
    float[] x = s.train().features().toFloatArray();
    for (int i = 0; i < x.length; i++) {
      assertThat(x[i]).isEqualTo(((i * 37) & 0xff) / 255f);
    }
    assertThat(s.test().labelArray()).containsExactly(0, 1, 2, 3, 4);
  }

  @Test
  void loadMnistLayout_missingFile_namesBothForms() throws IOException {
    writeMnistPair("train", 3, false);
    assertThatThrownBy(() -> Idx.loadMnistLayout(dir, "m"))
        .isInstanceOf(NoSuchFileException.class)
        .hasMessageContaining("t10k-images-idx3-ubyte")
        .hasMessageContaining("t10k-images-idx3-ubyte.gz");
  }

  @Test
  void loadDataset_mismatches_throwNamingFile() throws IOException {
    Path img = write("img", concat(header(0x08, 3, 2, 2), new byte[12]));
    Path lab2 = write("lab2", concat(header(0x08, 2), new byte[] {0, 1}));
    Path lab3 = write("lab3", concat(header(0x08, 3), new byte[] {0, 1, 10}));
    Path labInt = write("labInt", concat(header(0x0C, 3), new byte[12]));
    Path flat = write("flat", concat(header(0x08, 3), new byte[3]));
    assertThatThrownBy(() -> Idx.loadDataset("d", img, lab2, 10))
        .hasMessageStartingWith(lab2 + ": 2 labels but " + img + " holds 3 images");
    assertThatThrownBy(() -> Idx.loadDataset("d", img, lab3, 10))
        .hasMessageStartingWith(lab3 + ": label 10 of example 2 is not below numClasses 10");
    assertThatThrownBy(() -> Idx.loadDataset("d", img, labInt, 10))
        .hasMessageStartingWith(labInt + ": expected unsigned-byte labels of rank 1");
    assertThatThrownBy(() -> Idx.loadDataset("d", flat, lab3, 10))
        .hasMessageStartingWith(flat + ": expected unsigned-byte images of rank >= 2");
    assertThat(Idx.loadDataset("d", img, lab3, 11).labelArray()).containsExactly(0, 1, 10);
  }

  @Test
  void fashionMnist_debianPackage_loadsBalanced60kAnd10k() throws IOException {
    Path dir = Path.of(System.getProperty("tributary.fashionMnistDir",
        FashionMnist.DEBIAN_DIR.toString()));
    String missing = "Fashion-MNIST not installed at " + dir
        + " (apt-get install dataset-fashion-mnist, or set -Dtributary.fashionMnistDir)";
    if (!Files.isDirectory(dir)) {
      // .ci/run installs the package: there, a missing dataset is a failure, not a skip.
      PythonEnv.unavailable(missing);
    }
    TrainTestSplit s = FashionMnist.load(dir);
    assertThat(s.train().size()).isEqualTo(60_000);
    assertThat(s.test().size()).isEqualTo(10_000);
    assertThat(s.train().exampleShape()).containsExactly(784);
    assertThat(s.train().labelCounts()).containsOnly(6000);
    assertThat(s.test().labelCounts()).containsOnly(1000);
    assertThat(FashionMnist.CLASS_NAMES).hasSize(10);
  }
}
