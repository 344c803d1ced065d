package io.tributary.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class CsvClientsTest {
  @TempDir Path dir;

  private Path write(String name, String text) throws IOException {
    Path p = dir.resolve(name);
    Files.writeString(p, text);
    return p;
  }

  /** 3 clients (a: 10 rows, b: 5, c: 4), features f0,f1 = (row, -row), label = row % 3. */
  private static String table(boolean interleaved) {
    StringBuilder s = new StringBuilder("user,f0,y,f1\n");
    String[] ids = interleaved ? new String[] {"a", "b", "a", "c", "a"} : null;
    int[] counts = {10, 5, 4};
    String[] names = {"a", "b", "c"};
    int row = 0;
    if (!interleaved) {
      for (int k = 0; k < 3; k++) {
        for (int i = 0; i < counts[k]; i++, row++) {
          s.append(names[k]).append(',').append(row).append(',').append(row % 3).append(',')
              .append(-row).append('\n');
        }
      }
    } else {
      for (int i = 0; i < 19; i++, row++) {
        s.append(ids[i % ids.length]).append(',').append(row).append(',').append(row % 3)
            .append(',').append(-row).append('\n');
      }
    }
    return s.toString();
  }

  private static CsvClients.Builder columns(Path p) {
    return CsvClients.builder(p).clientColumn("user").labelColumn("y").seed(7);
  }

  @Test
  void open_groupedFile_holdsOutAFractionOfEachClient() throws IOException {
    try (CsvClients c = columns(write("t.csv", table(false))).open()) {
      assertThat(c.clients()).isEqualTo(3);
      assertThat(c.exampleShape()).containsExactly(2);
      assertThat(c.numClasses()).isEqualTo(3);
      // floor(0.2 * 10) + floor(0.2 * 5) + floor(0.2 * 4) = 2 + 1 + 0 held out.
      assertThat(c.test().size()).isEqualTo(3);
      assertThat(c.client(0).size()).isEqualTo(8);
      assertThat(c.client(1).size()).isEqualTo(4);
      assertThat(c.client(2).size()).isEqualTo(4);
      // Every row is in exactly one place, with its features and label.
      List<Dataset> all = List.of(c.client(0), c.client(1), c.client(2), c.test());
      boolean[] seen = new boolean[19];
      for (Dataset d : all) {
        float[] x = d.features().toFloatArray();
        for (int i = 0; i < d.size(); i++) {
          int row = (int) x[2 * i];
          assertThat(x[2 * i + 1]).isEqualTo(-row);
          assertThat(d.label(i)).isEqualTo(row % 3);
          assertThat(seen[row]).isFalse();
          seen[row] = true;
        }
      }
      assertThat(seen).doesNotContain(false);
      // Client 2 (c) is rows 15..18, all kept, in file order.
      assertThat(c.client(2).features().toFloatArray())
          .containsExactly(15, -15, 16, -16, 17, -17, 18, -18);
    }
  }

  @Test
  void open_interleavedRows_groupsThemByClient() throws IOException {
    try (CsvClients c = columns(write("t.csv", table(true))).testFraction(0.25).open()) {
      assertThat(c.clients()).isEqualTo(3);
      // a appears at rows 0,2,4 of each 5: rows 0,2,4,5,7,9,10,12,14,15,17 (11 rows).
      assertThat(c.rows(0)).isEqualTo(11);
      assertThat(c.rows(1)).isEqualTo(4);
      assertThat(c.rows(2)).isEqualTo(4);
      Dataset a = c.client(0);
      float[] x = a.features().toFloatArray();
      for (int i = 0; i < a.size(); i++) {
        int row = (int) x[2 * i];
        assertThat(row % 5).isIn(0, 2, 4);
      }
    }
  }

  @Test
  void open_sameSeed_sameSplit_otherSeed_otherSplit() throws IOException {
    Path p = write("t.csv", table(false));
    try (CsvClients one = columns(p).open(); CsvClients two = columns(p).open();
        CsvClients other = columns(p).seed(8).open()) {
      assertThat(one.test().features().toFloatArray())
          .containsExactly(two.test().features().toFloatArray());
      assertThat(other.test().features().toFloatArray())
          .isNotEqualTo(one.test().features().toFloatArray());
    }
  }

  @Test
  void open_gzipFileAndChosenFeatures_readsThem() throws IOException {
    Path p = dir.resolve("t.csv.gz");
    try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(p))) {
      out.write(table(false).getBytes(StandardCharsets.UTF_8));
    }
    try (CsvClients c = columns(p).featureColumns(List.of("f1")).open()) {
      assertThat(c.exampleShape()).containsExactly(1);
      assertThat(c.client(2).features().toFloatArray()).containsExactly(-15, -16, -17, -18);
    }
  }

  @Test
  void countClients_countsDistinctIds() throws IOException {
    assertThat(CsvClients.countClients(write("t.csv", table(true)), "user", ',',
        GzipLimits.defaults())).isEqualTo(3);
  }

  static Stream<Arguments> bad() {
    String h = "user,f0,y,f1\n";
    return Stream.of(
        Arguments.of("ragged row", h + "a,1,0,2\na,1,0\n", "t.csv:3: expected 4 fields"),
        Arguments.of("non-numeric feature", h + "a,x1,0,2\n", "t.csv:2: column 'f0': 'x1' is "
            + "not a finite number"),
        Arguments.of("NaN feature", h + "a,NaN,0,2\n", "column 'f0': 'NaN' is not a finite"),
        Arguments.of("Inf feature", h + "a,1,0,Infinity\n", "column 'f1': 'Infinity' is not"),
        Arguments.of("overflowing feature", h + "a,1e39,0,1\n", "out of float32 range"),
        Arguments.of("missing client column", "id,f0,y,f1\na,1,0,2\n",
            "t.csv:1: no client column 'user'; the columns are [id, f0, y, f1]"),
        Arguments.of("missing label column", "user,f0,label,f1\na,1,0,2\n",
            "t.csv:1: no label column 'y'"),
        Arguments.of("empty client id", h + "a,1,0,2\n,1,0,2\n", "t.csv:3: column 'user': the "
            + "client id is empty"),
        Arguments.of("negative label", h + "a,1,-1,2\n", "'-1' is not a whole number >= 0"),
        Arguments.of("fractional label", h + "a,1,0.5,2\n", "'0.5' is not a whole number"),
        Arguments.of("no rows", h, "t.csv: no data rows"),
        Arguments.of("empty file", "", "t.csv: empty: no header line"),
        Arguments.of("too few rows for a test set", h + "a,1,0,2\nb,1,0,2\n", "no test rows"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("bad")
  void open_badFile_namesFileLineAndProblem(String what, String text, String message)
      throws IOException {
    Path p = write("t.csv", text);
    assertThatThrownBy(() -> columns(p).open().close())
        .isInstanceOf(DatasetFormatException.class)
        .hasMessageContaining(message)
        .hasMessageStartingWith(p.toString());
  }

  @Test
  void open_labelNotBelowGivenClasses_fails() throws IOException {
    Path p = write("t.csv", "user,f0,y,f1\na,1,3,2\n");
    assertThatThrownBy(() -> columns(p).numClasses(3).open())
        .isInstanceOf(DatasetFormatException.class)
        .hasMessageContaining("t.csv:2: label column 'y': '3' is not below numClasses 3");
  }

  @Test
  void open_badFile_leavesNoSpillFile() throws IOException {
    Path spill = Files.createDirectory(dir.resolve("spill"));
    Path p = write("t.csv", "user,f0,y,f1\na,1,0,2\na,x,0,2\n");
    assertThatThrownBy(() -> columns(p).spillDirectory(spill).open())
        .isInstanceOf(DatasetFormatException.class);
    Path ok = write("u.csv", table(false));
    try (CsvClients c = columns(ok).spillDirectory(spill).open()) {
      assertThat(c.client(0).size()).isEqualTo(8);
    }
    try (Stream<Path> s = Files.list(spill)) {
      assertThat(s.toList()).isEmpty();
    }
  }
}
