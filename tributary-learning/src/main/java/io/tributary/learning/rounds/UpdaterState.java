package io.tributary.learning.rounds;

import io.tributary.core.values.StructValue;
import io.tributary.learning.ModelLeaves;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A server optimizer's state taken out of the server state, in the form a checkpoint stores it
 * (ADR-0001's updater state): for each model tensor, in the model's depth-first order, its
 * state slots ({@code [m, v]} for FedAdam), and the rounds the optimizer has stepped.
 *
 * @param round the optimizer's step count (FedAdam's bias correction reads it)
 * @param slots the state slots' names, such as {@code [m, v]}
 * @param perTensor for each model tensor, one tensor per slot, in slot order
 */
public record UpdaterState(long round, List<String> slots, List<List<Tensor>> perTensor) {
  /**
   * Copies the lists.
   *
   * @throws IllegalArgumentException when a tensor's slot list has another length than slots, or
   *     the round is negative
   */
  public UpdaterState {
    slots = List.copyOf(slots);
    perTensor = List.copyOf(perTensor.stream().map(List::copyOf).toList());
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

  /**
   * The optimizer state of a server state {@code <model=M,optimizer=<round=int64,...>,...>}, or
   * empty when the algorithm keeps none.
   */
  public static Optional<UpdaterState> of(StructValue serverState) {
    int at = serverState.names().indexOf(Optional.of("optimizer"));
    if (at < 0) {
      return Optional.empty();
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
    return Optional.of(new UpdaterState(o.tensor(0).longItem(), slots, perTensor));
  }

  /**
   * {@code serverState} with its optimizer state replaced by this one.
   *
   * @throws IllegalArgumentException when the server state has no optimizer state, or this one
   *     does not fit it (other slots, another number of tensors, another dtype or shape)
   */
  public StructValue applyTo(StructValue serverState) {
    int at = serverState.names().indexOf(Optional.of("optimizer"));
    if (at < 0) {
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
