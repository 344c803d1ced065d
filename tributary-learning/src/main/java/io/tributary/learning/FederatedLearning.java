package io.tributary.learning;

import io.tributary.core.computation.Computation;
import io.tributary.core.computation.Federated;
import io.tributary.core.computation.Intrinsics;
import io.tributary.core.computation.Value;
import io.tributary.core.types.FederatedType;
import io.tributary.core.types.Placement;
import io.tributary.core.types.StructType;
import io.tributary.core.types.TensorType;
import io.tributary.core.types.Type;
import io.tributary.learning.aggregation.AggregationProcess;
import io.tributary.learning.aggregation.ClientSignal;
import io.tributary.learning.aggregation.WeightedMean;
import io.tributary.learning.serveropt.ServerSgd;
import io.tributary.learning.serveropt.ServerUpdate;
import io.tributary.tensor.DType;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SequencedMap;

/**
 * The computations {@link FederatedAlgorithm#process} builds a {@link LearningProcess} from, for
 * a binding that builds its own client work (the Flower server, its relays, tiered privacy):
 * FedAvg-family processes broadcast the server model, run the client update on every
 * participating client, average the deltas weighted by example counts and add the average to the
 * server model (server learning rate 1, as in McMahan et al. and Li et al.).
 *
 * <p>The round and evaluation computations take the client's work as an argument, so the same
 * algorithm runs over local graph training (simulation, {@code
 * io.tributary.learning.graph.GraphLearning.build}) and
 * over remote clients (the Flower server, whose client update sends a {@code FitIns} and waits
 * for the reply).
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

  /**
   * A FedAvg process from its client work; {@code initialize} must give {@code <model=M>@SERVER}.
   *
   * @throws IllegalArgumentException if a part does not have the shape {@link #next} and
   *     {@link #evaluate} describe, or the parts disagree on M
   */
  public static LearningProcess process(String name, Computation initialize,
      Computation clientUpdate, Computation evaluation) {
    return process(FederatedAlgorithm.fedAvg().withName(name), initialize, clientUpdate,
        evaluation);
  }

  static LearningProcess process(FederatedAlgorithm algorithm, Computation initialize,
      Computation clientUpdate, Computation evaluation) {
    ClientWork w = ClientWork.update(clientUpdate);
    Type modelState = new FederatedType(StructType.named("model", w.model()), Placement.SERVER,
        true);
    if (!initialize.type().parameter().isEmpty()
        || !initialize.type().result().equals(modelState)) {
      throw new IllegalArgumentException("initialize must have type ( -> " + modelState
          + "), got " + initialize.type());
    }
    if (algorithm.topology() instanceof Topology.Hierarchical h) {
      // Liu et al.'s HierFAVG: weighted means at the edges and at the server, nothing else.
      if (!(algorithm.aggregator() instanceof WeightedMean)
          || !(algorithm.serverOptimizer() instanceof ServerSgd sgd && sgd.isPlainAverage())) {
        throw new IllegalArgumentException(algorithm.name() + ": aggregation through edges "
            + "takes the example-weighted mean and the plain server step, got "
            + algorithm.aggregator().name() + " and " + algorithm.serverOptimizer()
            + " (a private aggregation per edge is io.tributary.privacy's TieredDp)");
      }
      return new LearningProcess(algorithm.name(), initialize,
          HierarchicalFedAvg.next(clientUpdate, h.edgeRounds()), evaluate(evaluation));
    }
    Parts parts = new Parts(w.model(), algorithm);
    Computation next = next(clientUpdate, parts);
    Computation evaluate = evaluate(evaluation);
    Computation fullInitialize = parts.stateful() ? Federated.computation(() -> {
      Value model = initialize.call().get("model");
      SequencedMap<String, Value> s = new LinkedHashMap<>();
      s.put("model", model);
      parts.optimizer.initialize().ifPresent(
          o -> s.put("optimizer", Intrinsics.federatedEval(o, Placement.SERVER)));
      parts.aggregation.initialize().ifPresent(a -> s.put("aggregator", a.call()));
      return Intrinsics.federatedZip(Federated.struct(s));
    }) : initialize;
    return new LearningProcess(algorithm.name(), fullInitialize, next, evaluate);
  }

  /** The aggregator's and the server optimizer's computations for one model type. */
  private static final class Parts {
    final AggregationProcess aggregation;
    final ServerUpdate optimizer;
    final boolean plainSum;

    Parts(StructType model, FederatedAlgorithm algorithm) {
      this.aggregation = algorithm.aggregator().create(model);
      this.optimizer = new ServerUpdate(algorithm.serverOptimizer(), model);
      this.plainSum = algorithm.serverOptimizer() instanceof ServerSgd sgd
          && sgd.isPlainAverage();
    }

    boolean stateful() {
      return optimizer.stateful() || aggregation.initialize().isPresent();
    }
  }

  /**
   * One FedAvg round, {@code (<<model=M>@SERVER,{D}@CLIENTS> -> <<model=M>@SERVER,
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
    return next(clientUpdate, FederatedAlgorithm.fedAvg());
  }

  /**
   * One round of {@code algorithm}, {@code (<S@SERVER,{D}@CLIENTS> -> <S@SERVER,
   * <train_loss=float32,num_examples=int64,clients=int64>@SERVER>)}: the clients' updates are
   * aggregated by the algorithm's aggregator and applied by its server optimizer; S is described
   * in {@link FederatedAlgorithm}. When a stateful aggregator's state is a named struct with a
   * {@code metrics} struct, that struct's elements follow {@code clients} in the round's metrics
   * (see {@link io.tributary.learning.aggregation.Aggregator}).
   *
   * @throws IllegalArgumentException if the client update has another type
   */
  public static Computation next(Computation clientUpdate, FederatedAlgorithm algorithm) {
    return next(clientUpdate, new Parts(ClientWork.update(clientUpdate).model(), algorithm));
  }

  private static Computation next(Computation clientUpdate, Parts parts) {
    ClientWork w = ClientWork.update(clientUpdate);
    StructType m = w.model();
    Computation add = Federated.computation(StructType.of(m, m),
        pair -> Intrinsics.genericPlus(pair.get(0), pair.get(1)));
    Computation one = Federated.computation(clientUpdate.type().result(),
        x -> Federated.constant(Tensor.ofLongs(Shape.scalar(), 1)));
    SequencedMap<String, Type> stateTypes = new LinkedHashMap<>();
    stateTypes.put("model", m);
    parts.optimizer.stateType().ifPresent(o -> stateTypes.put("optimizer", o));
    parts.aggregation.initialize().ifPresent(a -> stateTypes.put("aggregator",
        ((FederatedType) a.type().result()).member()));
    List<Object> pairs = new ArrayList<>();
    stateTypes.forEach((k, v) -> {
      pairs.add(k);
      pairs.add(v);
    });
    Type state = new FederatedType(StructType.named(pairs.toArray()), Placement.SERVER, true);
    Type data = new FederatedType(w.data(), Placement.CLIENTS, false);
    boolean weighsLoss = ClientWork.weighsLoss(clientUpdate);
    // What the aggregation takes after the example counts: the clients' losses (q-FedAvg) or
    // their norm bits (client-side adaptive clipping on a server).
    java.util.Optional<String> extra = parts.aggregation.signal().map(ClientSignal::field);
    if (parts.aggregation.signal().equals(java.util.Optional.of(ClientSignal.NORM_BIT))
        && !ClientWork.reportsNormBit(clientUpdate)) {
      throw new IllegalArgumentException("the aggregator counts the clients' norm_bit, but the "
          + "client update " + clientUpdate.type() + " reports none");
    }
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
      SequencedMap<String, Value> newState = new LinkedHashMap<>();
      Value delta;
      Value aggregatorState = null;
      if (parts.aggregation.initialize().isPresent()) {
        Value r = extra.isPresent()
            ? parts.aggregation.next().call(s.get("aggregator"), out.get("delta"), examples,
                out.get(extra.get()))
            : parts.aggregation.next().call(s.get("aggregator"), out.get("delta"), examples);
        delta = r.get(1);
        aggregatorState = r.get(0);
        newState.put("aggregator", aggregatorState);
      } else if (extra.isEmpty()) {
        // A weighted mean is inlined: FedAvg's round reads as one federated_weighted_mean.
        delta = parts.aggregation.aggregate(out.get("delta"), examples);
      } else {
        delta = extra.isPresent()
            ? parts.aggregation.next().call(out.get("delta"), examples, out.get(extra.get()))
            : parts.aggregation.next().call(out.get("delta"), examples);
      }
      Value newModel;
      if (parts.optimizer.stateful()) {
        Value r = Intrinsics.federatedApply(parts.optimizer.step(), Intrinsics.federatedZip(
            named("model", serverModel, "update", delta, "state", s.get("optimizer"))));
        newModel = r.get("model");
        newState.putFirst("optimizer", r.get("state"));
      } else if (parts.plainSum) {
        newModel = Intrinsics.federatedApply(add,
            Intrinsics.federatedZip(Federated.struct(serverModel, delta)));
      } else {
        newModel = Intrinsics.federatedApply(parts.optimizer.step(),
            Intrinsics.federatedZip(named("model", serverModel, "update", delta)));
      }
      newState.putFirst("model", newModel);
      Value trainLoss = weighsLoss ? weightedLoss(out, lossTimesWeight, divide)
          : Intrinsics.federatedWeightedMean(out.get("loss"), examples);
      Value total = Intrinsics.federatedSum(examples);
      Value clients = Intrinsics.federatedSum(Intrinsics.federatedMap(one, out));
      SequencedMap<String, Value> figures = new LinkedHashMap<>();
      figures.put("train_loss", trainLoss);
      figures.put("num_examples", total);
      figures.put("clients", clients);
      for (String name : aggregatorMetricNames(parts)) {
        figures.putIfAbsent(name, aggregatorState.get("metrics").get(name));
      }
      Value metrics = Intrinsics.federatedZip(Federated.struct(figures));
      return Federated.struct(Intrinsics.federatedZip(Federated.struct(newState)), metrics);
    });
  }

  /**
   * The names of the figures a stateful aggregator reports each round: the elements of the
   * {@code metrics} struct of its state A, when A is a named struct that has one (the clipping
   * norm a private aggregator used, say); they are added to the round's metrics after the three
   * every round reports.
   */
  private static List<String> aggregatorMetricNames(Parts parts) {
    List<String> names = new ArrayList<>();
    parts.aggregation.initialize().ifPresent(a -> {
      if (((FederatedType) a.type().result()).member() instanceof StructType st
          && st.indexOf("metrics") >= 0 && st.get(st.indexOf("metrics")) instanceof StructType m) {
        for (StructType.Element e : m.elements()) {
          e.name().ifPresent(names::add);
        }
      }
    });
    return names;
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
    return evaluate(evaluation, Map.of());
  }

  /**
   * {@link #evaluate(Computation)} with some elements aggregated otherwise than by the weighted
   * mean: {@code how} maps an element's name to its {@link MetricAggregation}, each one intrinsic
   * ({@code federated_weighted_mean}, {@code federated_mean}, {@code federated_sum}, {@code
   * federated_min}, {@code federated_max}); elements not named keep the weighted mean, and
   * {@code num_examples} is always summed.
   *
   * @throws IllegalArgumentException if the evaluation has another type, or {@code how} names an
   *     element it does not have
   */
  public static Computation evaluate(Computation evaluation, Map<String, MetricAggregation> how) {
    ClientWork w = ClientWork.evaluation(evaluation);
    StructType result = (StructType) evaluation.type().result();
    for (String name : new java.util.TreeSet<>(how.keySet())) {
      if (result.indexOf(name) < 0 || name.equals("num_examples")) {
        throw new IllegalArgumentException("the evaluation " + result + " has no metric '"
            + name + "' to aggregate");
      }
    }
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
            : switch (how.getOrDefault(n, MetricAggregation.WEIGHTED_MEAN)) {
              case WEIGHTED_MEAN -> Intrinsics.federatedWeightedMean(out.get(n), examples);
              case MEAN -> Intrinsics.federatedMean(out.get(n));
              case SUM -> Intrinsics.federatedSum(out.get(n));
              case MIN -> Intrinsics.federatedMin(out.get(n));
              case MAX -> Intrinsics.federatedMax(out.get(n));
            });
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
