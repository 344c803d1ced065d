package io.tributary.learning.aggregation;

import io.tributary.core.computation.Federated;
import io.tributary.core.computation.Intrinsics;
import io.tributary.core.types.FederatedType;
import io.tributary.core.types.Placement;
import io.tributary.core.types.StructType;
import io.tributary.core.types.TensorType;
import io.tributary.tensor.DType;

/**
 * The example-weighted mean of the updates, {@code sum(n_i u_i) / sum(n_i)} (FedAvg's rule and
 * Flower's {@code aggregate}): {@code federated_weighted_mean}, which streams, so memory is one
 * accumulator the size of the model whatever the number of clients.
 */
public record WeightedMean() implements Aggregator {
  @Override
  public String name() {
    return "weighted_mean";
  }

  @Override
  public AggregationProcess create(StructType model) {
    return AggregationProcess.stateless(Federated.computation(
        new FederatedType(model, Placement.CLIENTS, false),
        new FederatedType(TensorType.of(DType.INT64), Placement.CLIENTS, false),
        Intrinsics::federatedWeightedMean));
  }
}
