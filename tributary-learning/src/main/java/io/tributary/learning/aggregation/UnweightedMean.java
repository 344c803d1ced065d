package io.tributary.learning.aggregation;

import io.tributary.core.computation.Federated;
import io.tributary.core.computation.Intrinsics;
import io.tributary.core.types.FederatedType;
import io.tributary.core.types.Placement;
import io.tributary.core.types.StructType;
import io.tributary.core.types.TensorType;
import io.tributary.tensor.DType;
import io.tributary.tensor.Tensor;
import java.util.Arrays;
import java.util.List;

/**
 * The plain mean of the updates, every client counting once whatever its example count. As an
 * aggregator it is {@code federated_mean}, which streams: one model-sized accumulator whatever
 * the number of clients.
 *
 * <p>{@link #of} computes this mean over a round's {@link ClientUpdates}, streaming over the
 * clients with one block of accumulators.
 */
public record UnweightedMean() implements Aggregator {
  /** The unweighted mean of {@code updates}, added in client order. */
  public static List<Tensor> of(ClientUpdates updates) {
    double[] w = new double[updates.size()];
    Arrays.fill(w, 1);
    return CoordinateBlocks.weighted(updates, w, updates.size());
  }

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
