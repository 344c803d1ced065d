package io.tributary.cli;

import io.tributary.format.TrainingConfig;
import io.tributary.learning.rounds.RoundListener;
import io.tributary.learning.rounds.RoundRecord;
import io.tributary.learning.rounds.UpdaterState;
import io.tributary.privacy.aggregation.DpSettings;
import io.tributary.learning.rounds.output.MetricsLog;
import io.tributary.learning.rounds.output.RoundCheckpoints;
import io.tributary.tensor.Tensor;
import java.io.Closeable;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Optional;
import java.util.SequencedMap;

/**
 * What {@code tributary server} writes as rounds end: a progress line, a line of
 * {@code metrics.jsonl} (the simulator's {@link MetricsLog}, so the same mapping of a round), and
 * a {@code round-NNNN} tag in {@code model.zip}.
 */
final class ServerOutput implements RoundListener, Closeable {
  private final PrintWriter progress;
  private final MetricsLog metrics;
  private final Path modelFile;
  private final Optional<DpSettings> dp;
  private final int rounds;
  private final SequencedMap<String, Double> hyperparameters;
  private final SequencedMap<String, String> properties;

  /**
   * @param metrics the run's {@code metrics.jsonl}, new or (for a resumed run) reopened
   */
  ServerOutput(PrintWriter progress, Path dir, MetricsLog metrics, int rounds, String strategy,
      double mu, String command) {
    this(progress, dir, metrics, rounds, strategy, mu, command, Optional.empty());
  }

  /**
   * @param dp the run's differential privacy: each round's record gets the epsilon spent so far,
   *     with q = 1 (the server does not know the population, so every round is taken to include
   *     every client: an upper bound)
   */
  ServerOutput(PrintWriter progress, Path dir, MetricsLog metrics, int rounds, String strategy,
      double mu, String command, Optional<DpSettings> dp) {
    this.dp = dp;
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

  /**
   * {@code round 3/10: 5 clients, 0 failed, client_loss 0.4120, eval_loss 0.3981, 1.20 s, ...},
   * with {@code -} for a loss no client reported.
   */
  static String progressLine(RoundRecord m, int rounds) {
    return String.format(Locale.ROOT, "round %d/%d: %d clients, %d failed, client_loss %s, "
        + "eval_loss %s, %.2f s, %s up, %s down", m.round(), rounds, m.clients(), m.failures(),
        loss(m.clientLoss()), loss(m.evalLoss()), m.seconds(), bytes(m.bytesUp()),
        bytes(m.bytesDown()));
  }

  private static String loss(double loss) {
    return Double.isNaN(loss) ? "-" : String.format(Locale.ROOT, "%.4f", loss);
  }

  private static String bytes(long n) {
    return n < 1 << 20 ? String.format(Locale.ROOT, "%.1f KB", n / 1024.0)
        : String.format(Locale.ROOT, "%.1f MB", n / 1048576.0);
  }

  @Override
  public void roundEnded(RoundRecord m, SequencedMap<String, Tensor> parameters)
      throws IOException {
    roundEnded(m, parameters, Optional.empty());
  }

  @Override
  public void roundEnded(RoundRecord m, SequencedMap<String, Tensor> parameters,
      Optional<UpdaterState> updater) throws IOException {
    if (dp.isPresent()) {
      SequencedMap<String, Double> figures = new LinkedHashMap<>(m.algorithmMetrics());
      figures.put("epsilon", dp.get().spent(1.0, m.round()).epsilon());
      m = m.withAlgorithmMetrics(figures);
    }
    metrics.write(m);
    new RoundCheckpoints(modelFile, rounds).write(m.round(), parameters, updater,
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
