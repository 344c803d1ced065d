package io.tributary.learning.serveropt;

import io.tributary.core.computation.Computation;
import io.tributary.core.computation.Federated;
import io.tributary.core.types.FunctionType;
import io.tributary.core.types.StructType;
import io.tributary.core.types.TensorType;
import io.tributary.core.types.Type;
import io.tributary.core.values.StructValue;
import io.tributary.learning.ModelLeaves;
import io.tributary.tensor.DType;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A {@link ServerOptimizer} as the local computations a round runs on the server, for a model of
 * type M.
 *
 * <p>A stateful optimizer's state O is {@code <round=int64,slot1=M,...>}: the rounds it has
 * stepped (FedAdam's bias correction counts them, as Flower's {@code server_round}) and one model
 * shaped tensor struct per {@link ServerOptimizer#stateSlots slot}. {@link #step} then has type
 * {@code (<model=M,update=M,state=O> -> <model=M,state=O>)}; without state it has type
 * {@code (<model=M,update=M> -> M)}.
 *
 * @param optimizer the optimizer
 * @param model M
 */
public record ServerUpdate(ServerOptimizer optimizer, StructType model) {
  private static final TensorType INT64 = TensorType.of(DType.INT64);

  /** Whether the server state carries this optimizer's state. */
  public boolean stateful() {
    return !optimizer.stateSlots().isEmpty();
  }

  /** O, the optimizer's state type, when {@link #stateful}. */
  public Optional<StructType> stateType() {
    if (!stateful()) {
      return Optional.empty();
    }
    List<Object> pairs = new ArrayList<>(List.of("round", INT64));
    for (String slot : optimizer.stateSlots()) {
      pairs.add(slot);
      pairs.add(model);
    }
    return Optional.of(StructType.named(pairs.toArray()));
  }

  /** {@code ( -> O)}: round 0 and the optimizer's initial state, when {@link #stateful}. */
  public Optional<Computation> initialize() {
    return stateType().map(type -> Federated.local(optimizer.name() + "_initial_state",
        FunctionType.noParameter(type), x -> state(0, optimizer.initialState(zeros(model)))));
  }

  /** The local computation of one step, of the type given above. */
  public Computation step() {
    Optional<StructType> o = stateType();
    if (o.isEmpty()) {
      return Federated.local(optimizer.name() + "_step",
          FunctionType.of(StructType.named("model", model, "update", model), model), x -> {
            StructValue a = (StructValue) x;
            ServerOptimizer.Step s = optimizer.apply(1, ModelLeaves.of(a.get(0)),
                ModelLeaves.of(a.get(1)), List.of());
            return ModelLeaves.rebuild(model, s.model());
          });
    }
    StructType type = o.get();
    return Federated.local(optimizer.name() + "_step", FunctionType.of(
        StructType.named("model", model, "update", model, "state", type),
        StructType.named("model", model, "state", type)), x -> {
          StructValue a = (StructValue) x;
          StructValue st = a.struct(2);
          long round = st.tensor(0).longItem() + 1;
          List<Tensor> flat = new ArrayList<>();
          for (int i = 1; i < st.size(); i++) {
            flat.addAll(ModelLeaves.of(st.get(i)));
          }
          ServerOptimizer.Step s = optimizer.apply(Math.toIntExact(round),
              ModelLeaves.of(a.get(0)), ModelLeaves.of(a.get(1)), flat);
          return StructValue.named("model", ModelLeaves.rebuild(model, s.model()), "state",
              state(round, s.state()));
        });
  }

  private StructValue state(long round, List<Tensor> flat) {
    List<String> slots = optimizer.stateSlots();
    int layers = flat.size() / slots.size();
    if (layers * slots.size() != flat.size()) {
      throw new IllegalStateException(optimizer.name() + " state has " + flat.size()
          + " tensors, not a multiple of its " + slots.size() + " slots");
    }
    List<Object> pairs = new ArrayList<>(List.of("round", Tensor.ofLongs(Shape.scalar(), round)));
    for (int i = 0; i < slots.size(); i++) {
      pairs.add(slots.get(i));
      pairs.add(ModelLeaves.rebuild(model, flat.subList(i * layers, (i + 1) * layers)));
    }
    return StructValue.named(pairs.toArray());
  }

  private static List<Tensor> zeros(Type type) {
    List<Tensor> out = new ArrayList<>();
    collectZeros(type, out);
    return out;
  }

  private static void collectZeros(Type type, List<Tensor> out) {
    if (type instanceof StructType s) {
      for (int i = 0; i < s.size(); i++) {
        collectZeros(s.get(i), out);
      }
    } else if (type instanceof TensorType t && t.isFullyDefined()) {
      long[] dims = t.dims().stream().mapToLong(Long::longValue).toArray();
      out.add(Tensor.zeros(t.dtype(), Shape.of(dims)));
    } else {
      throw new IllegalArgumentException("a server optimizer needs a model of fully defined "
          + "tensors, not " + type);
    }
  }
}
