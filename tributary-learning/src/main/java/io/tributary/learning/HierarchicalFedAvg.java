package io.tributary.learning;

import io.tributary.core.computation.Computation;
import io.tributary.core.computation.Federated;
import io.tributary.core.computation.Intrinsics;
import io.tributary.core.computation.Value;
import io.tributary.core.types.FederatedType;
import io.tributary.core.types.Placement;
import io.tributary.core.types.StructType;
import io.tributary.core.types.Type;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.util.LinkedHashMap;
import java.util.SequencedMap;

/**
 * Hierarchical FedAvg (Liu et al., "Client-Edge-Cloud Hierarchical Federated Learning", 2020) on
 * the {@code EDGES} tier: each cloud round, the server's model goes to every edge; then, k2
 * times, each edge sends its model to its clients, the clients train k1 local epochs, and the
 * edge adds its clients' example-weighted mean delta to its update (its model is the server's
 * plus its update); at the end the server adds to its model the edges' updates averaged by the
 * examples each edge saw in its last edge round ({@link #edgeRounds}, which a relay runs too).
 *
 * <p>This is the tier's round computation; the algorithm is the registry's {@code hierfavg} (or
 * any flat {@link FederatedAlgorithm} given {@link Topology.Hierarchical} with {@link
 * FederatedAlgorithm#withTopology}), whose {@link FederatedAlgorithm#process} builds its round
 * with {@link #next}.
 *
 * <p>With k2 = 1 a cloud round is FedAvg's round (the weighted mean of the edges' weighted means,
 * weighted by their example counts, is the flat weighted mean, up to rounding). The round runs
 * on any runtime that knows each client's edge ({@code RuntimeOptions.withEdges}); an edge
 * without participating clients fails the round, naming the edge.
 */
public final class HierarchicalFedAvg {
  /** The most edge rounds per cloud round: each one is a pass over the clients. */
  public static final int MAX_EDGE_ROUNDS = 1000;

  private HierarchicalFedAvg() {}

  /**
   * One cloud round, {@code (<<model=M>@SERVER,{D}@CLIENTS> -> <<model=M>@SERVER,
   * <train_loss=float32,num_examples=int64,clients=int64>@SERVER>)}, of {@code edgeRounds} edge
   * rounds, for a client update of type {@code (<model=M,data=D> -> <delta=M,num_examples=int64,
   * loss=float32>)} (as {@link FederatedLearning#next(Computation)} takes). The metrics are the
   * last edge round's: the clients' example-weighted loss, their examples and their number.
   *
   * @throws IllegalArgumentException if the client update has another type or
   *     {@code edgeRounds} is out of range
   */
  public static Computation next(Computation clientUpdate, int edgeRounds) {
    if (edgeRounds < 1 || edgeRounds > MAX_EDGE_ROUNDS) {
      throw new IllegalArgumentException("edge rounds per cloud round must be 1 to "
          + MAX_EDGE_ROUNDS + ", got " + edgeRounds);
    }
    ClientWork w = ClientWork.update(clientUpdate);
    if (ClientWork.weighsLoss(clientUpdate)) {
      throw new IllegalArgumentException("hierarchical FedAvg takes a client update without "
          + "loss_weight, got " + clientUpdate.type());
    }
    Computation one = Federated.computation(clientUpdate.type().result(),
        x -> Federated.constant(Tensor.ofLongs(Shape.scalar(), 1)));
    StructType m = w.model();
    Computation add = add(m);
    Type state = new FederatedType(StructType.named("model", m), Placement.SERVER, true);
    Type data = new FederatedType(w.data(), Placement.CLIENTS, false);
    return Federated.computation(state, data, (s, d) -> {
      Value model = s.get("model");
      EdgeRounds edges = edgeRounds(clientUpdate, model, d, edgeRounds);
      Value out = edges.outputs();
      Value newModel = Intrinsics.federatedApply(add, Intrinsics.federatedZip(Federated.struct(
          model, Intrinsics.federatedWeightedMeanFromEdges(edges.delta(), edges.examples()))));
      Value examples = out.get("num_examples");
      SequencedMap<String, Value> figures = new LinkedHashMap<>();
      figures.put("train_loss", Intrinsics.federatedWeightedMean(out.get("loss"), examples));
      figures.put("num_examples", Intrinsics.federatedSum(examples));
      figures.put("clients", Intrinsics.federatedSum(Intrinsics.federatedMap(one, out)));
      return Federated.struct(
          Intrinsics.federatedZip(FederatedLearning.named("model", newModel)),
          Intrinsics.federatedZip(Federated.struct(figures)));
    });
  }

