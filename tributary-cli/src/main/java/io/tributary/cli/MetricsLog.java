package io.tributary.cli;

import io.tributary.cli.report.RoundMetrics;
import java.io.BufferedWriter;
import java.io.Closeable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * {@code metrics.jsonl}: one JSON object per round, written and flushed as each round ends, so
 * that a run stopped early still leaves every finished round on disk.
 */
final class MetricsLog implements Closeable {
  private final BufferedWriter out;

  /** Creates {@code file}, which must not exist yet. */
  MetricsLog(Path file) throws IOException {
    this.out = Files.newBufferedWriter(file, StandardCharsets.UTF_8, StandardOpenOption.CREATE_NEW,
        StandardOpenOption.WRITE);
  }

  /** Appends the round's line. */
  void write(RoundMetrics r) throws IOException {
    writeLine(toJson(r));
  }

  /** Appends one JSON object, which must be on one line. */
  void writeLine(String jsonObject) throws IOException {
    out.write(jsonObject);
    out.write('\n');
    out.flush();
  }

  /** The round as one line of JSON, keys in a fixed order. */
  static String toJson(RoundMetrics r) {
    return "{\"round\": " + r.round()
        + ", \"train_loss\": " + Json.number(r.trainLoss())
        + ", \"train_accuracy\": " + Json.number(r.trainAccuracy())
        + ", \"test_loss\": " + Json.number(r.testLoss())
        + ", \"test_accuracy\": " + Json.number(r.testAccuracy())
        + ", \"client_loss\": " + Json.number(r.clientLoss())
        + ", \"clients\": " + r.clients()
        + ", \"examples\": " + r.examples()
        + ", \"failures\": " + r.failures()
        + ", \"seconds\": " + Json.number(r.seconds())
        + ", \"bytes_up\": " + r.bytesUp()
        + ", \"bytes_down\": " + r.bytesDown()
        + extras(r) + "}";
  }

  /** Keys present only when there is something to say, so a clean run's lines are unchanged. */
  private static String extras(RoundMetrics r) {
    StringBuilder s = new StringBuilder();
    if (r.nonFiniteMetrics() > 0) {
      s.append(", \"nonfinite_metrics\": ").append(r.nonFiniteMetrics());
    }
    if (!r.failureReasons().isEmpty()) {
      s.append(", \"failure_reasons\": [");
      for (int i = 0; i < r.failureReasons().size(); i++) {
        s.append(i == 0 ? "" : ", ").append(Json.string(r.failureReasons().get(i)));
      }
      s.append(']');
    }
    return s.toString();
  }

  @Override
  public void close() throws IOException {
    out.close();
  }
}
