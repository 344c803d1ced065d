package io.tributary.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.format.ModelFile;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.npy.Npz;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** End-to-end runs of {@code simulate} on small settings: the files it writes and what they say. */
class SimulateCommandTest {
  static final List<String> ROUND_KEYS = List.of("round", "train_loss", "train_accuracy",
      "test_loss", "test_accuracy", "client_loss", "clients", "examples", "failures", "seconds",
      "bytes_up", "bytes_down");

  @TempDir Path dir;

  /** Runs simulate with small settings; {@code extra} adds options or replaces these. */
  static CliRun simulate(Path out, String... extra) {
    Map<String, String> options = new LinkedHashMap<>(Map.of("--clients", "4",
        "--clients-per-round", "3", "--rounds", "5", "--local-epochs", "1", "--batch-size", "16",
        "--lr", "0.1", "--seed", "3", "--out", out.toString()));
    for (int i = 0; i < extra.length; i += 2) {
      options.put(extra[i], extra[i + 1]);
    }
    List<String> args = new ArrayList<>(List.of("simulate"));
    options.forEach((k, v) -> args.addAll(List.of(k, v)));
    return CliRun.of(args.toArray(String[]::new));
  }

  @SuppressWarnings("unchecked")
  static List<Map<String, Object>> metrics(Path out) throws IOException {
    List<Map<String, Object>> rows = new ArrayList<>();
    for (String line : Files.readAllLines(out.resolve("metrics.jsonl"))) {
      rows.add((Map<String, Object>) StrictJson.parse(line));
    }
    return rows;
  }

  static double number(Map<String, Object> row, String key) {
    return ((BigDecimal) row.get(key)).doubleValue();
  }

  @Test
  void simulate_smallDigitsRun_writesEveryFileAndAccuracyRises() throws IOException {
    Path out = dir.resolve("run");

    CliRun run = simulate(out, "--model", "mclr", "--threads", "2", "--checkpoint-every", "2");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out()).contains("report: " + out.resolve("report.html"));
    List<Map<String, Object>> rows = metrics(out);
    assertThat(rows).hasSize(5);
    for (int i = 0; i < rows.size(); i++) {
      Map<String, Object> r = rows.get(i);
      assertThat(r.keySet()).containsExactlyElementsOf(ROUND_KEYS);
      assertThat(number(r, "round")).isEqualTo(i + 1);
      assertThat(number(r, "clients")).isEqualTo(3);
      assertThat(number(r, "failures")).isZero();
      assertThat(number(r, "test_accuracy")).isBetween(0.0, 1.0);
      // mclr on 64 features, 10 classes: (64 * 10 + 10) float32 parameters to each of 3 clients.
      assertThat(number(r, "bytes_down")).isEqualTo(3 * 650 * 4);
      assertThat(number(r, "bytes_up")).isEqualTo(3 * 650 * 4);
    }
    double first = number(rows.getFirst(), "test_accuracy");
    double last = number(rows.getLast(), "test_accuracy");
    assertThat(last).isGreaterThan(first).isGreaterThan(0.7);
    assertThat(number(rows.getLast(), "train_loss"))
        .isLessThan(number(rows.getFirst(), "train_loss"));