  /**
   * What the edges hold after a cloud round's edge rounds: each edge's update to the server's
   * model, {@code {M}@EDGES}; the examples of its clients in the last edge round, {@code
   * {int64}@EDGES}; and the clients' outputs of the last edge round, at CLIENTS.
   */
  public record EdgeRounds(Value delta, Value examples, Value outputs) {}

  /**
   * The edges' part of a cloud round, traced inside a federated computation: k2 times, each
   * client trains from its edge's model, and each edge takes its clients' example-weighted mean
   * delta ({@code federated_weighted_mean_to_edges}); an edge's update is the first edge round's
   * mean delta plus each later one's ({@code generic_plus} at EDGES, in float32 as the model),
   * and its model is the server's model plus its update so far. With k2 = 1 the update is the
   * edge's mean delta itself, so the cloud round is FedAvg's with the weighted mean taken through
   * the edges.
   *
   * <p>A relay ({@code io.tributary.flower.relay}) runs this over its own clients as one edge and
   * reports the edge's update and examples; the server adds their weighted mean to its model, as
   * {@link #next} does with {@code federated_weighted_mean_from_edges}. Since each edge's
   * aggregate depends on its own clients only ({@code Edges}), the deployment has the
   * simulation's bits.
   *
   * @param clientUpdate {@code (<model=M,data=D> -> <delta=M,num_examples=int64,...>)}
   * @param model the server's model, {@code M@SERVER}
   * @param data the clients' data, {@code {D}@CLIENTS}
   * @param edgeRounds k2, 1 to {@link #MAX_EDGE_ROUNDS}
   * @throws IllegalArgumentException if the client update has another type or {@code
   *     edgeRounds} is out of range
   */
  public static EdgeRounds edgeRounds(Computation clientUpdate, Value model, Value data,
      int edgeRounds) {
    if (edgeRounds < 1 || edgeRounds > MAX_EDGE_ROUNDS) {
      throw new IllegalArgumentException("edge rounds per cloud round must be 1 to "
          + MAX_EDGE_ROUNDS + ", got " + edgeRounds);
    }
    Computation add = add(ClientWork.update(clientUpdate).model());
    Value serverModel = Intrinsics.federatedBroadcastToEdges(model);
    Value edgeModel = serverModel;
    Value edgeDelta = null;
    Value out = null;
    Value edgeExamples = null;
    for (int k = 0; k < edgeRounds; k++) {
      Value clientModel = Intrinsics.federatedBroadcastFromEdges(edgeModel);
      out = Intrinsics.federatedMap(clientUpdate, Federated.struct(clientModel, data));
      Value mean = Intrinsics.federatedWeightedMeanToEdges(out.get("delta"),
          out.get("num_examples"));
      edgeDelta = edgeDelta == null ? mean
          : Intrinsics.federatedMap(add, Federated.struct(edgeDelta, mean));
      edgeExamples = Intrinsics.federatedSumToEdges(out.get("num_examples"));
      if (k + 1 < edgeRounds) {
        edgeModel = Intrinsics.federatedMap(add, Federated.struct(serverModel, edgeDelta));
      }
    }
    return new EdgeRounds(edgeDelta, edgeExamples, out);
  }

  private static Computation add(StructType m) {
    return Federated.computation(StructType.of(m, m),
        pair -> Intrinsics.genericPlus(pair.get(0), pair.get(1)));
  }
}
