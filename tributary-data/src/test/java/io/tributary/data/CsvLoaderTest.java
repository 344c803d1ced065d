package io.tributary.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class CsvLoaderTest {

  private static Dataset load(String text, UnaryOperator<CsvLoader.Builder> settings)
      throws IOException {
    CsvLoader loader = settings.apply(CsvLoader.builder()).build();
    return loader.load(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), "t.csv");
  }

  static Stream<Arguments> valid() {
    UnaryOperator<CsvLoader.Builder> none = b -> b;
    return Stream.of(
        Arguments.of("label last, no header", "1,2,0\n3,4,1\n", none,
            new float[] {1, 2, 3, 4}, new int[] {0, 1}, 2),
        Arguments.of("label first by index", "0,1,2\n1,3,4\n", op(b -> b.labelColumn(0)),
            new float[] {1, 2, 3, 4}, new int[] {0, 1}, 2),
        Arguments.of("label -2 from end", "1,0,2\n3,2,4\n", op(b -> b.labelColumn(-2)),
            new float[] {1, 2, 3, 4}, new int[] {0, 2}, 3),
        Arguments.of("label by header name", "a,y,b\n1,1,2\n3,0,4\n",
            op(b -> b.header(true).labelColumn("y")), new float[] {1, 2, 3, 4}, new int[] {1, 0}, 2),
        Arguments.of("quoted header and fields", "\"a\",\"the label\"\n\"1.5\",\" 2 \"\n",
            op(b -> b.header(true).labelColumn("the label")), new float[] {1.5f}, new int[] {2}, 3),
        Arguments.of("semicolon, CRLF, blank lines, spaces", "\r\n 1 ; 2 ;0\r\n\r\n3;4; 1\r\n",
            op(b -> b.delimiter(';')), new float[] {1, 2, 3, 4}, new int[] {0, 1}, 2),
        Arguments.of("no final newline, exponent, signs", "-1e-1,+.5,3.0", none,
            new float[] {-0.1f, 0.5f}, new int[] {3}, 4),
        Arguments.of("scale and fixed classes", "16,8,1\n", op(b -> b.featureScale(1.0 / 16)
            .numClasses(10)), new float[] {1, 0.5f}, new int[] {1}, 10),
        Arguments.of("tab delimiter", "1\t2\t0\n", op(b -> b.delimiter('\t')),
            new float[] {1, 2}, new int[] {0}, 1));
  }

  private static UnaryOperator<CsvLoader.Builder> op(UnaryOperator<CsvLoader.Builder> f) {
    return f;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("valid")
  void load_validCsv_parsesFeaturesAndLabels(String what, String text,
      UnaryOperator<CsvLoader.Builder> settings, float[] x, int[] y, int classes)
      throws IOException {
    Dataset d = load(text, settings);
    assertThat(d.features().toFloatArray()).containsExactly(x);
    assertThat(d.labelArray()).containsExactly(y);
    assertThat(d.numClasses()).isEqualTo(classes);
    assertThat(d.name()).isEqualTo("t.csv");
  }

  static Stream<Arguments> invalid() {
    UnaryOperator<CsvLoader.Builder> none = b -> b;
    return Stream.of(
        Arguments.of("", none, -1, "no data rows"),
        Arguments.of("\n \n", none, -1, "no data rows"),
        Arguments.of("", op(b -> b.header(true)), -1, "empty: no header line"),
        Arguments.of("1,2,0\n3,0\n", none, 2, "expected 3 fields, found 2"),
        Arguments.of("1,2,0\n\n3,x,0\n", none, 3, "column 1: 'x' is not a finite number"),
        Arguments.of("1,NaN,0\n", none, 1, "'NaN' is not a finite number"),
        Arguments.of("1,Infinity,0\n", none, 1, "'Infinity' is not a finite number"),
        Arguments.of("1,2f,0\n", none, 1, "'2f' is not a finite number"),
        Arguments.of("1,0x10,0\n", none, 1, "'0x10' is not a finite number"),
        Arguments.of("1,1e39,0\n", none, 1, "out of float32 range"),
        Arguments.of("1,2,\n", none, 1, "label column 2: '' is not a number"),
        Arguments.of("1,2,1.5\n", none, 1, "is not a whole number >= 0"),
        Arguments.of("1,2,-1\n", none, 1, "is not a whole number >= 0"),
        Arguments.of("1,2,10\n", op(b -> b.numClasses(10)), 1, "label column 2: '10' is not below numClasses 10"),
        Arguments.of("1,2,3e9\n", none, 1, "not below maxInferredClasses 65536"),
        Arguments.of("7\n", none, 1, "need a label column and at least one feature column"),
        Arguments.of("1,2\n", op(b -> b.labelColumn(5)), 1, "label column 5 is outside the 2 columns"),
        Arguments.of("a,b\n1,2\n", op(b -> b.header(true).labelColumn("y")), 1,
            "no column named 'y'; columns are [a, b]"),
        Arguments.of("1,\"2,0\n", none, 1, "field 1: unclosed quote"),
        Arguments.of("1,\"2\"x,0\n", none, 1, "field 1: text after a closing quote"),
        Arguments.of("1,2,0\n" + "9".repeat(50) + "\n", op(b -> b.maxLineLength(20)), 2,
            "line longer than 20 characters"),
        Arguments.of("1,2,0\n3,4,1\n5,6,0\n", op(b -> b.maxValues(5)), 3,
            "more than 5 feature values"));
  }

  @ParameterizedTest(name = "{3}")
  @MethodSource("invalid")
  void load_invalidCsv_throwsWithSourceAndLine(String text,
      UnaryOperator<CsvLoader.Builder> settings, int line, String message) {
    assertThatThrownBy(() -> load(text, settings))
        .isInstanceOfSatisfying(DatasetFormatException.class, e -> {
          assertThat(e.source()).isEqualTo("t.csv");
          assertThat(e.line()).isEqualTo(line);
          assertThat(e.getMessage()).startsWith(line > 0 ? "t.csv:" + line + ": " : "t.csv: ");
        })
        .hasMessageContaining(message);
  }

  @ParameterizedTest
  @org.junit.jupiter.params.provider.CsvSource(delimiter = '|', value = {
      "0|true", "-12|true", "+3.|true", ".5|true", "1.5e-3|true", "2E+10|true", "7e0|true",
      "''|false", "+|false", ".|false", "-.|false", "e5|false", "1e|false", "1e+|false",
      "1.2.3|false", "1,5|false", "0x1|false", "1d|false", "NaN|false", "\u0661|false",
      "' 1'|false"})
  void isDecimal_token_acceptsOnlyPlainDecimals(String token, boolean expected) {
    assertThat(CsvText.isDecimal(token)).isEqualTo(expected);
  }

  @Test
  void load_invalidUtf8_throwsWithLine() {
    byte[] bytes = {'1', ',', '0', '\n', '1', ',', (byte) 0xff, '\n'};
    assertThatThrownBy(() -> CsvLoader.builder().build()
        .load(new ByteArrayInputStream(bytes), "bad.csv"))
        .isInstanceOf(DatasetFormatException.class)
        .hasMessageContaining("not valid UTF-8");
  }

  /** Found by CsvLoaderFuzzTest: damaged deflate data escaped as a bare ZipException. */
  @ParameterizedTest
  @MethodSource("damagedGzip")
  void load_damagedGzipData_throwsDatasetFormatException(String what, byte[] bytes) {
    assertThatThrownBy(() -> CsvLoader.builder().build()
        .load(new ByteArrayInputStream(bytes), "bad.csv.gz"))
        .as(what)
        .isInstanceOf(DatasetFormatException.class)
        .hasMessageStartingWith("bad.csv.gz: corrupt gzip data: ")
        .hasCauseInstanceOf(IOException.class);
  }

  static Stream<Arguments> damagedGzip() throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
      gz.write("1,2,0\n3,4,1\n5,6,0\n".getBytes(StandardCharsets.UTF_8));
    }
    byte[] good = out.toByteArray();
    byte[] badBlock = good.clone();
    badBlock[10] = (byte) 0xff; // first deflate block header: a reserved block type
    byte[] badTrailer = good.clone();
    badTrailer[good.length - 8] ^= 1; // CRC32 of the data
    return Stream.of(
        Arguments.of("invalid deflate block", badBlock),
        Arguments.of("wrong CRC in the trailer", badTrailer),
        Arguments.of("cut off in the data", java.util.Arrays.copyOf(good, good.length - 12)));
  }

  @Test
  void load_gzipFile_detectedByMagic(@TempDir Path dir) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (GZIPOutputStream gz = new GZIPOutputStream(bytes)) {
      gz.write("x1,x2,label\n0.5,1,1\n2,3,0\n".getBytes(StandardCharsets.UTF_8));
    }
    Path file = dir.resolve("data.csv"); // no .gz suffix on purpose
    Files.write(file, bytes.toByteArray());
    Dataset d = CsvLoader.builder().header(true).labelColumn("label").name("mine").build()
        .load(file);
    assertThat(d.name()).isEqualTo("mine");
    assertThat(d.features().toFloatArray()).containsExactly(0.5f, 1, 2, 3);
    assertThat(d.labelArray()).containsExactly(1, 0);
  }

  @Test
  void load_fileWithoutName_usesPathAsNameAndInErrors(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("e.csv");
    Files.writeString(file, "1,0\n1,2,0\n");
    assertThatThrownBy(() -> CsvLoader.builder().build().load(file))
        .hasMessage(file + ":2: expected 2 fields, found 3");
    Files.writeString(file, "1,0\n");
    assertThat(CsvLoader.builder().build().load(file).name()).isEqualTo(file.toString());
  }

  @Test
  void builder_badSettings_throw() {
    assertThatThrownBy(() -> CsvLoader.builder().labelColumn("y").build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("needs header(true)");
    assertThatThrownBy(() -> CsvLoader.builder().delimiter('"'))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> CsvLoader.builder().featureScale(Double.NaN))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> CsvLoader.builder().numClasses(-1))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
