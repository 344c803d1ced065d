package io.tributary.tensor.npy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.tensor.DType;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.TensorBuilder;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** NPY behaviour that needs no Python: header text, layouts, versions, files. */
class NpyTest {
  @TempDir Path dir;

  static Stream<Arguments> headers() {
    return Stream.of(
        Arguments.of(Tensor.zeros(DType.FLOAT32, Shape.of(3, 4)),
            "{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }" + " ".repeat(20)),
        Arguments.of(Tensor.zeros(DType.FLOAT32, Shape.of(5)),
            "{'descr': '<f4', 'fortran_order': False, 'shape': (5,), }" + " ".repeat(20)),
        Arguments.of(Tensor.scalar(1.0), "{'descr': '<f8', 'fortran_order': False, 'shape': (), }"),
        Arguments.of(Tensor.zeros(DType.UINT8, Shape.of(1234567, 0, 2)),
            "{'descr': '|u1', 'fortran_order': False, 'shape': (1234567, 0, 2), }" + " ".repeat(14)),
        Arguments.of(Tensor.ofStrings(Shape.of(2), "ab", "c"),
            "{'descr': '<U2', 'fortran_order': False, 'shape': (2,), }" + " ".repeat(20)));
  }

  @ParameterizedTest
  @MethodSource("headers")
  void toBytes_anyShape_writesNumpysHeaderPaddedTo64(Tensor t, String dict) throws IOException {
    byte[] npy = Npy.toBytes(t);
    int headerLength = (npy[8] & 0xFF) | (npy[9] & 0xFF) << 8;
    String header = new String(npy, 10, headerLength, StandardCharsets.ISO_8859_1);
    assertThat(Arrays.copyOf(npy, 8)).isEqualTo(new byte[] {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0});
    assertThat(header).startsWith(dict).endsWith("\n");
    assertThat(header.substring(dict.length(), header.length() - 1)).isBlank();
    assertThat((10 + headerLength) % 64).isZero();
  }

  @Test
  void toBytes_float32Matrix_equalsKnownNpSaveOutput() throws IOException {
    Tensor t = Tensor.ofFloats(Shape.of(2, 2), 1f, 2f, -0f, Float.NaN);
    byte[] npy = Npy.toBytes(t);
    // Copied from python3 -c "np.save(b, np.zeros((2, 2), 'f4'))": 58 spaces of padding.
    String expectedHeader = "\u0093NUMPY\u0001\u0000v\u0000{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2), }"
        + " ".repeat(58) + "\n";
    assertThat(new String(npy, 0, 128, StandardCharsets.ISO_8859_1)).isEqualTo(expectedHeader);
    ByteBuffer data = ByteBuffer.wrap(npy, 128, 16).order(ByteOrder.LITTLE_ENDIAN);
    assertThat(data.getInt()).isEqualTo(Float.floatToRawIntBits(1f));
    assertThat(data.getInt()).isEqualTo(Float.floatToRawIntBits(2f));
    assertThat(data.getInt()).isEqualTo(Float.floatToRawIntBits(-0f));
    assertThat(data.getInt()).isEqualTo(Float.floatToRawIntBits(Float.NaN));
    assertThat(npy).hasSize(144);
  }

