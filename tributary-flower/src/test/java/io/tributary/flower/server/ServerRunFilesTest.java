package io.tributary.flower.server;

import io.tributary.learning.FederatedAlgorithm;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.format.ModelFile;
import io.tributary.format.ModelTag;
import io.tributary.learning.rounds.RoundRecord;
import io.tributary.tensor.Tensor;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SequencedMap;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The server's {@code metrics.jsonl} lines, checkpoints and progress lines. */
class ServerRunFilesTest {
  @TempDir Path dir;

  @Test
  void roundEnded_roundWithFailuresAndNonFiniteMetrics_writesThemToMetricsJsonl()
      throws Exception {
    RoundRecord m = RoundRecord.federated(2, 0.5, Double.NaN, 3, 40, 1, 1.0, 10, 20,
        List.of("fit: client 1 (c-2) failed: not finite"), 2, new TreeMap<>());
    RoundRecord clean = RoundRecord.federated(3, Double.NaN, 0.25, 3, 60, 0, 1.0, 10, 20,
        List.of(), 0, new TreeMap<>());
    SequencedMap<String, Tensor> model = new LinkedHashMap<>();
    model.put("arr_0", Tensor.scalar(1f));
    StringWriter progress = new StringWriter();
    try (ServerRunFiles out = ServerRunFiles.builder(dir, 3).progress(new PrintWriter(progress))
        .algorithm(FederatedAlgorithm.fedAvg()).command("tributary server").build()) {
      out.roundEnded(m, model);
      out.roundEnded(clean, model);
    }
    assertThat(Files.readAllLines(dir.resolve("metrics.jsonl"))).containsExactly(
        "{\"round\": 2, \"client_loss\": 0.5, \"eval_loss\": null, \"clients\": 3, "
            + "\"examples\": 40, \"failures\": 1, \"seconds\": 1.0, \"bytes_up\": 10, "
            + "\"bytes_down\": 20, \"nonfinite_metrics\": 2, \"failure_reasons\": "
            + "[\"fit: client 1 (c-2) failed: not finite\"]}",
        "{\"round\": 3, \"client_loss\": null, \"eval_loss\": 0.25, \"clients\": 3, "
            + "\"examples\": 60, \"failures\": 0, \"seconds\": 1.0, \"bytes_up\": 10, "
            + "\"bytes_down\": 20}");
    assertThat(progress.toString()).contains(
        "round 2/3: 3 clients, 1 failed, client_loss 0.5000, eval_loss -, 1.00 s",
        "  failed: fit: client 1 (c-2) failed: not finite",
        "  left out: 2 NaN or infinite client metrics",
        "round 3/3: 3 clients, 0 failed, client_loss -, eval_loss 0.2500");
  }

  @Test
  void roundEnded_eachRound_addsATagRecordingTheAlgorithmAndCommand() throws Exception {
    SequencedMap<String, Tensor> model = new LinkedHashMap<>();
    model.put("arr_0", Tensor.scalar(1f));
    try (ServerRunFiles out = ServerRunFiles.builder(dir, 12)
        .algorithm(FederatedAlgorithm.named("fedprox", java.util.Map.of("proximal_mu", 0.25))).command("tributary server --x").build()) {
      for (int r = 1; r <= 2; r++) {
        out.roundEnded(RoundRecord.federated(r, 0.5, 0.5, 1, 10, 0, 1.0, 10, 20, List.of(), 0,
            new TreeMap<>()), model);
      }
    }
    try (ModelFile m = ModelFile.open(dir.resolve("model.zip"))) {
      assertThat(m.tags()).containsExactly("round-0001", "round-0002");
      ModelTag tag = m.newest();
      assertThat(tag.trainingConfig().round()).isEqualTo(2);
      assertThat(tag.trainingConfig().hyperparameters()).containsExactly(Map.entry("mu", 0.25));
      assertThat(tag.trainingConfig().properties()).containsAllEntriesOf(Map.of(
          "algorithm", "fedprox", "command", "tributary server --x", "run_kind", "server"));
      assertThat(tag.trainingConfig().properties()).containsKeys("run_seed", "run_settings",
          "run_settings_sha256");
      assertThat(tag.parameters()).isEqualTo(model);
    }
  }

