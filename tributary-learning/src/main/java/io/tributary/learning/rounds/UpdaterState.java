package io.tributary.learning.rounds;

import io.tributary.core.types.StructType;
import io.tributary.core.types.TensorType;
import io.tributary.core.types.Type;
import io.tributary.core.values.StructValue;
import io.tributary.learning.ModelLeaves;
import io.tributary.tensor.DType;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Optional;
import java.util.SequencedMap;

/**
 * The server state besides the model, taken out of it in the form a checkpoint stores it: a
 * server optimizer's state (ADR-0001's updater state: for each model tensor, in the model's
 * depth-first order, its state slots, {@code [m, v]} for FedAdam, and the rounds the optimizer
 * has stepped) and a stateful aggregator's state (a private aggregator's round and clipping
 * norm), each tensor of it by its path in the aggregator's state struct.
 *
 * <p>An algorithm without a server optimizer has no slots and round 0; one whose aggregator keeps
 * no state has an empty {@code aggregator}.
 *
 * @param round the optimizer's step count (FedAdam's bias correction reads it)
 * @param slots the state slots' names, such as {@code [m, v]}; empty without a stateful server
 *     optimizer
 * @param perTensor for each model tensor, one tensor per slot, in slot order
 * @param aggregator the aggregator's state, its tensors in depth-first order by path ({@code
 *     round}, {@code clip_norm}, {@code metrics/clip_norm}, ...; an unnamed element is named by
 *     its index); empty when the aggregator keeps none
 */
