package io.tributary.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.learning.rounds.RoundRecord;
import io.tributary.learning.rounds.output.MetricsLog;
import io.tributary.tensor.Tensor;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.SequencedMap;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The server's {@code metrics.jsonl} lines and progress lines. */
class ServerOutputTest {
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
    try (ServerOutput out = new ServerOutput(new PrintWriter(progress), dir,
        new MetricsLog(dir.resolve("metrics.jsonl")), 3, "fedavg", 0, "tributary server")) {
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
}
