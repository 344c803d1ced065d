package io.tributary.learning;

import io.tributary.core.compiler.GraphComputation;
import io.tributary.core.computation.Computation;
import io.tributary.core.computation.Federated;
import io.tributary.core.computation.Intrinsics;
import io.tributary.core.computation.Value;
import io.tributary.core.types.FederatedType;
import io.tributary.core.types.Placement;
import io.tributary.core.types.StructType;
import io.tributary.core.types.TensorType;
import io.tributary.core.types.Type;
import io.tributary.graph.local.ClientUpdateConfig;
import io.tributary.graph.local.LocalTraining;
import io.tributary.graph.models.Model;
import io.tributary.tensor.DType;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.util.LinkedHashMap;
import java.util.SequencedMap;

/**
 * Builds FedAvg-family processes: broadcast the server model, run the client update on every
 * participating client, average the deltas weighted by example counts and add the average to the
 * server model (server learning rate 1, as in McMahan et al. and Li et al.).
 *
 * <p>The round and evaluation computations take the client's work as an argument, so the same
 * algorithm runs over local graph training (simulation, {@link FedAvg#build}) and over remote
 * clients (the Flower server, whose client update sends a {@code FitIns} and waits for the reply).
 * What a client holds, D, is whatever the client computations take: a dataset {@code B*} in a
 * simulation, a connection handle for remote clients.
 */
public final class FederatedLearning {
  /**
   * The default bound on the example count a client is weighted with, for servers and
   * simulations alike ({@code RuntimeOptions.withMaxWeight}): 10^9, far above any one device's
   * data, and small enough that a million clients' counts sum exactly in a double and in an
   * int64.
   */
  public static final long DEFAULT_MAX_EXAMPLES_PER_CLIENT = 1_000_000_000L;

  private static final TensorType FLOAT32 = TensorType.of(DType.FLOAT32);

  private FederatedLearning() {}

  static LearningProcess build(String name, Model model, ClientUpdateConfig config, long seed) {
    GraphComputation initial = LocalTraining.initialModel("initial_model", model, seed);
    GraphComputation update = LocalTraining.clientUpdate("client_update", model, config);
    GraphComputation eval = LocalTraining.evaluation("evaluate", model);
    Computation initialState = Federated.computation(
        () -> named("model", Computation.of(initial).call()));
    Computation initialize = Federated.computation(
        () -> Intrinsics.federatedEval(initialState, Placement.SERVER));
    return process(name, initialize, Computation.of(update), Computation.of(eval));
  }

  /**
   * A process from its three parts; {@code initialize} must give {@code <model=M>@SERVER}.
   *
   * @throws IllegalArgumentException if a part does not have the shape {@link #next} and
   *     {@link #evaluate} describe, or the parts disagree on M
   */
  public static LearningProcess process(String name, Computation initialize,
      Computation clientUpdate, Computation evaluation) {
    Computation next = next(clientUpdate);
    Computation evaluate = evaluate(evaluation);
    Type state = next.type().result() instanceof StructType r ? r.get(0) : null;
    if (!initialize.type().parameter().isEmpty() || !initialize.type().result().equals(state)) {
      throw new IllegalArgumentException("initialize must have type ( -> " + state
          + "), got " + initialize.type());
    }
    return new LearningProcess(name, initialize, next, evaluate);
  }