  @Test
  void roundEnded_withEpsilon_addsItToTheRoundsAlgorithmMetrics() throws Exception {
    SequencedMap<String, Tensor> model = new LinkedHashMap<>();
    model.put("arr_0", Tensor.scalar(1f));
    try (ServerRunFiles out = ServerRunFiles.builder(dir, 2).epsilonAfterRound(r -> r * 0.5)
        .build()) {
      out.roundEnded(RoundRecord.federated(2, 0.5, 0.5, 1, 10, 0, 1.0, 10, 20, List.of(), 0,
          new TreeMap<>(Map.of("clip_norm", 0.5))), model);
    }
    assertThat(Files.readAllLines(dir.resolve("metrics.jsonl")).getFirst())
        .contains("\"algorithm_metrics\": {\"clip_norm\": 0.5, \"epsilon\": 1.0}");
  }

  private static RoundRecord round(int r) {
    return RoundRecord.federated(r, 0.5, 0.5, 1, 10, 0, 1.0, 10, 20, List.of(), 0,
        new TreeMap<>());
  }

  /** The newest checkpoint's round and the lines of the log, as a reader would see them now. */
  private String onDisk() {
    try (ModelFile m = ModelFile.open(dir.resolve("model.zip"))) {
      return "checkpoint " + m.newest().trainingConfig().round() + ", lines "
          + Files.readAllLines(dir.resolve("metrics.jsonl")).size();
    } catch (java.io.IOException e) {
      return "no checkpoint, lines ?";
    }
  }

  @Test
  void roundEnded_progressSaysARoundIsDone_itsCheckpointAndLineAreOnDisk() throws Exception {
    SequencedMap<String, Tensor> model = new LinkedHashMap<>();
    model.put("arr_0", Tensor.scalar(1f));
    List<String> seen = new java.util.ArrayList<>();
    // Looks at the files the moment the progress line of a round is printed.
    java.io.Writer watch = new java.io.Writer() {
      @Override
      public void write(char[] buf, int off, int len) {
        String text = new String(buf, off, len);
        if (text.startsWith("round ")) {
          seen.add(text.substring(0, text.indexOf(':')) + ": " + onDisk());
        }
      }

      @Override
      public void flush() {}

      @Override
      public void close() {}
    };
    try (ServerRunFiles out = ServerRunFiles.builder(dir, 3).progress(new PrintWriter(watch))
        .build()) {
      for (int r = 1; r <= 3; r++) {
        out.roundEnded(round(r), model);
      }
    }
    assertThat(seen).containsExactly("round 1/3: checkpoint 1, lines 1",
        "round 2/3: checkpoint 2, lines 2", "round 3/3: checkpoint 3, lines 3");
  }

  @Test
  void roundEnded_checkpointCannotBeWritten_writesNoLineForTheRound() throws Exception {
    SequencedMap<String, Tensor> model = new LinkedHashMap<>();
    model.put("arr_0", Tensor.scalar(1f));
    try (ServerRunFiles out = ServerRunFiles.builder(dir, 3).build()) {
      out.roundEnded(round(1), model);
      // model.zip replaced by a folder: round 2's checkpoint fails.
      Files.delete(dir.resolve("model.zip"));
      Files.createDirectory(dir.resolve("model.zip"));

      org.assertj.core.api.Assertions.assertThatThrownBy(() -> out.roundEnded(round(2), model))
          .isInstanceOf(java.io.IOException.class);
    }
    assertThat(Files.readAllLines(dir.resolve("metrics.jsonl"))).hasSize(1);
  }

