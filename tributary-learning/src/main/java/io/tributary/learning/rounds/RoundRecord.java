package io.tributary.learning.rounds;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SequencedMap;
import java.util.TreeMap;

/**
 * What one round measured, for the simulator and the Flower server alike: one line of {@code
 * metrics.jsonl} ({@link RoundJson}), one entry of a run's result.
 *
 * <p>The two measure the new model differently, as {@link #evaluation} says: the simulator
 * evaluates it centrally (every client's training data and the test set), the server asks the
 * clients sampled for evaluation. A figure of the evaluation a round did not run is NaN and has
 * no key in the round's JSON line.
 *
 * @param round the round number, from 1
 * @param evaluation how the new model was evaluated, so which figures the round has
 * @param trainLoss the new global model's mean loss over every client's training data; NaN in a
 *     {@link EvaluationKind#FEDERATED} round
 * @param trainAccuracy the new global model's accuracy over every client's training data; NaN in
 *     a federated round
 * @param testLoss the new global model's mean loss over the test data; NaN in a federated round
 * @param testAccuracy the new global model's accuracy over the test data, in [0, 1]; NaN in a
 *     federated round
 * @param clientLoss the weighted mean loss the clients saw while training this round (the round
 *     computation's {@code train_loss}); in a federated round NaN when no client reported one
 * @param evalLoss the example-weighted mean loss the clients sampled for evaluation reported; NaN
 *     when none did, and in a {@link EvaluationKind#CENTRAL} round
 * @param clients the clients that took part (sampled this round)
 * @param examples the training examples of the clients that trained successfully
 * @param failures the sampled clients whose update failed and was left out; a federated round
 *     counts failed evaluations too, so may have more failures than {@code clients}
 * @param seconds the round's wall-clock time, training and evaluation included
 * @param bytesUp bytes the clients sent to the server (a simulator counts the successful
 *     clients' parameters, a server every protobuf message)
 * @param bytesDown bytes the server sent to the clients
 * @param failureReasons one line per failed client (training and evaluation) and per piece of
 *     evaluation or aggregate left out
 * @param nonFiniteMetrics evaluation results or client metrics that were NaN or infinite and so
 *     were left out of the round's figures
 * @param algorithmMetrics what the algorithm reported beyond the training loss, the examples and
 *     the clients (for example a server optimizer's step size), by name in sorted order; empty for
 *     FedAvg and FedProx
 */
public record RoundRecord(int round, EvaluationKind evaluation, double trainLoss,
    double trainAccuracy, double testLoss, double testAccuracy, double clientLoss,
    double evalLoss, int clients, long examples, int failures, double seconds, long bytesUp,
    long bytesDown, List<String> failureReasons, int nonFiniteMetrics,
    SequencedMap<String, Double> algorithmMetrics) {
  /** How a round's new model was evaluated. */
  public enum EvaluationKind {
    /**
     * By the simulator, on every client's training data and on the test set: the round has
     * {@code trainLoss}, {@code trainAccuracy}, {@code testLoss} and {@code testAccuracy}.
     */
    CENTRAL,
    /** By the clients a server sampled for evaluation: the round has {@code evalLoss}. */
    FEDERATED
  }

  /** A centrally evaluated round without failure reasons or algorithm metrics. */
  public RoundRecord(int round, double trainLoss, double trainAccuracy, double testLoss,
      double testAccuracy, double clientLoss, int clients, long examples, int failures,
      double seconds, long bytesUp, long bytesDown) {
    this(round, trainLoss, trainAccuracy, testLoss, testAccuracy, clientLoss, clients, examples,
        failures, seconds, bytesUp, bytesDown, List.of(), 0, new TreeMap<>());
  }

  /** A centrally evaluated round: a simulator's. */
  public RoundRecord(int round, double trainLoss, double trainAccuracy, double testLoss,
      double testAccuracy, double clientLoss, int clients, long examples, int failures,
      double seconds, long bytesUp, long bytesDown, List<String> failureReasons,
      int nonFiniteMetrics, SequencedMap<String, Double> algorithmMetrics) {
    this(round, EvaluationKind.CENTRAL, trainLoss, trainAccuracy, testLoss, testAccuracy,
        clientLoss, Double.NaN, clients, examples, failures, seconds, bytesUp, bytesDown,
        failureReasons, nonFiniteMetrics, algorithmMetrics);
  }

  /**
   * A round whose model the clients evaluated: a server's.
   *
   * @param clientLoss NaN when no client reported its training loss
   * @param evalLoss NaN when evaluation gave no result
   */
  public static RoundRecord federated(int round, double clientLoss, double evalLoss, int clients,
      long examples, int failures, double seconds, long bytesUp, long bytesDown,
      List<String> failureReasons, int nonFiniteMetrics,
      SequencedMap<String, Double> algorithmMetrics) {
    return new RoundRecord(round, EvaluationKind.FEDERATED, Double.NaN, Double.NaN, Double.NaN,
        Double.NaN, clientLoss, evalLoss, clients, examples, failures, seconds, bytesUp,
        bytesDown, failureReasons, nonFiniteMetrics, algorithmMetrics);
  }

  /**
   * Checks the counts and copies the lists.
   *
   * @throws IllegalArgumentException when the counts contradict each other (more failures than
   *     clients, a negative size or time), or the round has a figure of the evaluation it did not
   *     run
   */
  public RoundRecord {
    failureReasons = List.copyOf(failureReasons);
    algorithmMetrics = Collections.unmodifiableSequencedMap(new TreeMap<>(algorithmMetrics));
    // A server's failures count failed evaluations too, whose clients are sampled apart.
    boolean tooManyFailures = failures > clients && evaluation == EvaluationKind.CENTRAL;
    if (round < 1 || clients < 0 || examples < 0 || failures < 0 || tooManyFailures
        || bytesUp < 0 || bytesDown < 0 || !(seconds >= 0) || nonFiniteMetrics < 0) {
      throw new IllegalArgumentException("inconsistent round record: round " + round
          + ", clients " + clients + ", failures " + failures + ", seconds " + seconds
          + ", bytes up/down " + bytesUp + "/" + bytesDown);
    }
    boolean central = Objects.requireNonNull(evaluation, "evaluation")
        == EvaluationKind.CENTRAL;
    if (central ? !Double.isNaN(evalLoss) : !(Double.isNaN(trainLoss)
        && Double.isNaN(trainAccuracy) && Double.isNaN(testLoss)
        && Double.isNaN(testAccuracy))) {
      throw new IllegalArgumentException("a round evaluated " + evaluation
          + " has no figures of the other evaluation: round " + round);
    }
  }

  /**
   * The algorithm metric of a differentially private run: the epsilon spent so far, at the
   * run's delta (the RDP accountant's).
   */
  public static final String EPSILON = "epsilon";

  /** The algorithm's metric {@code name}, or NaN when it reported none of that name. */
  public double algorithmMetric(String name) {
    return algorithmMetrics.getOrDefault(name, Double.NaN);
  }

  /** The same round with {@code metrics} as its algorithm metrics. */
  public RoundRecord withAlgorithmMetrics(Map<String, Double> metrics) {
    return new RoundRecord(round, evaluation, trainLoss, trainAccuracy, testLoss, testAccuracy,
        clientLoss, evalLoss, clients, examples, failures, seconds, bytesUp, bytesDown,
        failureReasons, nonFiniteMetrics, new TreeMap<>(metrics));
  }
}
