package io.tributary.cli;

import io.tributary.flower.server.RoundListener;
import io.tributary.flower.server.RoundMetrics;
import io.tributary.format.TrainingConfig;
import io.tributary.simulation.output.Json;
import io.tributary.simulation.output.MetricsLog;
import io.tributary.simulation.output.RoundCheckpoints;
import io.tributary.tensor.Tensor;
import java.io.Closeable;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.SequencedMap;

/**
 * What {@code tributary server} writes as rounds end: a progress line, a line of
 * {@code metrics.jsonl}, and a {@code round-NNNN} tag in {@code model.zip}.
 */
final class ServerOutput implements RoundListener, Closeable {
  private final PrintWriter progress;
  private final MetricsLog metrics;
  private final Path modelFile;
  private final int rounds;
  private final SequencedMap<String, Double> hyperparameters;
  private final SequencedMap<String, String> properties;

  /**
   * @param metrics the run's {@code metrics.jsonl}, new or (for a resumed run) reopened
   */
  ServerOutput(PrintWriter progress, Path dir, MetricsLog metrics, int rounds, String strategy,
      double mu, String command) {
    this.progress = progress;
    this.metrics = metrics;
    this.modelFile = dir.resolve("model.zip");
    this.rounds = rounds;
    this.hyperparameters = new LinkedHashMap<>();
    hyperparameters.put("mu", mu);
    this.properties = new LinkedHashMap<>();
    properties.put("algorithm", strategy);
    properties.put("command", command);
  }

  /** The round as one line of JSON, keys in a fixed order. */
  static String toJson(RoundMetrics m) {
    return "{\"round\": " + m.round()
        + ", \"clients\": " + m.clients()
        + ", \"failures\": " + m.failures()
        + ", \"fit_loss\": " + Json.number(m.fitLoss().isPresent() ? m.fitLoss().getAsDouble()
            : null)
        + ", \"eval_loss\": " + Json.number(m.evalLoss().isPresent() ? m.evalLoss().getAsDouble()
            : null)
        + ", \"seconds\": " + Json.number(m.seconds())
        + ", \"bytes_up\": " + m.bytesUp()
        + ", \"bytes_down\": " + m.bytesDown() + extras(m) + "}";
  }

  /** Keys present only when there is something to say, so a clean round's line is unchanged. */
  private static String extras(RoundMetrics m) {
    StringBuilder s = new StringBuilder();
    if (m.nonFiniteMetrics() > 0) {
      s.append(", \"nonfinite_metrics\": ").append(m.nonFiniteMetrics());
    }
    if (!m.failureReasons().isEmpty()) {
      s.append(", \"failure_reasons\": [");
      for (int i = 0; i < m.failureReasons().size(); i++) {
        s.append(i == 0 ? "" : ", ").append(Json.string(m.failureReasons().get(i)));
      }
      s.append(']');
    }
    return s.toString();
  }

  /** {@code round 3/10: 5 clients, 0 failed, fit_loss 0.4120, eval_loss 0.3981, 1.20 s, ...}. */
  static String progressLine(RoundMetrics m, int rounds) {
    return String.format(Locale.ROOT, "round %d/%d: %d clients, %d failed, fit_loss %s, "
        + "eval_loss %s, %.2f s, %s up, %s down", m.round(), rounds, m.clients(), m.failures(),
        m.fitLoss().isPresent() ? String.format(Locale.ROOT, "%.4f", m.fitLoss().getAsDouble())
            : "-",
        m.evalLoss().isPresent() ? String.format(Locale.ROOT, "%.4f", m.evalLoss().getAsDouble())
            : "-",
        m.seconds(), bytes(m.bytesUp()), bytes(m.bytesDown()));
  }

  private static String bytes(long n) {
    return n < 1 << 20 ? String.format(Locale.ROOT, "%.1f KB", n / 1024.0)
        : String.format(Locale.ROOT, "%.1f MB", n / 1048576.0);
  }

  @Override
  public void roundEnded(RoundMetrics m, SequencedMap<String, Tensor> parameters)
      throws IOException {
    metrics.writeLine(toJson(m));
    new RoundCheckpoints(modelFile, rounds).write(m.round(), parameters,
        TrainingConfig.of("", hyperparameters).withProperties(properties), null);
    progress.println(progressLine(m, rounds));
    m.failureReasons().forEach(r -> progress.println("  failed: " + r));
    if (m.nonFiniteMetrics() > 0) {
      progress.println("  left out: " + m.nonFiniteMetrics() + " NaN or infinite client metrics");
    }
    progress.flush();
  }

  @Override
  public void close() throws IOException {
    metrics.close();
  }
}