  @Test
  void build_killedAfterACheckpointBeforeItsLine_resumesWithTheLineFromTheCheckpoint()
      throws Exception {
    SequencedMap<String, Tensor> model = new LinkedHashMap<>();
    model.put("arr_0", Tensor.scalar(1f));
    try (ServerRunFiles out = ServerRunFiles.builder(dir, 3).build()) {
      for (int r = 1; r <= 2; r++) {
        out.roundEnded(round(r), model);
      }
    }
    // As a kill between round 2's checkpoint and its line leaves the log.
    Path log = dir.resolve("metrics.jsonl");
    List<String> written = Files.readAllLines(log);
    Files.writeString(log, written.getFirst() + "\n" + written.get(1).substring(0, 9));

    try (ServerRunFiles out = ServerRunFiles.builder(dir, 3).resumedAfter(2).build()) {
      assertThat(out.rounds()).extracting(RoundRecord::round).containsExactly(1, 2);
      out.roundEnded(round(3), model);
    }
    List<String> lines = Files.readAllLines(log);
    assertThat(lines).hasSize(3);
    assertThat(lines.subList(0, 2)).isEqualTo(written);
  }

  @Test
  void build_resumedAfterARound_cutsMetricsBackAndAppends() throws Exception {
    SequencedMap<String, Tensor> model = new LinkedHashMap<>();
    model.put("arr_0", Tensor.scalar(1f));
    try (ServerRunFiles out = ServerRunFiles.builder(dir, 3).build()) {
      for (int r = 1; r <= 2; r++) {
        out.roundEnded(RoundRecord.federated(r, 0.5, 0.5, 1, 10, 0, 1.0, 10, 20, List.of(), 0,
            new TreeMap<>()), model);
      }
    }
    Files.writeString(dir.resolve("metrics.jsonl"), "{\"round\": 3, \"half",
        java.nio.file.StandardOpenOption.APPEND);
    try (ServerRunFiles out = ServerRunFiles.builder(dir, 3).resumedAfter(2).build()) {
      out.roundEnded(RoundRecord.federated(3, 0.5, 0.5, 1, 10, 0, 1.0, 10, 20, List.of(), 0,
          new TreeMap<>()), model);
    }
    List<String> lines = Files.readAllLines(dir.resolve("metrics.jsonl"));
    assertThat(lines).hasSize(3);
    assertThat(lines.get(2)).startsWith("{\"round\": 3, \"client_loss\": 0.5");
  }

  @Test
  void finish_resumedRun_reportsTheEarlierRoundsAndTheNewOnes() throws Exception {
    SequencedMap<String, Tensor> model = new LinkedHashMap<>();
    model.put("arr_0", Tensor.scalar(1f));
    try (ServerRunFiles out = ServerRunFiles.builder(dir, 3).build()) {
      out.roundEnded(RoundRecord.federated(1, 0.75, 0.5, 2, 10, 0, 1.0, 10, 20, List.of(), 0,
          new TreeMap<>()), model);
    }
    SequencedMap<String, String> settings = new LinkedHashMap<>();
    settings.put("algorithm", "fedavg");
    settings.put("address", "localhost:8080");
    Path report;
    try (ServerRunFiles out = ServerRunFiles.builder(dir, 3).resumedAfter(1)
        .report("fedavg server", settings).build()) {
      out.roundEnded(RoundRecord.federated(2, 0.5, 0.25, 2, 10, 0, 1.0, 10, 20, List.of(), 0,
          new TreeMap<>()), model);
      report = out.finish("stopped after round 2: too few clients");
      assertThat(out.rounds()).extracting(RoundRecord::round).containsExactly(1, 2);
    }
    assertThat(report).isEqualTo(dir.resolve(ServerRunFiles.REPORT));
    String html = Files.readString(report);
    assertThat(html).contains("<h1>fedavg server</h1>")
        .contains("stopped after round 2: too few clients")
        .contains("<tr><th>address</th><td>localhost:8080</td></tr>")
        .contains("<tr><td class=\"n\">1</td><td class=\"n\">0.7500</td>"
            + "<td class=\"n\">0.5000</td>")
        .contains("<tr><td class=\"n\">2</td><td class=\"n\">0.5000</td>"
            + "<td class=\"n\">0.2500</td>")
        .contains("0.2500</div><div class=\"k\">final evaluation loss");
  }
}
