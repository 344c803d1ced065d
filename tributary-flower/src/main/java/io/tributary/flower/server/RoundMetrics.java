package io.tributary.flower.server;

import java.util.List;
import java.util.OptionalDouble;

/**
 * What one round did.
 *
 * @param round the round, from 1
 * @param clients the clients sampled for fit
 * @param failures failed client results in the round, fit and evaluate together
 * @param fitLoss the example-weighted mean of the {@code loss} metric of the clients whose fit
 *     succeeded and that report one; empty when none does
 * @param evalLoss the example-weighted mean of the successful {@code EvaluateRes.loss}; empty
 *     when evaluation gave no result
 * @param seconds wall-clock time of the round
 * @param bytesUp protobuf bytes received from clients during the round
 * @param bytesDown protobuf bytes sent to clients during the round
 * @param failureReasons one line per failure, naming the client, and one for an aggregate that
 *     was refused (an overflow), which leaves the model as it was
 * @param nonFiniteMetrics client metrics (a FitRes {@code loss} metric, an {@code
 *     EvaluateRes.loss}) that were NaN or infinite and so were left out of {@code fitLoss} and
 *     {@code evalLoss}; the client's update still counts
 */
public record RoundMetrics(int round, int clients, int failures, OptionalDouble fitLoss,
    OptionalDouble evalLoss, double seconds, long bytesUp, long bytesDown,
    List<String> failureReasons, int nonFiniteMetrics) {
  public RoundMetrics {
    failureReasons = List.copyOf(failureReasons);
  }
}
