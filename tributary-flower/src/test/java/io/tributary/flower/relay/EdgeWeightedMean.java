package io.tributary.flower.relay;

import io.tributary.core.computation.Federated;
import io.tributary.core.computation.Intrinsics;
import io.tributary.core.types.FederatedType;
import io.tributary.core.types.Placement;
import io.tributary.core.types.StructType;
import io.tributary.core.types.TensorType;
import io.tributary.learning.aggregation.AggregationProcess;
import io.tributary.learning.aggregation.Aggregator;
import io.tributary.tensor.DType;

/**
 * FedAvg's weighted mean through the {@code EDGES} tier, as a deployment over relays computes
 * it: each edge's example-weighted mean update, then the mean of the edges' updates weighted by
 * their examples.
 */
record EdgeWeightedMean() implements Aggregator {
  @Override
  public String name() {
    return "edge_weighted_mean";
  }

  @Override
  public AggregationProcess create(StructType model) {
    return AggregationProcess.stateless(Federated.computation(
        new FederatedType(model, Placement.CLIENTS, false),
        new FederatedType(TensorType.of(DType.INT64), Placement.CLIENTS, false),
        (u, n) -> Intrinsics.federatedWeightedMeanFromEdges(
            Intrinsics.federatedWeightedMeanToEdges(u, n), Intrinsics.federatedSumToEdges(n))));
  }
}
