package io.tributary.simulation;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SequencedMap;
import java.util.TreeMap;

/**
 * What one round of a simulation measured: one line of {@code metrics.jsonl}, one row of the
 * report, one entry of a {@link History}.
 *
 * @param round the round number, from 1
 * @param trainLoss the new global model's mean loss over every client's training data
 * @param trainAccuracy the new global model's accuracy over every client's training data
 * @param testLoss the new global model's mean loss over the test data
 * @param testAccuracy the new global model's accuracy over the test data, in [0, 1]
 * @param clientLoss the example-weighted mean loss the clients saw while training this round
 * @param clients the clients that took part (sampled this round)
 * @param examples the training examples of the clients that trained successfully
 * @param failures the sampled clients whose update failed and was left out
 * @param seconds the round's wall-clock time, training and evaluation included
 * @param bytesUp parameter bytes the successful clients sent to the server
 * @param bytesDown parameter bytes the server broadcast to the sampled clients
 * @param failureReasons one line per failed client (training) and per evaluation piece left out
 * @param nonFiniteMetrics evaluation results (a client's training data or a piece of the test
 *     set) whose loss or accuracy was NaN or infinite and so were left out of the round's figures
 * @param algorithmMetrics what the algorithm reported beyond the training loss, the examples and
 *     the clients (for example a server optimizer's step size), by name in sorted order; empty for
 *     FedAvg and FedProx
 */
public record RoundRecord(int round, double trainLoss, double trainAccuracy, double testLoss,
    double testAccuracy, double clientLoss, int clients, long examples, int failures,
    double seconds, long bytesUp, long bytesDown, List<String> failureReasons,
    int nonFiniteMetrics, SequencedMap<String, Double> algorithmMetrics) {
  /** A round without failure reasons, non-finite metrics or algorithm metrics. */
  public RoundRecord(int round, double trainLoss, double trainAccuracy, double testLoss,
      double testAccuracy, double clientLoss, int clients, long examples, int failures,
      double seconds, long bytesUp, long bytesDown) {
    this(round, trainLoss, trainAccuracy, testLoss, testAccuracy, clientLoss, clients, examples,
        failures, seconds, bytesUp, bytesDown, List.of(), 0, new TreeMap<>());
  }

  /**
   * Checks the counts and copies the lists.
   *
   * @throws IllegalArgumentException when the counts contradict each other (more failures than
   *     clients, a negative size or time)
   */
  public RoundRecord {
    failureReasons = List.copyOf(failureReasons);
    algorithmMetrics = Collections.unmodifiableSequencedMap(new TreeMap<>(algorithmMetrics));
    if (round < 1 || clients < 0 || examples < 0 || failures < 0 || failures > clients
        || bytesUp < 0 || bytesDown < 0 || !(seconds >= 0) || nonFiniteMetrics < 0) {
      throw new IllegalArgumentException("inconsistent round record: round " + round
          + ", clients " + clients + ", failures " + failures + ", seconds " + seconds
          + ", bytes up/down " + bytesUp + "/" + bytesDown);
    }
  }

  /** The algorithm's metric {@code name}, or NaN when it reported none of that name. */
  public double algorithmMetric(String name) {
    return algorithmMetrics.getOrDefault(name, Double.NaN);
  }

  /** The same round with {@code metrics} as its algorithm metrics. */
  public RoundRecord withAlgorithmMetrics(Map<String, Double> metrics) {
    return new RoundRecord(round, trainLoss, trainAccuracy, testLoss, testAccuracy, clientLoss,
        clients, examples, failures, seconds, bytesUp, bytesDown, failureReasons,
        nonFiniteMetrics, new TreeMap<>(metrics));
  }
}