  /**
   * One round, {@code (<<model=M>@SERVER,{D}@CLIENTS> -> <<model=M>@SERVER,
   * <train_loss=float32,num_examples=int64,clients=int64>@SERVER>)}, for a client update of type
   * {@code (<model=M,data=D> -> <delta=M,num_examples=int64,loss=float32>)} or {@code
   * (<model=M,data=D> -> <delta=M,num_examples=int64,loss=float32,loss_weight=float32>)}.
   *
   * <p>With three elements, {@code train_loss} is the clients' losses averaged weighted by
   * {@code num_examples}. With {@code loss_weight}, the weight each client's loss gets (0 for a
   * client that has no loss to report, such as a Flower client whose FitRes has no {@code loss}
   * metric), it is {@code generic_divide(federated_sum(loss * loss_weight),
   * federated_sum(loss_weight))}: the mean over the clients with a weight, and NaN (0/0 in
   * float32) when no client has one. The updates are averaged weighted by {@code num_examples}
   * either way.
   *
   * @throws IllegalArgumentException if the client update has another type
   */
  public static Computation next(Computation clientUpdate) {
    ClientWork w = ClientWork.update(clientUpdate);
    StructType m = w.model();
    Computation add = Federated.computation(StructType.of(m, m),
        pair -> Intrinsics.genericPlus(pair.get(0), pair.get(1)));
    Computation one = Federated.computation(clientUpdate.type().result(),
        x -> Federated.constant(Tensor.ofLongs(Shape.scalar(), 1)));
    Type state = new FederatedType(StructType.named("model", m), Placement.SERVER, true);
    Type data = new FederatedType(w.data(), Placement.CLIENTS, false);
    boolean weighsLoss = ClientWork.weighsLoss(clientUpdate);
    Computation lossTimesWeight = weighsLoss ? Federated.computation(
        clientUpdate.type().result(),
        x -> Intrinsics.genericMultiply(x.get("loss"), x.get("loss_weight"))) : null;
    Computation divide = weighsLoss ? Federated.computation(StructType.of(FLOAT32, FLOAT32),
        pair -> Intrinsics.genericDivide(pair.get(0), pair.get(1))) : null;

    return Federated.computation(state, data, (s, d) -> {
      Value serverModel = s.get("model");
      Value clientModel = Intrinsics.federatedBroadcast(serverModel);
      Value out = Intrinsics.federatedMap(clientUpdate, Federated.struct(clientModel, d));
      Value examples = out.get("num_examples");
      Value delta = Intrinsics.federatedWeightedMean(out.get("delta"), examples);
      Value newModel = Intrinsics.federatedApply(add,
          Intrinsics.federatedZip(Federated.struct(serverModel, delta)));
      Value trainLoss = weighsLoss ? weightedLoss(out, lossTimesWeight, divide)
          : Intrinsics.federatedWeightedMean(out.get("loss"), examples);
      Value total = Intrinsics.federatedSum(examples);
      Value clients = Intrinsics.federatedSum(Intrinsics.federatedMap(one, out));
      Value newState = Intrinsics.federatedZip(named("model", newModel));
      Value metrics = Intrinsics.federatedZip(named("train_loss", trainLoss,
          "num_examples", total, "clients", clients));
      return Federated.struct(newState, metrics);
    });
  }

  /**
   * {@code sum(loss * loss_weight) / sum(loss_weight)} at the server, NaN when every weight is 0;
   * intrinsics only, so the round stays one serializable computation.
   */
  private static Value weightedLoss(Value out, Computation lossTimesWeight, Computation divide) {
    Value weighted = Intrinsics.federatedSum(Intrinsics.federatedMap(lossTimesWeight, out));
    Value weights = Intrinsics.federatedSum(out.get("loss_weight"));
    return Intrinsics.federatedApply(divide,
        Intrinsics.federatedZip(Federated.struct(weighted, weights)));
  }

  /**
   * Evaluation of a server model on the clients, {@code (<M@SERVER,{D}@CLIENTS> -> E@SERVER)},
   * for a client evaluation of type {@code (<model=M,data=D> -> <...,num_examples=int64,...>)}:
   * E has the evaluation's elements in order, {@code num_examples} summed and every other
   * (floating) element averaged weighted by {@code num_examples}.
   *
   * @throws IllegalArgumentException if the evaluation has another type
   */
  public static Computation evaluate(Computation evaluation) {
    ClientWork w = ClientWork.evaluation(evaluation);
    StructType result = (StructType) evaluation.type().result();
    Type serverModelType = new FederatedType(w.model(), Placement.SERVER, true);
    Type data = new FederatedType(w.data(), Placement.CLIENTS, false);
    return Federated.computation(serverModelType, data, (sm, d) -> {
      Value out = Intrinsics.federatedMap(evaluation,
          Federated.struct(Intrinsics.federatedBroadcast(sm), d));
      Value examples = out.get("num_examples");
      SequencedMap<String, Value> metrics = new LinkedHashMap<>();
      for (StructType.Element e : result.elements()) {
        String n = e.name().orElseThrow();
        metrics.put(n, n.equals("num_examples") ? Intrinsics.federatedSum(examples)
            : Intrinsics.federatedWeightedMean(out.get(n), examples));
      }
      return Intrinsics.federatedZip(Federated.struct(metrics));
    });
  }

  static Value named(Object... nameValuePairs) {
    SequencedMap<String, Value> m = new LinkedHashMap<>();
    for (int i = 0; i < nameValuePairs.length; i += 2) {
      m.put((String) nameValuePairs[i], (Value) nameValuePairs[i + 1]);
    }
    return Federated.struct(m);
  }
}
