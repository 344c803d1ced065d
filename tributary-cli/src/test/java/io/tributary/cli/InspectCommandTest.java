package io.tributary.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SequencedMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class InspectCommandTest {
  @TempDir static Path dir;

  /** Writes a tensor file into a directory. */
  interface Writer {
    Path write(Path dir) throws IOException;
  }

  static Stream<Arguments> sampleFiles() {
    SequencedMap<String, Tensor> sample = TestFiles.sample();
    List<String> names = List.copyOf(sample.keySet());
    List<String> positional = List.of("arr_0", "arr_1", "arr_2", "arr_3", "arr_4");
    return Stream.of(
        Arguments.of("npz", (Writer) d -> TestFiles.npz(d, "sample.npz", sample), names),
        Arguments.of("pb proto.ndarray", (Writer) d -> TestFiles.pb(d, "proto.pb", "proto.ndarray", sample), names),
        Arguments.of("pb numpy.ndarray", (Writer) d -> TestFiles.pb(d, "numpy.pb", "numpy.ndarray", sample),
            positional));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("sampleFiles")
  void inspectJson_sampleFile_reportsEveryTensorInOrder(String label, Writer writer, List<String> names)
      throws IOException {
    Path file = writer.write(dir);

    CliRun run = CliRun.of("inspect", "--json", file.toString());

    assertThat(run.exitCode()).isZero();
    assertThat(run.err()).isEmpty();
    List<Map<String, Object>> rows = rows(run.out());
    assertThat(rows).extracting(r -> r.get("name")).containsExactlyElementsOf(names);
    assertThat(rows).extracting(r -> r.get("dtype")).containsExactly("float32", "float64", "int64", "bool", "uint8");
    assertThat(rows).extracting(r -> r.get("shape")).containsExactly(
        List.of(num(2), num(3)), List.of(num(3)), List.of(), List.of(num(4)), List.of(num(2), num(2)));
    assertThat(rows.get(0)).containsEntry("min", num(-2.0)).containsEntry("max", num(4.0));
    assertThat(rows.get(0).get("mean")).isEqualTo(num(0.7083333333333334));
    assertThat(rows.get(1)).containsEntry("min", num(-1.0)).containsEntry("max", num(4.0)).containsEntry("mean", num(1.0));
    assertThat(rows.get(2)).containsEntry("min", num(42)).containsEntry("max", num(42)).containsEntry("mean", num(42.0));
    assertThat(rows.get(3)).containsEntry("min", num(0)).containsEntry("max", num(1)).containsEntry("mean", num(0.75));
    assertThat(rows.get(4)).containsEntry("min", num(0)).containsEntry("max", num(255)).containsEntry("mean", num(64.5));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("sampleFiles")
  void inspectText_sampleFile_printsHeaderAndOneAlignedRowPerTensor(String label, Writer writer, List<String> names)
      throws IOException {
    Path file = writer.write(dir);

    CliRun run = CliRun.of("inspect", file.toString());

    assertThat(run.exitCode()).isZero();
    assertThat(run.err()).isEmpty();
    String[] lines = run.out().split("\\R");
    assertThat(lines).hasSize(6);
    assertThat(lines[0].split(" +")).containsExactly("name", "dtype", "shape", "min", "max", "mean");
    assertThat(lines[1]).startsWith(names.get(0) + " ").contains("float32", "(2, 3)", "-2", "4", "0.7083333");
    assertThat(lines[2]).startsWith(names.get(1) + " ").contains("float64", "(3,)", "-1", "4", "1");
    assertThat(lines[3]).startsWith(names.get(2) + " ").contains("int64", "()", "42");
    assertThat(lines[4]).startsWith(names.get(3) + " ").contains("bool", "(4,)", "0.75");
    assertThat(lines[5]).startsWith(names.get(4) + " ").contains("uint8", "(2, 2)", "255", "64.5");
    int dtypeColumn = lines[0].indexOf("dtype");
    for (int i = 1; i < lines.length; i++) {
      assertThat(lines[i].indexOf(" " + lines[i].split(" +")[1] + " ") + 1).isEqualTo(dtypeColumn);
    }
  }

  @Test
  void inspectJson_npyFile_namesTheTensorArr0() throws IOException {
    Path file = TestFiles.npy(dir, "one.npy", Tensor.ofInts(Shape.of(3), 5, -7, 2));

    CliRun run = CliRun.of("inspect", "--json", file.toString());

    assertThat(run.exitCode()).isZero();
    assertThat(rows(run.out())).singleElement().satisfies(r -> assertThat(r)
        .containsEntry("name", "arr_0")
        .containsEntry("dtype", "int32")
        .containsEntry("shape", List.of(num(3)))
        .containsEntry("min", num(-7))
        .containsEntry("max", num(5))
        .containsEntry("mean", num(0.0)));
  }

  @Test
  void inspectJson_nonFiniteAndNonNumeric_staysValidJson() throws IOException {
    SequencedMap<String, Tensor> tensors = new LinkedHashMap<>();
    tensors.put("nan", Tensor.ofDoubles(Shape.of(2), 1, Double.NaN));
    tensors.put("inf", Tensor.ofFloats(Shape.of(2), Float.NEGATIVE_INFINITY, Float.POSITIVE_INFINITY));
    tensors.put("words", Tensor.ofStrings(Shape.of(2), "a", "bc"));
    tensors.put("empty", Tensor.ofFloats(Shape.of(0)));
    tensors.put("quote\"and\\slash", Tensor.ofFloats(Shape.of(1), 1f));
    Path file = TestFiles.npz(dir, "odd.npz", tensors);

    CliRun run = CliRun.of("inspect", "--json", file.toString());

    assertThat(run.exitCode()).isZero();
    List<Map<String, Object>> rows = rows(run.out());
    assertThat(rows.get(0)).containsEntry("min", "NaN").containsEntry("max", "NaN").containsEntry("mean", "NaN");
    assertThat(rows.get(1)).containsEntry("min", "-Infinity").containsEntry("max", "Infinity")
        .containsEntry("mean", "NaN");
    assertThat(rows.get(2)).containsEntry("dtype", "string").containsEntry("min", StrictJson.NULL)
        .containsEntry("max", StrictJson.NULL).containsEntry("mean", StrictJson.NULL);
    assertThat(rows.get(3)).containsEntry("shape", List.of(num(0))).containsEntry("mean", StrictJson.NULL);
    assertThat(rows.get(4)).containsEntry("name", "quote\"and\\slash");
  }

  @Test
  void inspectText_nonFiniteAndNonNumeric_printsNumpyStyleValues() throws IOException {
    SequencedMap<String, Tensor> tensors = new LinkedHashMap<>();
    tensors.put("inf", Tensor.ofFloats(Shape.of(2), Float.NEGATIVE_INFINITY, 1f));
    tensors.put("words", Tensor.ofStrings(Shape.of(1), "a"));
    Path file = TestFiles.npz(dir, "odd-text.npz", tensors);

    CliRun run = CliRun.of("inspect", file.toString());

    String[] lines = run.out().split("\\R");
    assertThat(lines[1].split(" +")).containsExactly("inf", "float32", "(2,)", "-inf", "1", "-inf");
    assertThat(lines[2].split(" +")).containsExactly("words", "string", "(1,)", "-", "-", "-");
  }

  @Test
  void inspectJson_emptyArchive_printsEmptyArray() throws IOException {
    Path file = TestFiles.npz(dir, "none.npz", new LinkedHashMap<>());

    CliRun run = CliRun.of("inspect", "--json", file.toString());

    assertThat(run.exitCode()).isZero();
    assertThat(StrictJson.parse(run.out())).isEqualTo(List.of());
  }

  @SuppressWarnings("unchecked")
  static List<Map<String, Object>> rows(String json) {
    return (List<Map<String, Object>>) StrictJson.parse(json);
  }

  static BigDecimal num(double d) {
    return new BigDecimal(Double.toString(d));
  }

  static BigDecimal num(long l) {
    return BigDecimal.valueOf(l);
  }
}
