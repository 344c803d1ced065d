package io.tributary.learning.aggregation;

import io.tributary.core.computation.Federated;
import io.tributary.core.computation.Intrinsics;
import io.tributary.core.types.FederatedType;
import io.tributary.core.types.Placement;
import io.tributary.core.types.StructType;
import io.tributary.core.types.TensorType;
import io.tributary.tensor.DType;
import io.tributary.tensor.Tensor;
import java.util.List;

/**
 * The example-weighted mean of the updates, {@code sum(n_i u_i) / sum(n_i)} (FedAvg's rule and
 * Flower's {@code aggregate}). As an aggregator it is {@code federated_weighted_mean}, which
 * streams, so memory is one accumulator the size of the model whatever the number of clients.
 *
 * <p>{@link #of} computes this mean over a round's {@link ClientUpdates} (Multi-Krum averages
 * its picks with it, and a rule of one's own may too); it also streams over the clients, with one
 * block of accumulators, so it needs nothing beyond the updates and the result.
 */
public record WeightedMean() implements Aggregator {
  /**
   * The example-weighted mean of {@code updates}, {@code sum(n_i u_i) / sum(n_i)}, added in
   * client order.
   *
   * @throws IllegalArgumentException when every client reports 0 examples
   */
  public static List<Tensor> of(ClientUpdates updates) {
    double total = 0;
    for (int c = 0; c < updates.size(); c++) {
      total += updates.examples(c);
    }
    if (total == 0) {
      throw new IllegalArgumentException("weighted mean: every client reports 0 examples");
    }
    double[] w = new double[updates.size()];
    for (int c = 0; c < updates.size(); c++) {
      w[c] = updates.examples(c);
    }
    return CoordinateBlocks.weighted(updates, w, total);
  }

  @Override
  public String name() {
    return "weighted_mean";
  }

  @Override
  public AggregationProcess create(StructType model) {
    return AggregationProcess.stateless(Federated.computation(
        new FederatedType(model, Placement.CLIENTS, false),
        new FederatedType(TensorType.of(DType.INT64), Placement.CLIENTS, false),
        Intrinsics::federatedWeightedMean)).inlined(Intrinsics::federatedWeightedMean);
  }

  /** True: differential privacy's means may take this aggregator's place (DP-FedAvg). */
  @Override
  public boolean weightedMean() {
    return true;
  }
}
