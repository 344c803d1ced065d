package io.tributary.learning;

import io.tributary.core.compiler.GraphComputation;
import io.tributary.core.computation.Computation;
import io.tributary.core.computation.Federated;
import io.tributary.core.computation.Intrinsics;
import io.tributary.core.computation.Value;
import io.tributary.core.types.FederatedType;
import io.tributary.core.types.Placement;
import io.tributary.core.types.SequenceType;
import io.tributary.core.types.StructType;
import io.tributary.core.types.Type;
import io.tributary.graph.local.ClientUpdateConfig;
import io.tributary.graph.local.LocalTraining;
import io.tributary.graph.models.Model;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.util.LinkedHashMap;
import java.util.SequencedMap;

/**
 * Builds FedAvg-family processes: broadcast the server model, run the client update on every
 * participating client, average the deltas weighted by example counts and add the average to the
 * server model (server learning rate 1, as in McMahan et al. and Li et al.).
 */
final class FederatedLearning {
  private FederatedLearning() {}

  static LearningProcess build(String name, Model model, ClientUpdateConfig config, long seed) {
    StructType m = LocalTraining.modelType(model);
    StructType batch = LocalTraining.batchType(model);
    GraphComputation initial = LocalTraining.initialModel("initial_model", model, seed);
    GraphComputation update = LocalTraining.clientUpdate("client_update", model, config);
    GraphComputation eval = LocalTraining.evaluation("evaluate", model);

    Computation initialState = Federated.computation(
        () -> named("model", Computation.of(initial).call()));
    Computation initialize = Federated.computation(
        () -> Intrinsics.federatedEval(initialState, Placement.SERVER));

    Computation add = Federated.computation(StructType.of(m, m),
        pair -> Intrinsics.genericPlus(pair.get(0), pair.get(1)));
    Computation one = Federated.computation(update.type().result(),
        x -> Federated.constant(Tensor.ofLongs(Shape.scalar(), 1)));
    Type state = new FederatedType(StructType.named("model", m), Placement.SERVER, true);
    Type data = new FederatedType(new SequenceType(batch), Placement.CLIENTS, false);

    Computation next = Federated.computation(state, data, (s, d) -> {
      Value serverModel = s.get("model");
      Value clientModel = Intrinsics.federatedBroadcast(serverModel);
      Value out = Intrinsics.federatedMap(Computation.of(update),
          Federated.struct(clientModel, d));
      Value examples = out.get("num_examples");
      Value delta = Intrinsics.federatedWeightedMean(out.get("delta"), examples);
      Value newModel = Intrinsics.federatedApply(add,
          Intrinsics.federatedZip(Federated.struct(serverModel, delta)));
      Value trainLoss = Intrinsics.federatedWeightedMean(out.get("loss"), examples);
      Value total = Intrinsics.federatedSum(examples);
      Value clients = Intrinsics.federatedSum(Intrinsics.federatedMap(one, out));
      Value newState = Intrinsics.federatedZip(named("model", newModel));
      Value metrics = Intrinsics.federatedZip(named("train_loss", trainLoss,
          "num_examples", total, "clients", clients));
      return Federated.struct(newState, metrics);
    });

    Type serverModelType = new FederatedType(m, Placement.SERVER, true);
    Computation evaluate = Federated.computation(serverModelType, data, (sm, d) -> {
      Value out = Intrinsics.federatedMap(Computation.of(eval),
          Federated.struct(Intrinsics.federatedBroadcast(sm), d));
      Value examples = out.get("num_examples");
      return Intrinsics.federatedZip(named(
          "loss", Intrinsics.federatedWeightedMean(out.get("loss"), examples),
          "accuracy", Intrinsics.federatedWeightedMean(out.get("accuracy"), examples),
          "num_examples", Intrinsics.federatedSum(examples)));
    });
    return new LearningProcess(name, initialize, next, evaluate);
  }

  private static Value named(Object... nameValuePairs) {
    SequencedMap<String, Value> m = new LinkedHashMap<>();
    for (int i = 0; i < nameValuePairs.length; i += 2) {
      m.put((String) nameValuePairs[i], (Value) nameValuePairs[i + 1]);
    }
    return Federated.struct(m);
  }
}
