package io.tributary.learning.serveropt;

import io.tributary.tensor.Tensor;
import java.util.List;

/**
 * How the round's aggregated update changes the global model on the server, with state kept
 * between rounds (momentum, moment estimates) as tensors shaped like the model, so that the state
 * can travel in the server state and be checkpointed.
 *
 * <p>The update is the aggregated client update, {@code mean(client model - global model)}; the
 * formulas are those of Flower's FedAvgM, FedAdam, FedYogi and FedAdagrad strategies, which write
 * the same thing as {@code fedavg_weights - current_weights}.
 */
public interface ServerOptimizer {
  /** The algorithm's name, such as {@code fedadam}. */
  String name();

  /** The state before round 1 for a model of these layers (zeros; empty for plain SGD). */
  List<Tensor> initialState(List<Tensor> model);

  /**
   * The names of the state's parts, each shaped like the model, in the order {@link
   * #initialState} lays them out ({@code [m, v]} for FedAdam); empty for a stateless optimizer.
   * They name the elements of the {@code optimizer} struct in the server state.
   */
  default List<String> stateSlots() {
    return List.of();
  }

  /**
   * One round.
   *
   * @param round the round, from 1
   * @param model the global model before the round
   * @param update the aggregated update, shaped like the model
   * @param state the state after the previous round
   */
  Step apply(int round, List<Tensor> model, List<Tensor> update, List<Tensor> state);

  /**
   * The new model and state.
   *
   * @param model the global model after the round
   * @param state the optimizer's state after the round
   */
  record Step(List<Tensor> model, List<Tensor> state) {
    /** Copies the lists. */
    public Step {
      model = List.copyOf(model);
      state = List.copyOf(state);
    }
  }
}
