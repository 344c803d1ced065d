package io.tributary.flower.relay.internal;

import io.tributary.core.computation.Computation;
import io.tributary.core.computation.Federated;
import io.tributary.core.computation.Intrinsics;
import io.tributary.core.computation.Value;
import io.tributary.core.types.FederatedType;
import io.tributary.core.types.Placement;
import io.tributary.core.types.StructType;
import io.tributary.flower.server.internal.RemoteClientWork;
import io.tributary.learning.HierarchicalFedAvg;

/**
 * The federated computations of an edge round, over the relay's clients as CLIENTS, all of them
 * one edge: the same intrinsics, on the same runtime, as a simulated hierarchical round's edges
 * ({@link HierarchicalFedAvg#edgeRounds}), so that the relay's edge has the bits of the simulated
 * edge of the same clients.
 */
final class EdgeComputations {
  private EdgeComputations() {}

  /**
   * {@code (<M@SERVER, {string}@CLIENTS> -> <{M}@EDGES, {int64}@EDGES, float32@SERVER,
   * float32@SERVER>)} for a client fit {@code (<model=M,data=string> ->
   * <delta=M,num_examples=int64,loss=float32,loss_weight=float32>)}: the edge's update after
   * {@code edgeRounds} edge rounds and its clients' examples in the last one (each a list of one
   * value, the relay's edge), and the last edge round's sums that make the edge's training loss.
   */
  static Computation fit(Computation clientFit, StructType model, int edgeRounds) {
    Computation lossTimesWeight = Federated.computation(clientFit.type().result(),
        x -> Intrinsics.genericMultiply(x.get("loss"), x.get("loss_weight")));
    return Federated.computation(new FederatedType(model, Placement.SERVER, true),
        new FederatedType(RemoteClientWork.CLIENT_ID, Placement.CLIENTS, false), (m, ids) -> {
          HierarchicalFedAvg.EdgeRounds edge = HierarchicalFedAvg.edgeRounds(clientFit, m, ids,
              edgeRounds);
          Value out = edge.outputs();
          return Federated.struct(edge.delta(), edge.examples(),
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