public record UpdaterState(long round, List<String> slots, List<List<Tensor>> perTensor,
    SequencedMap<String, Tensor> aggregator) {
  /**
   * Copies the lists.
   *
   * @throws IllegalArgumentException when a tensor's slot list has another length than slots, or
   *     the round is negative
   */
  public UpdaterState {
    slots = List.copyOf(slots);
    perTensor = List.copyOf(perTensor.stream().map(List::copyOf).toList());
    aggregator = Collections.unmodifiableSequencedMap(new LinkedHashMap<>(aggregator));
    if (round < 0) {
      throw new IllegalArgumentException("optimizer round must be >= 0, got " + round);
    }
    for (int i = 0; i < perTensor.size(); i++) {
      if (perTensor.get(i).size() != slots.size()) {
        throw new IllegalArgumentException("model tensor " + i + " has "
            + perTensor.get(i).size() + " updater state arrays, the optimizer has "
            + slots.size() + " slots " + slots);
      }
    }
  }

  /** A server optimizer's state, with no aggregator state. */
  public UpdaterState(long round, List<String> slots, List<List<Tensor>> perTensor) {
    this(round, slots, perTensor, new LinkedHashMap<>());
  }

  /**
   * The optimizer and aggregator state of a server state {@code <model=M,optimizer=<round=int64,
   * ...>,aggregator=A>}, or empty when the algorithm keeps neither.
   */
  public static Optional<UpdaterState> of(StructValue serverState) {
    int at = serverState.names().indexOf(Optional.of("optimizer"));
    int agg = serverState.names().indexOf(Optional.of("aggregator"));
    SequencedMap<String, Tensor> aggregator = new LinkedHashMap<>();
    if (agg >= 0 && !flatten("", serverState.get(agg), aggregator)) {
      // A state checkpoints cannot hold (a sequence, strings) is left out: resuming such a run
      // is refused by checkAggregator, naming it.
      aggregator.clear();
    }
    if (at < 0) {
      return agg < 0 ? Optional.empty()
          : Optional.of(new UpdaterState(0, List.of(), List.of(), aggregator));
    }
    StructValue o = serverState.struct(at);
    List<String> slots = new ArrayList<>();
    List<List<Tensor>> bySlot = new ArrayList<>();
    for (int i = 1; i < o.size(); i++) {
      slots.add(o.names().get(i).orElseThrow());
      bySlot.add(ModelLeaves.of(o.get(i)));
    }
    List<List<Tensor>> perTensor = new ArrayList<>();
    int tensors = bySlot.isEmpty() ? 0 : bySlot.get(0).size();
    for (int t = 0; t < tensors; t++) {
      List<Tensor> s = new ArrayList<>();
      for (List<Tensor> slot : bySlot) {
        s.add(slot.get(t));
      }
      perTensor.add(s);
    }
    return Optional.of(new UpdaterState(o.tensor(0).longItem(), slots, perTensor, aggregator));
  }

  /**
   * The tensors of {@code value} by path under {@code prefix}, depth first; false when it holds
   * something else than structs of fixed-width tensors.
   */
  private static boolean flatten(String prefix, Object value, SequencedMap<String, Tensor> out) {
    if (value instanceof Tensor t) {
      out.put(prefix, t);
      return t.dtype() != DType.STRING;
    }
    if (!(value instanceof StructValue s)) {
      return false;
    }
    for (int i = 0; i < s.size(); i++) {
      if (!flatten(path(prefix, s.names().get(i), i), s.get(i), out)) {
        return false;
      }
    }
    return true;
  }

  private static String path(String prefix, Optional<String> name, int index) {
    String n = name.orElse(Integer.toString(index));
    return prefix.isEmpty() ? n : prefix + "/" + n;
  }

  /** The tensor types of {@code type} by path under {@code prefix}, depth first. */
  private static void flatten(String prefix, Type type, SequencedMap<String, TensorType> out) {
    if (type instanceof TensorType t && t.dtype() != DType.STRING) {
      out.put(prefix, t);
      return;
    }
    if (!(type instanceof StructType s)) {
      throw new IllegalArgumentException("the aggregator's state holds a " + type
          + ", which checkpoints cannot hold");
    }
    for (int i = 0; i < s.size(); i++) {
      flatten(path(prefix, s.elements().get(i).name(), i), s.get(i), out);
    }
  }

  /**
   * Checks that this state's aggregator part fits an aggregator whose state has type {@code
   * stateType} (empty for an aggregator that keeps none), before anything is run.
   *
   * @throws IllegalArgumentException when the aggregator keeps state this one lacks, or keeps
   *     none and this one has some, or their tensors differ in path, dtype or shape
   */
  public void checkAggregator(Optional<Type> stateType) {
    if (stateType.isEmpty()) {
      if (!aggregator.isEmpty()) {
        throw new IllegalArgumentException("the algorithm's aggregator keeps no state, but the "
            + "checkpoint holds some (" + aggregator.keySet() + ")");
      }
      return;
    }
    SequencedMap<String, TensorType> want = new LinkedHashMap<>();
    flatten("", stateType.get(), want);
    if (aggregator.isEmpty()) {
      throw new IllegalArgumentException("the checkpoint holds no state of the algorithm's "
          + "aggregator (" + want.keySet() + ")");
    }
    if (!want.keySet().equals(aggregator.keySet())) {
      throw new IllegalArgumentException("the algorithm's aggregator state has " + want.keySet()
          + ", the checkpoint's " + aggregator.keySet());
    }
    want.forEach((path, t) -> {
      Tensor got = aggregator.get(path);
      boolean fits = got.dtype() == t.dtype() && !t.unknownRank()
          && got.shape().rank() == t.rank();
      for (int d = 0; fits && d < t.rank(); d++) {
        long dim = t.dims().get(d);
        fits = dim == TensorType.UNKNOWN_DIM || dim == got.shape().dim(d);
      }
      if (!fits) {
        throw new IllegalArgumentException("aggregator state " + path + " is " + got.dtype()
            + got.shape() + " in the checkpoint, " + t + " in the algorithm");
      }
    });
  }

  /** {@code template} with its tensors replaced by this state's aggregator tensors. */
  private Object rebuildAggregator(String prefix, Object template) {
    if (template instanceof Tensor like) {
      Tensor got = aggregator.get(prefix);
      if (got == null) {
        throw new IllegalArgumentException("the checkpoint's aggregator state lacks " + prefix
            + " (it has " + aggregator.keySet() + ")");
      }
      if (got.dtype() != like.dtype() || !got.shape().equals(like.shape())) {
        throw new IllegalArgumentException("aggregator state " + prefix + " is " + got.dtype()
            + got.shape() + " in the checkpoint, " + like.dtype() + like.shape()
            + " in the algorithm");
      }
      return got;
    }
    StructValue s = (StructValue) template;
    List<Object> values = new ArrayList<>();
    for (int i = 0; i < s.size(); i++) {
      values.add(rebuildAggregator(path(prefix, s.names().get(i), i), s.get(i)));
    }
    return StructValue.of(s.names(), values);
  }

  /**
   * {@code serverState} with its optimizer and aggregator state replaced by this one's.
   *
   * @throws IllegalArgumentException when the server state has no optimizer state and this one
   *     has slots, or this one does not fit it (other slots, another number of tensors, another
   *     dtype or shape; an aggregator state with other tensors, or missing where the aggregator
   *     keeps state)
   */
  public StructValue applyTo(StructValue serverState) {
    StructValue withOptimizer = applyOptimizer(serverState);
    int agg = withOptimizer.names().indexOf(Optional.of("aggregator"));
    if (agg < 0) {
      if (!aggregator.isEmpty()) {
        throw new IllegalArgumentException("the algorithm's aggregator keeps no state, but the "
            + "checkpoint holds some (" + aggregator.keySet() + ")");
      }
      return withOptimizer;
    }
    if (aggregator.isEmpty()) {
      throw new IllegalArgumentException("the checkpoint holds no state of the algorithm's "
          + "aggregator");
    }
    SequencedMap<String, Tensor> template = new LinkedHashMap<>();
    if (!flatten("", withOptimizer.get(agg), template)) {
      throw new IllegalArgumentException("the algorithm's aggregator state holds values "
          + "checkpoints cannot hold (only structs of fixed-width tensors)");
    }
    if (!template.keySet().equals(aggregator.keySet())) {
      throw new IllegalArgumentException("the algorithm's aggregator state has "
          + template.keySet() + ", the checkpoint's " + aggregator.keySet());
    }
    List<Object> state = new ArrayList<>(withOptimizer.values());
    state.set(agg, rebuildAggregator("", withOptimizer.get(agg)));
    return StructValue.of(withOptimizer.names(), state);
  }

  private StructValue applyOptimizer(StructValue serverState) {
    int at = serverState.names().indexOf(Optional.of("optimizer"));
    if (at < 0) {
      if (slots.isEmpty()) {
        return serverState;
      }
      throw new IllegalArgumentException("the algorithm keeps no optimizer state, but the "
          + "checkpoint holds some (slots " + slots + ")");
    }
    StructValue o = serverState.struct(at);
    List<String> want = new ArrayList<>();
    for (int i = 1; i < o.size(); i++) {
      want.add(o.names().get(i).orElseThrow());
    }
    if (!want.equals(slots)) {
      throw new IllegalArgumentException("the algorithm's optimizer state has slots " + want
          + ", the checkpoint's " + slots);
    }
    List<Object> values = new ArrayList<>();
    values.add(Tensor.ofLongs(Shape.scalar(), round));
    for (int s = 0; s < slots.size(); s++) {
      StructValue template = o.struct(s + 1);
      List<Tensor> like = ModelLeaves.of(template);
      if (like.size() != perTensor.size()) {
        throw new IllegalArgumentException("the model has " + like.size()
            + " tensors, the checkpoint's optimizer state " + perTensor.size());
      }
      List<Tensor> leaves = new ArrayList<>();
      for (int t = 0; t < like.size(); t++) {
        Tensor got = perTensor.get(t).get(s);
        if (got.dtype() != like.get(t).dtype() || !got.shape().equals(like.get(t).shape())) {
          throw new IllegalArgumentException("optimizer state " + slots.get(s) + " of model "
              + "tensor " + t + " is " + got.dtype() + got.shape() + ", the model's is "
              + like.get(t).dtype() + like.get(t).shape());
        }
        leaves.add(got);
      }
      values.add(ModelLeaves.replace(template, leaves));
    }
    List<Object> state = new ArrayList<>(serverState.values());
    state.set(at, StructValue.of(o.names(), values));
    return StructValue.of(serverState.names(), state);
  }
}
