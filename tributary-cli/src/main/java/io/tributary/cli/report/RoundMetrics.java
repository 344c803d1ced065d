package io.tributary.cli.report;

import java.util.List;

/**
 * What one round of a simulation measured.
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
 *     set) whose loss or accuracy was NaN or infinite and so was left out of the round's figures
 */
public record RoundMetrics(int round, double trainLoss, double trainAccuracy, double testLoss,
    double testAccuracy, double clientLoss, int clients, long examples, int failures, double seconds,
    long bytesUp, long bytesDown, List<String> failureReasons, int nonFiniteMetrics) {
  /** A round without failure reasons or non-finite metrics. */
  public RoundMetrics(int round, double trainLoss, double trainAccuracy, double testLoss,
      double testAccuracy, double clientLoss, int clients, long examples, int failures,
      double seconds, long bytesUp, long bytesDown) {
    this(round, trainLoss, trainAccuracy, testLoss, testAccuracy, clientLoss, clients, examples,
        failures, seconds, bytesUp, bytesDown, List.of(), 0);
  }

  public RoundMetrics {
    failureReasons = List.copyOf(failureReasons);
    if (round < 1 || clients < 0 || examples < 0 || failures < 0 || failures > clients || bytesUp < 0
        || bytesDown < 0 || !(seconds >= 0)) {
      throw new IllegalArgumentException("inconsistent round metrics: round " + round + ", clients "
          + clients + ", failures " + failures + ", seconds " + seconds + ", bytes up/down "
          + bytesUp + "/" + bytesDown);
    }
  }
}
