package io.tributary.flower.relay.internal;

import io.tributary.core.computation.Computation;
import io.tributary.core.computation.Federated;
import io.tributary.core.computation.Intrinsics;
import io.tributary.core.computation.Value;
import io.tributary.core.types.FederatedType;
import io.tributary.core.types.Placement;
import io.tributary.core.types.StructType;
import io.tributary.flower.server.internal.RemoteClientWork;

/**
 * The federated computations of an edge round, over the relay's clients as CLIENTS: the same
 * intrinsics, on the same runtime, as a simulated round's aggregation to the {@code EDGES}
 * placement, so that an edge's aggregate has the bits of the simulated edge's.
 */
final class EdgeComputations {
  private EdgeComputations() {}

  /**
   * {@code (<M@SERVER, {string}@CLIENTS> -> <delta=M, num_examples=int64, loss_sum=float32,
   * loss_weight=float32>@SERVER)} for a client fit {@code (<model=M,data=string> ->
   * <delta=M,num_examples=int64,loss=float32,loss_weight=float32>)}: the example-weighted mean of
   * the updates ({@code federated_weighted_mean}, as {@code federated_weighted_mean_to_edges}
   * computes each edge's), the examples, and the sums that make the edge's training loss.
   */
  static Computation fit(Computation clientFit, StructType model) {
    Computation lossTimesWeight = Federated.computation(clientFit.type().result(),
        x -> Intrinsics.genericMultiply(x.get("loss"), x.get("loss_weight")));
    return Federated.computation(new FederatedType(model, Placement.SERVER, true),
        new FederatedType(RemoteClientWork.CLIENT_ID, Placement.CLIENTS, false), (m, ids) -> {
          Value out = Intrinsics.federatedMap(clientFit,
              Federated.struct(Intrinsics.federatedBroadcast(m), ids));
          Value examples = out.get("num_examples");
          return Federated.struct(
              Intrinsics.federatedWeightedMean(out.get("delta"), examples),
              Intrinsics.federatedSum(examples),
              Intrinsics.federatedSum(Intrinsics.federatedMap(lossTimesWeight, out)),
              Intrinsics.federatedSum(out.get("loss_weight")));
        });
  }

  /**
   * {@code (<M@SERVER, {string}@CLIENTS> -> <loss=float32, num_examples=int64>@SERVER)}: the
   * example-weighted mean of the clients' evaluation losses, and their examples.
   */
  static Computation evaluate(Computation clientEvaluate, StructType model) {
    return Federated.computation(new FederatedType(model, Placement.SERVER, true),
        new FederatedType(RemoteClientWork.CLIENT_ID, Placement.CLIENTS, false), (m, ids) -> {
          Value out = Intrinsics.federatedMap(clientEvaluate,
              Federated.struct(Intrinsics.federatedBroadcast(m), ids));
          Value examples = out.get("num_examples");
          return Federated.struct(
              Intrinsics.federatedWeightedMean(out.get("loss"), examples),
              Intrinsics.federatedSum(examples));
        });
  }
}