  @Test
  void write_explicitVersions_writeThatVersionAndReadBack() throws IOException {
    Tensor t = TestTensors.patterned(DType.INT16, Shape.of(3, 2), 4);
    for (NpyVersion v : NpyVersion.values()) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      Npy.write(t, out, v);
      byte[] npy = out.toByteArray();
      NpyHeader header = Npy.readHeader(npy);
      assertThat(header.version()).isEqualTo(v);
      assertThat(npy[6]).isEqualTo((byte) v.major());
      assertThat(header.dataOffset() % 64).isZero();
      assertThat(header.descr()).isEqualTo("<i2");
      assertThat(Npy.fromBytes(npy)).isEqualTo(t);
    }
  }

  @Test
  void toBytes_rankOver64_refusedSinceNumpyCouldNotReadIt() throws IOException {
    long[] dims = new long[65];
    Arrays.fill(dims, 1);
    Tensor t = Tensor.zeros(DType.UINT8, Shape.of(dims));
    assertThatThrownBy(() -> Npy.toBytes(t))
        .isInstanceOf(NpyException.class)
        .hasMessageContaining("rank 65 is over numpy's limit of 64");
    Tensor max = Tensor.zeros(DType.UINT8, Shape.of(Arrays.copyOf(dims, 64)));
    assertThat(Npy.fromBytes(Npy.toBytes(max))).isEqualTo(max);
  }

  @Test
  void fromBytes_bigEndianFortranInt32_returnsRowMajorLittleEndian() throws IOException {
    // Column-major 2x3 [[1, 2, 3], [4, 5, 6]] is stored 1, 4, 2, 5, 3, 6.
    ByteBuffer data = ByteBuffer.allocate(24).order(ByteOrder.BIG_ENDIAN);
    for (int v : new int[] {1, 4, 2, 5, 3, 6}) {
      data.putInt(v);
    }
    byte[] npy = NpyBadInputTest.npy(1, 0, "{'descr': '>i4', 'fortran_order': True, 'shape': (2, 3), }", data.array());
    Tensor t = Npy.fromBytes(npy);
    assertThat(t).isEqualTo(Tensor.ofInts(Shape.of(2, 3), 1, 2, 3, 4, 5, 6));
    assertThat(Npy.readHeader(npy).fortranOrder()).isTrue();
  }

  @Test
  void fromBytes_bigEndianComplex_swapsEachPartSeparately() throws IOException {
    ByteBuffer data = ByteBuffer.allocate(16).order(ByteOrder.BIG_ENDIAN).putFloat(1.5f).putFloat(-2.25f)
        .putFloat(Float.NaN).putFloat(3e30f);
    byte[] npy = NpyBadInputTest.npy(1, 0, "{'descr': '>c8', 'fortran_order': False, 'shape': (2,), }", data.array());
    Tensor t = Npy.fromBytes(npy);
    assertThat(t.dtype()).isEqualTo(DType.COMPLEX64);
    assertThat(new double[] {t.getReal(0), t.getImag(0), t.getImag(1)}).containsExactly(1.5, -2.25, 3e30f);
    assertThat(t.getReal(1)).isNaN();
  }

  @Test
  void fromBytes_fortranStrings3d_returnsRowMajorOrder() throws IOException {
    // Shape (2, 2, 2): element (i, j, k) is stored at i + 2j + 4k in column-major order.
    String[] rowMajor = {"a", "b", "c", "d", "e", "f", "g", "h"};
    ByteBuffer data = ByteBuffer.allocate(8 * 4).order(ByteOrder.BIG_ENDIAN);
    for (int k = 0; k < 2; k++) {
      for (int j = 0; j < 2; j++) {
        for (int i = 0; i < 2; i++) {
          data.putInt(rowMajor[4 * i + 2 * j + k].codePointAt(0));
        }
      }
    }
    byte[] npy = NpyBadInputTest.npy(1, 0, "{'descr': '>U1', 'fortran_order': True, 'shape': (2, 2, 2), }", data.array());
    assertThat(Npy.fromBytes(npy)).isEqualTo(Tensor.ofStrings(Shape.of(2, 2, 2), rowMajor));
  }

  @Test
  void fromBytes_paddedStrings_dropOnlyTrailingNuls() throws IOException {
    ByteBuffer data = ByteBuffer.allocate(2 * 16).order(ByteOrder.LITTLE_ENDIAN);
    data.putInt('a').putInt(0).putInt('b').putInt(0);
    data.putInt(0x1F389).putInt(0).putInt(0).putInt(0);
    byte[] npy = NpyBadInputTest.npy(3, 0, "{'descr': '<U4', 'fortran_order': False, 'shape': (2,), }", data.array());
    assertThat(Npy.fromBytes(npy)).isEqualTo(Tensor.ofStrings(Shape.of(2), "a\u0000b", "\uD83C\uDF89"));
    byte[] bytes = NpyBadInputTest.npy(1, 0, "{'descr': '|S4', 'fortran_order': False, 'shape': (2,), }",
        new byte[] {'h', (byte) 0xC3, (byte) 0xA9, 0, 0, 'x', 0, 0});
    assertThat(Npy.fromBytes(bytes)).isEqualTo(Tensor.ofStrings(Shape.of(2), "hé", "\u0000x"));
  }

  @Test
  void toBytes_strings_writesLittleEndianUtf32OfTheLongestElement() throws IOException {
    Tensor t = Tensor.ofStrings(Shape.of(2), "ab", "\uD83C\uDF89");
    byte[] npy = Npy.toBytes(t);
    NpyHeader header = Npy.readHeader(npy);
    assertThat(header.descr()).isEqualTo("<U2");
    ByteBuffer data = ByteBuffer.wrap(npy, header.dataOffset(), 16).order(ByteOrder.LITTLE_ENDIAN);
    assertThat(new int[] {data.getInt(), data.getInt(), data.getInt(), data.getInt()})
        .containsExactly('a', 'b', 0x1F389, 0);
    assertThat(Npy.readHeader(Npy.toBytes(Tensor.ofStrings(Shape.of(0)))).descr()).isEqualTo("<U1");
  }

  @Test
  void toBytes_sliceOfMultiChunkTensor_equalsItsContiguousCopy() throws IOException {
    for (DType d : TestTensors.numpyDtypes()) {
      Tensor chunked = TestTensors.patterned(d, Shape.of(7, 5, 3), 11, 4);
      Tensor view = chunked.slice(1, 1, 4).slice(0, 2, 6);
      Tensor copy = TestTensors.patterned(d, Shape.of(7, 5, 3), 11).slice(1, 1, 4).slice(0, 2, 6).contiguous();
      assertThat(view.isContiguous()).isFalse();
      assertThat(Npy.toBytes(view)).as("%s", d).isEqualTo(Npy.toBytes(copy));
      assertThat(Npy.toBytes(chunked)).as("%s", d)
          .isEqualTo(Npy.toBytes(TestTensors.patterned(d, Shape.of(7, 5, 3), 11)));
      assertThat(Npy.fromBytes(Npy.toBytes(view))).isEqualTo(view);
    }
  }

  @Test
  void fromBytes_fortranIntoMultiChunkSizes_matchesElementwiseTranspose() throws IOException {
    // 9 x 7 float64 exceeds one 16-byte chunk many times over only when chunked; here we check the
    // odometer against an independent element-by-element transpose.
    Tensor c = TestTensors.patterned(DType.FLOAT64, Shape.of(9, 7, 3), 5);
    ByteBuffer fortran = ByteBuffer.allocate((int) c.byteSize()).order(ByteOrder.LITTLE_ENDIAN);
    for (int k = 0; k < 3; k++) {
      for (int j = 0; j < 7; j++) {
        for (int i = 0; i < 9; i++) {
          fortran.putDouble(c.getDouble(i * 21L + j * 3L + k));
        }
      }
    }
    byte[] npy = NpyBadInputTest.npy(2, 0, "{'descr': '<f8', 'fortran_order': True, 'shape': (9, 7, 3), }",
        fortran.array());
    assertThat(Npy.fromBytes(npy)).isEqualTo(c);
  }

  @Test
  void read_pathWithTrailingBytes_throwsNamingTheFile() throws IOException {
    Path file = dir.resolve("trailing.npy");
    byte[] npy = Npy.toBytes(Tensor.ofInts(Shape.of(2), 1, 2));
    Files.write(file, Arrays.copyOf(npy, npy.length + 1));
    assertThatThrownBy(() -> Npy.read(file))
        .isInstanceOf(NpyException.class)
        .hasMessageContaining(file.toString())
        .hasMessageContaining("unexpected bytes after the array data");
  }

  @Test
  void read_pathWithObjectDtype_throwsUnsupportedNamingFileAndDescr() throws IOException {
    Path file = dir.resolve("object.npy");
    Files.write(file, NpyBadInputTest.npy("{'descr': '|O', 'fortran_order': False, 'shape': (1,), }", 8));
    assertThatThrownBy(() -> Npy.read(file))
        .isInstanceOfSatisfying(NpyUnsupportedDtypeException.class, e -> assertThat(e.dtype()).isEqualTo("|O"))
        .hasMessageContaining(file.toString())
        .hasMessageContaining("'|O'");
  }

  @Test
  void write_thenReadPath_roundTripsEveryDtype() throws IOException {
    int seed = 0;
    for (DType d : TestTensors.numpyDtypes()) {
      Tensor t = TestTensors.patterned(d, Shape.of(4, 3), seed++);
      Path file = dir.resolve(d + ".npy");
      Npy.write(t, file);
      assertThat(Npy.read(file)).isEqualTo(t);
      assertThat(Files.readAllBytes(file)).isEqualTo(Npy.toBytes(t));
    }
  }

  @Test
  void npzWriteRead_path_keepsEntryOrderAndNames() throws IOException {
    LinkedHashMap<String, Tensor> arrays = new LinkedHashMap<>();
    arrays.put("zeta", Tensor.ofFloats(Shape.of(2), 1f, 2f));
    arrays.put("alpha", Tensor.ofStrings(Shape.scalar(), "x"));
    arrays.put("layer/0/w", TestTensors.patterned(DType.UINT64, Shape.of(3, 0), 1));
    for (boolean compressed : new boolean[] {false, true}) {
      Path file = dir.resolve("a" + compressed + ".npz");
      Npz.write(file, arrays, compressed);
      LinkedHashMap<String, Tensor> back = Npz.read(file);
      assertThat(back).containsExactlyEntriesOf(arrays);
      assertThat(Files.readAllBytes(file)).isEqualTo(Npz.toBytes(arrays, compressed));
    }
    assertThat(Npz.named(List.of(Tensor.scalar(1f), Tensor.scalar(2.0))).keySet()).containsExactly("arr_0", "arr_1");
  }

  @Test
  void npzToBytes_compressedZeros_isSmallAndReadsBack() throws IOException {
    LinkedHashMap<String, Tensor> arrays = new LinkedHashMap<>();
    arrays.put("zeros", Tensor.zeros(DType.FLOAT32, Shape.of(512, 512)));
    byte[] zip = Npz.toBytes(arrays, true);
    assertThat(zip.length).isLessThan(10_000);
    // 1 MiB from under 10 KB is more than the default ratio of 100 allows.
    assertThatThrownBy(() -> Npz.read(zip)).isInstanceOf(NpyException.class).hasMessageContaining("maxExpansionRatio");
    assertThat(Npz.read(zip, NpzReadOptions.defaults().withMaxExpansionRatio(1032))).containsExactlyEntriesOf(arrays);
  }

  @Test
  void fromBytes_largeMultiChunkStore_readsViaBulkCopy() throws IOException {
    TensorBuilder b = TensorBuilder.allocate(DType.FLOAT32, Shape.of(1000, 1000));
    for (int i = 0; i < 1_000_000; i += 997) {
      b.setFloat(i, i);
    }
    Tensor t = b.build();
    assertThat(Npy.fromBytes(Npy.toBytes(t))).isEqualTo(t);
  }
}
