package io.tributary.learning.aggregation;

import io.tributary.core.types.StructType;

/**
 * How a round's client updates become one update on the server, as a federated computation: one
 * of the three parts of a {@link io.tributary.learning.FederatedAlgorithm}, beside the client
 * work and the server optimizer.
 *
 * <p>An aggregator may keep state on the server between rounds (an adaptive clipping norm, say)
 * and may wrap another aggregator, as TFF's aggregation factories do: {@link #create} then builds
 * the inner one's process and calls it inside its own. Streaming aggregators (the means) use the
 * runtime's folding intrinsics; {@link WholeRoundAggregator}s see every update of the round.
 *
 * <p>A stateful aggregator reports figures of its round (a clipping norm, a noise scale) by
 * giving its state A, a named struct, an element {@code metrics}: a named struct of one-element
 * tensors. {@link io.tributary.learning.FederatedLearning#next} adds them to the round's metrics,
 * so they reach {@code RoundOutput.Metrics.others} and {@code metrics.jsonl}'s {@code
 * algorithm_metrics}; a name the round already reports ({@code train_loss}, {@code
 * num_examples}, {@code clients}) is left out.
 */
public interface Aggregator {
  /** The aggregator's name, such as {@code weighted_mean} or {@code krum}. */
  String name();

  /**
   * The aggregation of client updates of type {@code model}.
   *
   * @param model M, the type of one client update (the model's type)
   */
  AggregationProcess create(StructType model);

  /**
   * Whether this aggregator computes the example-weighted mean of the updates, {@code sum(n_i
   * u_i) / sum(n_i)}, so that a differentially private mean may take its place (DP-FedAvg
   * replaces the mean, not a robust rule); false unless an aggregator declares it.
   */
  default boolean weightedMean() {
    return false;
  }

  /**
   * What this aggregator asks of clients that run elsewhere before they report, for bindings
   * whose clients are remote (a server's): empty unless the aggregator relies on the clients
   * clipping their own updates.
   */
  default java.util.Optional<ClientClipping> clientClipping() {
    return java.util.Optional.empty();
  }
}
