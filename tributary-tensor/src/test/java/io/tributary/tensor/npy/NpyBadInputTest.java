package io.tributary.tensor.npy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Malformed, truncated and hostile NPY input fails fast with a typed exception saying why. */
class NpyBadInputTest {
  private static final String F4_3X4 = "{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }";

  /** An NPY file with any version bytes, header text and data, unpadded. */
  static byte[] npy(int major, int minor, String dict, byte[] data) {
    byte[] text = dict.getBytes(major == 3 ? StandardCharsets.UTF_8 : StandardCharsets.ISO_8859_1);
    int lengthBytes = major == 1 ? 2 : 4;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(new byte[] {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y', (byte) major, (byte) minor});
    for (int i = 0; i < lengthBytes; i++) {
      out.write(text.length >>> (8 * i));
    }
    out.writeBytes(text);
    out.writeBytes(data);
    return out.toByteArray();
  }

  static byte[] npy(String dict, int dataBytes) {
    return npy(1, 0, dict, new byte[dataBytes]);
  }

  static byte[] valid() {
    return npy(F4_3X4, 48);
  }

  static Stream<Arguments> badInputs() {
    byte[] valid = valid();
    byte[] hugeV2Length = Arrays.copyOf(npy(2, 0, F4_3X4, new byte[48]), 200);
    hugeV2Length[8] = (byte) 0xF0;
    hugeV2Length[9] = hugeV2Length[10] = hugeV2Length[11] = (byte) 0xFF;
    byte[] v1LengthBeyondInput = Arrays.copyOf(valid, 100);
    v1LengthBeyondInput[8] = (byte) 0x60;
    v1LengthBeyondInput[9] = (byte) 0xEA;
    byte[] badUtf8 = npy(3, 0, F4_3X4, new byte[48]);
    badUtf8[12 + 12] = (byte) 0xC3;
    byte[] codePoint = new byte[4];
    codePoint[2] = 0x11;
    return Stream.of(
        bad("empty input", new byte[0], "inside the magic string"),
        bad("bad magic", npyWithMagic("\u0093NUMPX"), "not an NPY array"),
        bad("zip instead of npy", "PK\u0003\u0004rest of a zip".getBytes(StandardCharsets.ISO_8859_1), "not an NPY array"),
        bad("truncated magic", Arrays.copyOf(valid, 5), "inside the magic string"),
        bad("truncated header length", Arrays.copyOf(valid, 9), "inside the header length"),
        bad("truncated header", Arrays.copyOf(valid, 30), "inside the header"),
        bad("truncated data", Arrays.copyOf(valid, valid.length - 3), "needs 48 bytes of data but only 45"),
        bad("trailing data", Arrays.copyOf(valid, valid.length + 2), "2 unexpected bytes after the array data"),
        bad("v2 header length of 4 GiB", hugeV2Length, "exceeds the limit"),
        bad("v1 header length beyond input", v1LengthBeyondInput, "inside the header"),
        bad("version 4.0", npy(4, 0, F4_3X4, new byte[48]), "unsupported NPY format version 4.0"),
        bad("version 1.1", npy(1, 1, F4_3X4, new byte[48]), "unsupported NPY format version 1.1"),
        bad("version 0.0", npy(0, 0, F4_3X4, new byte[48]), "version 0.0"),
        bad("v3 header not UTF-8", badUtf8, "not valid UTF-8"),
        bad("list header", npy("['descr', '<f4']", 0), "expected '{'"),
        bad("empty header", npy("", 0), "expected '{'"),
        bad("empty dict", npy("{}", 0), "lacks key(s) [descr, fortran_order, shape]"),
        bad("missing key", npy("{'descr': '<f4', 'shape': (3,), }", 12), "lacks key(s) [fortran_order]"),
        bad("unknown key", npy("{'descr': '<f4', 'fortran_order': False, 'shape': (3,), 'x': 1}", 12),
            "unknown key 'x'"),
        bad("duplicate key", npy("{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (3,)}", 12),
            "duplicate key 'descr'"),
        bad("junk after dict", npy(F4_3X4 + " junk", 48), "unexpected text after the header dict"),
        bad("unterminated dict", npy("{'descr': '<f4', 'fortran_order': False", 48), "expected ',' or '}'"),
        bad("unterminated string", npy("{'descr': '<f4", 48), "unterminated string"),
        bad("fortran_order not bool", npy("{'descr': '<f4', 'fortran_order': 0, 'shape': (3,)}", 12),
            "fortran_order must be True or False"),
        bad("shape as list", npy("{'descr': '<f4', 'fortran_order': False, 'shape': [3, 4]}", 48),
            "shape must be a tuple"),
        bad("shape as parenthesised int", npy("{'descr': '<f4', 'fortran_order': False, 'shape': (3)}", 12),
            "is an int, not a tuple"),
        bad("shape with a name", npy("{'descr': '<f4', 'fortran_order': False, 'shape': (3, n)}", 12),
            "expected an integer dimension"),
        bad("shape with a float", npy("{'descr': '<f4', 'fortran_order': False, 'shape': (3.5,)}", 12),
            "expected ',' or ')' in shape"),
        bad("negative dimension", npy("{'descr': '<f4', 'fortran_order': False, 'shape': (-1, 3)}", 12),
            "negative dimension -1 at axis 0"),
        bad("dimension beyond a long", npy("{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999,)}", 0),
            "does not fit in a long"),
        bad("element count beyond a long", npy("{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 4294967296)}", 0),
            "larger than numpy allows"),
        bad("byte count beyond a long", npy("{'descr': '<f8', 'fortran_order': False, 'shape': (2305843009213693952,)}", 0),
            "'<f8': shape [2305843009213693952] of 8-byte items is larger than numpy allows"),
        bad("zero dimension beside an overflowing product", npy("{'descr': '<f4', 'fortran_order': False, 'shape': (0, 4294967296, 4294967296)}", 0),
            "larger than numpy allows"),
        bad("65 dimensions", npy("{'descr': '<f4', 'fortran_order': False, 'shape': (" + "1, ".repeat(65) + "), }", 4),
            "more than numpy's 64 dimensions"),
        bad("zero-width strings, many", npy("{'descr': '<U0', 'fortran_order': False, 'shape': (1000000000,)}", 0),
            "zero-width string array '<U0' claims 1000000000 elements"),
        bad("code point beyond Unicode", npy(1, 0, "{'descr': '<U1', 'fortran_order': False, 'shape': (1,)}", codePoint),
            "0x110000, which is not a Unicode code point"),
        bad("byte string not UTF-8", npy(1, 0, "{'descr': '|S2', 'fortran_order': False, 'shape': (1,)}",
            new byte[] {(byte) 0xFF, 'a'}), "not valid UTF-8"),
        unsupported("object dtype", "|O", "pickled Python objects"),
        unsupported("datetime dtype", "<M8[ns]", "datetime/timedelta"),
        unsupported("timedelta dtype", "<m8[s]", "datetime/timedelta"),
        unsupported("void dtype", "|V8", "void"),
        unsupported("long double", "<f16", "long double"),
        unsupported("three-byte int", "<i3", "'<i3' is not supported"),
        unsupported("dtype by name", "float32", "'float32' is not a dtype Tributary reads"),
        unsupported("empty descr", "", "names no dtype"),
        Arguments.of("structured dtype",
            npy("{'descr': [('a', '<f4'), ('b', '<i4')], 'fortran_order': False, 'shape': (2,)}", 16),
            NpyUnsupportedDtypeException.class, "structured dtype [('a', '<f4'), ('b', '<i4')]"));
  }

  private static Arguments bad(String name, byte[] input, String message) {
    return Arguments.of(name, input, NpyException.class, message);
  }

  private static Arguments unsupported(String name, String descr, String message) {
    return Arguments.of(name, npy("{'descr': '" + descr + "', 'fortran_order': False, 'shape': (2,)}", 16),
        NpyUnsupportedDtypeException.class, message);
  }

  private static byte[] npyWithMagic(String magic) {
    byte[] b = valid();
    byte[] m = magic.getBytes(StandardCharsets.ISO_8859_1);
    System.arraycopy(m, 0, b, 0, m.length);
    return b;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("badInputs")
  void fromBytes_badInput_throwsTypedExceptionSayingWhy(
      String name, byte[] input, Class<? extends NpyException> type, String message) {
    assertThatThrownBy(() -> Npy.fromBytes(input)).isInstanceOf(type).hasMessageContaining(message);
  }

  /** The bad inputs that are bad on a stream too: there, bytes after the array may be the next one. */
  static Stream<Arguments> badStreams() {
    return badInputs().filter(a -> !a.get()[0].equals("trailing data"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("badStreams")
  void read_badInputStream_throwsTypedException(
      String name, byte[] input, Class<? extends NpyException> type, String message) {
    assertThatThrownBy(() -> Npy.read(new ByteArrayInputStream(input), input.length))
        .isInstanceOf(type);
  }

  @Test
  void fromBytes_headerClaimingTrillionElementsInOneKilobyte_failsInMilliseconds() {
    byte[] input = npy("{'descr': '<f4', 'fortran_order': False, 'shape': (1000000, 1000000), }", 1024 - 80);
    long start = System.nanoTime();
    assertThatThrownBy(() -> Npy.fromBytes(input))
        .isInstanceOf(NpyException.class)
        .hasMessageContaining("needs 4000000000000 bytes of data");
    assertThatThrownBy(() -> Npy.read(new ByteArrayInputStream(input), input.length))
        .isInstanceOf(NpyException.class)
        .hasMessageContaining("needs 4000000000000 bytes of data");
    assertThat((System.nanoTime() - start) / 1_000_000).as("milliseconds").isLessThan(200);
  }

  @Test
  void read_streamLongerThanMaxBytes_refusesDataBeyondTheLimit() throws Exception {
    byte[] valid = valid();
    assertThatThrownBy(() -> Npy.read(new ByteArrayInputStream(valid), valid.length - 1))
        .isInstanceOf(NpyException.class)
        .hasMessageContaining("needs 48 bytes of data but only 47");
    assertThat(Npy.read(new ByteArrayInputStream(valid), valid.length).shape()).isEqualTo(Shape.of(3, 4));
  }

  @Test
  void read_streamEndingEarlyUnderGenerousLimit_throwsTruncated() {
    byte[] cut = Arrays.copyOf(valid(), valid().length - 10);
    assertThatThrownBy(() -> Npy.read(new ByteArrayInputStream(cut), 1 << 20))
        .isInstanceOf(NpyException.class)
        .hasMessageContaining("truncated array data");
    byte[] strings = npy("{'descr': '<U2', 'fortran_order': False, 'shape': (3,)}", 24);
    byte[] cutStrings = Arrays.copyOf(strings, strings.length - 10);
    assertThatThrownBy(() -> Npy.read(new ByteArrayInputStream(cutStrings), 1 << 20))
        .isInstanceOf(NpyException.class)
        .hasMessageContaining("truncated array data");
  }

  @Test
  void write_bfloat16_throwsNamingBfloat16AndTheAlternatives() {
    Tensor t = io.tributary.tensor.TensorBuilder.allocate(io.tributary.tensor.DType.BFLOAT16, Shape.of(2)).build();
    assertThatThrownBy(() -> Npy.toBytes(t))
        .isInstanceOfSatisfying(NpyUnsupportedDtypeException.class, e -> assertThat(e.dtype()).isEqualTo("bfloat16"))
        .hasMessageContaining("bfloat16")
        .hasMessageContaining("float32")
        .hasMessageContaining("proto.ndarray");
    assertThatThrownBy(() -> Npy.write(t, new ByteArrayOutputStream()))
        .isInstanceOf(NpyUnsupportedDtypeException.class);
  }
}
