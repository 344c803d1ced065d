package io.tributary.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.tensor.testing.PythonEnv;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Parquet files written by pyarrow (the writer pandas uses) read as clients: the same clients as
 * the same rows in CSV, and each problem named in one line before any row is trained on.
 */
class ParquetClientsTest {
  @TempDir static Path dir;

  @BeforeAll
  static void writeFiles() throws Exception {
    PythonEnv python = PythonEnv.require("pyarrow");
    Path script = dir.resolve("parquet_clients_make.py");
    try (InputStream in = ParquetClientsTest.class.getResourceAsStream(
        "parquet_clients_make.py")) {
      Files.copy(in, script);
    }
    python.run(dir, Duration.ofMinutes(2), script.toString(), dir.toString()).assertOk();
  }

  @Test
  void open_snappyFileOfPyarrow_sameClientsAsTheSameRowsInCsv() throws IOException {
    try (ParquetClients parquet = ParquetClients.builder(dir.resolve("good.parquet"))
            .clientColumn("user").seed(9).open();
        CsvClients csv = CsvClients.builder(dir.resolve("good.csv")).clientColumn("user")
            .seed(9).open()) {
      assertThat(parquet.clients()).isEqualTo(3);
      assertThat(parquet.exampleShape()).containsExactly(3);
      assertThat(parquet.numClasses()).isEqualTo(4);
      assertThat(parquet.name()).isEqualTo("good.parquet");
      for (int k = 0; k < 3; k++) {
        assertThat(parquet.rows(k)).isEqualTo(csv.rows(k));
        assertSame(parquet.client(k), csv.client(k));
      }
      assertSame(parquet.test(), csv.test());
    }
  }

  @Test
  void open_featureColumnsChosen_readsThoseInThatOrder() throws IOException {
    try (ParquetClients p = ParquetClients.builder(dir.resolve("good.parquet"))
        .clientColumn("user").featureColumns(List.of("f2", "f0")).testFraction(0.5).open()) {
      assertThat(p.exampleShape()).containsExactly(2);
      Dataset all = p.test();
      float[] x = all.features().toFloatArray();
      // Every row has f2 = 12 * f0 - 14 (f0 = i/4 - 3, f2 = 3i - 50).
      for (int r = 0; r < all.size(); r++) {
        assertThat(x[2 * r]).isEqualTo(12 * x[2 * r + 1] - 14);
      }
    }
  }

  @Test
  void open_integerClientIdsGzipPagesWholeFloatLabels_read() throws IOException {
    try (ParquetClients p = ParquetClients.builder(dir.resolve("ints.parquet"))
        .clientColumn("device").labelColumn("y").testFraction(0.34).open()) {
      assertThat(p.clients()).isEqualTo(3);
      assertThat(p.rows(0)).isEqualTo(3);
      assertThat(p.rows(1)).isEqualTo(3);
      assertThat(p.rows(2)).isEqualTo(4);
      assertThat(p.numClasses()).isEqualTo(3);
      assertThat(ParquetClients.countClients(dir.resolve("ints.parquet"), "device"))
          .isEqualTo(3);
    }
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "nan|row 5: column 'f0': 'NaN' is not a finite number",
      "inf|row 3: column 'f0': 'Infinity' is not a finite number",
      "string_feature|column 'f0' has type BYTE_ARRAY",
      "timestamp_feature|column 'when' has type INT64",
      "list_feature|column 'f0' is a group",
      "null_label|row 2: label column 'label' is null",
      "fractional_label|row 3: label column 'label': '1.5' is not a whole number >= 0",
      "no_label|no label column 'label'; the columns are [user, f0]",
      "not_parquet|not a Parquet file this reader reads"})
  void open_badFile_oneLineNamingTheFileAndWhatIsWrong(String name, String problem) {
    Path file = dir.resolve(name + ".parquet");
    assertThatThrownBy(() -> ParquetClients.builder(file).clientColumn("user").open())
        .isInstanceOf(DatasetFormatException.class)
        .hasMessageStartingWith(file + ": ")
        .hasMessageContaining(problem)
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
  }

  @Test
  void open_labelAboveTheClassCount_namesRowAndBound() {
    Path file = dir.resolve("label_out_of_range.parquet");
    assertThatThrownBy(() -> ParquetClients.builder(file).clientColumn("user").numClasses(2)
        .open()).isInstanceOf(DatasetFormatException.class)
        .hasMessage(file + ": row 3: label column 'label': '7' is not below numClasses 2");
  }

  @Test
  void open_zstdPagesWithoutTheCodec_oneLineNamingTheFile() {
    Path file = dir.resolve("zstd.parquet");
    assertThatThrownBy(() -> ParquetClients.builder(file).clientColumn("user").open())
        .isInstanceOf(DatasetFormatException.class)
        .hasMessageStartingWith(file + ": ")
        .satisfies(e -> assertThat(e.getMessage()).containsIgnoringCase("zstd")
            .doesNotContain("\n"));
  }

  @Test
  void open_clientColumnIsTheLabelColumn_refused() {
    assertThatThrownBy(() -> ParquetClients.builder(dir.resolve("good.parquet"))
        .clientColumn("label").open()).isInstanceOf(DatasetFormatException.class)
        .hasMessageEndingWith("the client and label columns are both 'label'");
  }

  private static void assertSame(Dataset a, Dataset b) {
    assertThat(a.size()).isEqualTo(b.size());
    assertThat(a.features().toFloatArray()).containsExactly(b.features().toFloatArray());
    for (int i = 0; i < a.size(); i++) {
      assertThat(a.labels().getLong(i)).isEqualTo(b.labels().getLong(i));
    }
  }
}
