package io.tributary.learning.aggregation;

import io.tributary.core.computation.Federated;
import io.tributary.core.computation.Intrinsics;
import io.tributary.core.types.FederatedType;
import io.tributary.core.types.Placement;
import io.tributary.core.types.StructType;
import io.tributary.core.types.TensorType;
import io.tributary.tensor.DType;

/**
 * The plain mean of the updates, every client counting once whatever its example count:
 * {@code federated_mean}, which streams.
 */
public record UnweightedMean() implements Aggregator {
  @Override
  public String name() {
    return "mean";
  }

  @Override
  public AggregationProcess create(StructType model) {
    return AggregationProcess.stateless(Federated.computation(
        new FederatedType(model, Placement.CLIENTS, false),
        new FederatedType(TensorType.of(DType.INT64), Placement.CLIENTS, false),
        (updates, weights) -> Intrinsics.federatedMean(updates)));
  }
}