    Map<String, Tensor> params = Npz.read(out.resolve("final.npz"));
    assertThat(params.keySet()).containsExactly("dense/kernel", "dense/bias");
    assertThat(params.get("dense/kernel").shape().dims()).containsExactly(64, 10);
    try (ModelFile zip = ModelFile.open(out.resolve("model.zip"))) {
      assertThat(zip.tags()).containsExactly("round-0002", "round-0004", "round-0005");
      assertThat(zip.newestTag()).isEqualTo("round-0005");
      assertThat(zip.tag("round-0005").parameters()).isEqualTo(params);
      assertThat(zip.tag("round-0002").parameters()).isNotEqualTo(params);
      assertThat(zip.tag("round-0004").trainingConfig().round()).isEqualTo(4);
      assertThat(zip.tag("round-0004").hasGraph()).isTrue();
    }
    String html = Files.readString(out.resolve("report.html"));
    assertThat(html).contains("<svg ").contains("Completed 5 rounds");
    assertThat(Files.readString(out.resolve("clients.json"))).startsWith("{\"train_sizes\": [");
  }

  @Test
  @SuppressWarnings("unchecked")
  void simulate_configJson_recordsEverySettingAndACommandThatRepeatsTheRun() throws IOException {
    Path out = dir.resolve("a");
    assertThat(simulate(out, "--model", "mclr", "--threads", "1", "--rounds", "2").exitCode())
        .isZero();

    Map<String, Object> config = (Map<String, Object>) StrictJson.parse(
        Files.readString(out.resolve("config.json")));
    assertThat(config.keySet()).containsExactly("config_version", "algorithm", "dataset",
        "data_dir", "partition", "model", "clients", "clients_per_round", "rounds", "local_epochs", "batch_size", "lr",
        "mu", "seed", "threads", "kernel", "checkpoint_every", "out", "command");
    assertThat(config.get("seed")).isEqualTo(new BigDecimal(3));
    assertThat(config.get("kernel")).isEqualTo("java");

    // The recorded command, with another output directory and thread count, gives the same rounds.
    String command = (String) config.get("command");
    String[] words = command.replace(out.toString(), dir.resolve("b").toString())
        .replace("--threads 1", "--threads 2").split(" ");
    CliRun again = CliRun.of(List.of(words).subList(1, words.length).toArray(String[]::new));
    assertThat(again.exitCode()).as(again.err()).isZero();
    List<Map<String, Object>> a = metrics(out);
    List<Map<String, Object>> b = metrics(dir.resolve("b"));
    assertThat(b).hasSameSizeAs(a);
    for (int i = 0; i < a.size(); i++) {
      a.get(i).remove("seconds");
      b.get(i).remove("seconds");
      assertThat(b.get(i)).isEqualTo(a.get(i));
    }
  }

  @Test
  @SuppressWarnings("unchecked")
  void simulate_clientOptimizerAdam_learnsAndRepeatsBitForBit() throws IOException {
    Path a = dir.resolve("adam-a");
    Path b = dir.resolve("adam-b");
    String[] adam = {"--model", "mclr", "--client-optimizer", "adam", "--lr", "0.01",
        "--local-epochs", "2"};

    CliRun first = simulate(a, adam);
    CliRun second = simulate(b, adam);

    assertThat(first.exitCode()).as(first.err()).isZero();
    assertThat(second.exitCode()).as(second.err()).isZero();
    assertThat(number(metrics(a).getLast(), "test_accuracy")).isGreaterThan(0.7);
    assertThat(Files.readAllBytes(b.resolve("final.npz")))
        .isEqualTo(Files.readAllBytes(a.resolve("final.npz")));
    Map<String, Object> config = (Map<String, Object>) StrictJson.parse(
        Files.readString(a.resolve("config.json")));
    assertThat(config.get("client_optimizer")).isEqualTo("adam");
    assertThat((String) config.get("command")).contains("--client-optimizer adam "
        + "--client-beta1 0.9 --client-beta2 0.999 --client-epsilon 1.0e-7");
  }

  @Test
  void simulate_directoryHoldingARun_isRefusedWithOneLine() throws IOException {
    Path out = dir.resolve("taken");
    Files.createDirectories(out);
    Files.writeString(out.resolve("metrics.jsonl"), "");

    CliRun run = simulate(out);

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.errLines()).hasSize(1);
    assertThat(run.errLines()[0]).contains(out.toString()).contains("already holds a run");
  }

  @Test
  void simulate_cnnOnDigits_failsBeforeTrainingWithOneLine() {
    CliRun run = simulate(dir.resolve("cnn"), "--model", "cnn");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.errLines()).hasSize(1);
    assertThat(run.errLines()[0]).contains("cnn takes 28x28");
    assertThat(dir.resolve("cnn")).doesNotExist();
  }

  @Test
  void simulate_missingFashionMnistDirectory_namesTheDirectory() {
    Path missing = dir.resolve("no-such-data");

    CliRun run = simulate(dir.resolve("fm"), "--dataset", "fashion-mnist", "--data-dir",
        missing.toString());

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.errLines()).hasSize(1);
    assertThat(run.errLines()[0]).startsWith("tributary simulate: ").contains("no-such-data");
  }
}
