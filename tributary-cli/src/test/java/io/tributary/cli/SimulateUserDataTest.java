package io.tributary.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.graph.models.Model;
import io.tributary.graph.models.Models;
import io.tributary.simulation.UserModel;
import io.tributary.tensor.DType;
import io.tributary.tensor.testing.PythonEnv;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.SplittableRandom;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code simulate --dataset csv:PATH}: the user's file, its options, and its bad rows. */
class SimulateUserDataTest {
  @TempDir Path dir;

  /** 5 clients of 40 rows: id,x0,x1,x2,target with target = which of x0..x2 is largest. */
  private static String table() {
    SplittableRandom r = new SplittableRandom(2);
    StringBuilder s = new StringBuilder("id,x0,x1,x2,target\n");
    for (int k = 0; k < 5; k++) {
      for (int i = 0; i < 40; i++) {
        double[] x = {r.nextDouble(), r.nextDouble(), r.nextDouble()};
        int y = x[0] >= x[1] && x[0] >= x[2] ? 0 : x[1] >= x[2] ? 1 : 2;
        s.append("client-").append(k).append(',').append(x[0]).append(',').append(x[1])
            .append(',').append(x[2]).append(',').append(y).append('\n');
      }
    }
    return s.toString();
  }

  private Path gzip(String text) throws IOException {
    Path p = dir.resolve("mine.csv.gz");
    try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(p))) {
      out.write(text.getBytes(StandardCharsets.UTF_8));
    }
    return p;
  }

  private CliRun simulate(Path data, Path out, String... extra) {
    String[] base = {"simulate", "--dataset", "csv:" + data, "--client-column", "id",
        "--label-column", "target", "--clients-per-round", "2", "--rounds", "3",
        "--local-epochs", "1", "--lr", "0.5", "--threads", "1", "--out", out.toString()};
    String[] args = new String[base.length + extra.length];
    System.arraycopy(base, 0, args, 0, base.length);
    System.arraycopy(extra, 0, args, base.length, extra.length);
    return CliRun.of(args);
  }

  @Test
  void simulate_gzipCsvWithColumns_trainsAndRecordsARepeatableCommand() throws IOException {
    Path data = gzip(table());
    Path out = dir.resolve("run");
    CliRun run = simulate(data, out, "--test-fraction", "0.25");

    assertThat(run.exitCode()).as(run.err()).isZero();
    String config = Files.readString(out.resolve("config.json"));
    assertThat(config).contains("\"clients\": 5")
        .contains("\"dataset_options\": {\"client_column\": \"id\", \"label_column\": "
            + "\"target\", \"test_fraction\": 0.25}")
        .contains("--client-column id --label-column target --test-fraction 0.25");
  }

  /** The table as a Parquet file that pyarrow writes, with {@code python} run on it first. */
  private Path parquet(String python) throws Exception {
    Path csv = dir.resolve("mine.csv");
    Files.writeString(csv, table());
    Path p = dir.resolve("mine.parquet");
    PythonEnv.require("pyarrow").run(dir, Duration.ofMinutes(2), "-c", "import sys, "
        + "pyarrow.csv as c, pyarrow.parquet as q, pyarrow as pa; t = c.read_csv(sys.argv[1]); "
        + python + "; q.write_table(t, sys.argv[2])", csv.toString(), p.toString()).assertOk();
    return p;
  }

  @Test
  void simulate_parquetFile_trainsAndRecordsIt() throws Exception {
    Path data = parquet("pass");
    Path out = dir.resolve("run");
    CliRun run = CliRun.of("simulate", "--dataset", "parquet:" + data, "--client-column", "id",
        "--label-column", "target", "--clients-per-round", "2", "--rounds", "3",
        "--local-epochs", "1", "--lr", "0.5", "--threads", "1", "--out", out.toString());

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(Files.readString(out.resolve("config.json"))).contains("\"clients\": 5")
        .contains("\"dataset\": \"parquet:" + data + "\"");
  }

  @Test
  void simulate_parquetWithNaNFeature_oneLineNamingFileRowAndColumn() throws Exception {
    Path data = parquet("t = t.set_column(1, 'x0', pa.array([float('nan') if i == 6 else v "
        + "for i, v in enumerate(t.column('x0').to_pylist())]))");
    CliRun run = CliRun.of("simulate", "--dataset", "parquet:" + data, "--client-column", "id",
        "--label-column", "target", "--rounds", "1", "--out", dir.resolve("run").toString());

    assertThat(run.exitCode()).isNotZero();
    assertThat(run.errLines()).hasSize(1);
    assertThat(run.err()).contains(data + ": row 7: column 'x0': 'NaN' is not a finite number");
    assertThat(dir.resolve("run").resolve("metrics.jsonl")).doesNotExist();
  }

  @Test
  void simulate_raggedRow_oneLineNamingFileAndLine() throws IOException {
    Path data = gzip(table() + "client-1,0.5,0.5\n");
    CliRun run = simulate(data, dir.resolve("run"));

    assertThat(run.exitCode()).isNotZero();
    assertThat(run.errLines()).hasSize(1);
    assertThat(run.err()).contains(data + ":202: expected 5 fields as the header has, found 3");
    assertThat(dir.resolve("run").resolve("metrics.jsonl")).doesNotExist();
  }

  @Test
  void simulate_missingLabelColumn_oneLine() throws IOException {
    Path data = gzip(table());
    CliRun run = CliRun.of("simulate", "--dataset", "csv:" + data, "--client-column", "id",
        "--label-column", "y", "--clients", "5", "--rounds", "1", "--out",
        dir.resolve("run").toString());

    assertThat(run.exitCode()).isNotZero();
    assertThat(run.errLines()).hasSize(1);
    assertThat(run.err()).contains("no label column 'y'; the columns are [id, x0, x1, x2, "
        + "target]");
  }

  @Test
  void simulate_clientsOtherThanTheFiles_namesTheFlag() throws IOException {
    CliRun run = simulate(gzip(table()), dir.resolve("run"), "--clients", "4");

    assertThat(run.exitCode()).isNotZero();
    assertThat(run.err().strip()).isEqualTo("tributary simulate: --clients must be the 5 "
        + "clients of mine.csv.gz, got 4");
  }

  @Test
  void simulate_modelZip_trainsItAndTheRunsModelZipTrainsAgain() throws IOException {
    Path data = gzip(table());
    Path file = dir.resolve("mine.zip");
    Model mine = Models.mlp("mine", 3, 8, 3, DType.FLOAT32);
    UserModel.write(file, "start", mine, mine.initialParameters(4));
    Path out = dir.resolve("run");
    CliRun run = simulate(data, out, "--model", file.toString());

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(Files.readString(out.resolve("config.json")))
        .contains("\"model_file\": \"" + file + "\"");
    // The run's model.zip is a model file: it trains again.
    CliRun again = simulate(data, dir.resolve("again"), "--model",
        out.resolve("model.zip").toString());
    assertThat(again.exitCode()).as(again.err()).isZero();
  }

  @Test
  void simulate_modelZipForOtherExamples_oneLineNamingTheFlag() throws IOException {
    Path file = dir.resolve("wide.zip");
    Model wide = Models.mlp("wide", 7, 8, 3, DType.FLOAT32);
    UserModel.write(file, "start", wide, wide.initialParameters(4));
    Path data = gzip(table());
    CliRun run = simulate(data, dir.resolve("run"), "--model", file.toString());

    assertThat(run.exitCode()).isNotZero();
    assertThat(run.err().strip()).isEqualTo("tributary simulate: --model " + file
        + " takes examples of shape [7], but csv:" + data + " has [3]");
  }

  @Test
  void simulate_modelZipMissing_oneLineNamingTheFile() throws IOException {
    Path file = dir.resolve("none.zip");
    CliRun run = simulate(gzip(table()), dir.resolve("run"), "--model", file.toString());

    assertThat(run.exitCode()).isNotZero();
    assertThat(run.errLines()).hasSize(1);
    assertThat(run.err()).contains(file.toString());
  }

  @Test
  void simulate_targetEpsilon_calibratesAndStaysWithinIt() {
    CliRun run = CliRun.of("simulate", "--clients", "10", "--clients-per-round", "5",
        "--rounds", "2", "--local-epochs", "1", "--threads", "1", "--dp", "central", "--clip",
        "1", "--target-epsilon", "6", "--insecure-seeded-noise", "--out",
        dir.resolve("dp").toString());

    assertThat(run.exitCode()).as(run.err()).isZero();
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("privacy: epsilon ([0-9.]+)")
        .matcher(run.out());
    assertThat(m.find()).as(run.out()).isTrue();
    assertThat(Double.parseDouble(m.group(1))).isLessThanOrEqualTo(6);
  }

  @Test
  void simulate_targetEpsilonWithNoiseMultiplierOrWithoutDp_refused() {
    CliRun both = CliRun.of("simulate", "--dp", "central", "--clip", "1", "--noise-multiplier",
        "1", "--target-epsilon", "3", "--rounds", "1");
    assertThat(both.err().strip()).isEqualTo("tributary simulate: --noise-multiplier and "
        + "--target-epsilon both set the noise: give one");
    CliRun alone = CliRun.of("simulate", "--target-epsilon", "3", "--rounds", "1");
    assertThat(alone.err().strip()).isEqualTo("tributary simulate: --target-epsilon applies "
        + "only with --dp central|client");
    CliRun bad = CliRun.of("simulate", "--dp", "central", "--clip", "1", "--target-epsilon",
        "0", "--rounds", "1");
    assertThat(bad.err().strip()).isEqualTo("tributary simulate: --target-epsilon: the target "
        + "epsilon must be positive and finite, got 0.0");
  }

  @Test
  void simulate_csvOptionWithoutCsv_refused() {
    CliRun run = CliRun.of("simulate", "--dataset", "digits", "--client-column", "id",
        "--rounds", "1");

    assertThat(run.exitCode()).isNotZero();
    assertThat(run.err().strip()).isEqualTo("tributary simulate: --client-column applies only "
        + "to --dataset csv:PATH and parquet:PATH");
  }
}
