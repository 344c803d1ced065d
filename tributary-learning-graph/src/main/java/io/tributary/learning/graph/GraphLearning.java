package io.tributary.learning.graph;

import io.tributary.core.compiler.GraphComputation;
import io.tributary.core.computation.Computation;
import io.tributary.core.computation.Federated;
import io.tributary.core.computation.Intrinsics;
import io.tributary.core.types.Placement;
import io.tributary.graph.local.ClientOptimizer;
import io.tributary.graph.local.ClientUpdateConfig;
import io.tributary.graph.local.GraphBinder;
import io.tributary.graph.local.GraphBindingException;
import io.tributary.graph.local.LocalTraining;
import io.tributary.graph.models.Model;
import io.tributary.learning.ByzantineUpdate;
import io.tributary.learning.FederatedAlgorithm;
import io.tributary.learning.LearningProcess;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * A {@link FederatedAlgorithm}'s {@link LearningProcess} over local graph training of a {@link
 * Model} (a simulation), and a process's graph computations bound to Java functions.
 *
 * <p>The client work is {@code io.tributary.graph.local}'s {@link LocalTraining}: the initial
 * model, the client update (local epochs of the client optimizer, with the algorithm's FedProx
 * coefficient {@link FederatedAlgorithm#mu()}) and the evaluation, each a graph computation;
 * {@link FederatedAlgorithm#process} makes the federated computations around them. They live
 * here, beside graph, so that {@code tributary-learning} needs no graph or data module.
 *
 * <pre>{@code
 * FederatedAlgorithm adam = FederatedAlgorithm.named("fedadam", Map.of("eta", 0.01));
 * LearningProcess process = GraphLearning.build(adam, model, 1, 10, 0.1, seed);
 * LearningProcess runnable = GraphLearning.bound(process, GraphBinder.standard());
 * }</pre>
 */
public final class GraphLearning {
  private GraphLearning() {}

  /**
   * The process of {@code algorithm} over local graph training of {@code model}, the clients
   * training with SGD.
   *
   * @param epochs local epochs per round
   * @param batchSize local batch size; 0 keeps the clients' batches as given
   * @param learningRate the client optimizer's step size (SGD's learning rate)
   * @param seed seeds the initial model
   */
  public static LearningProcess build(FederatedAlgorithm algorithm, Model model, int epochs,
      int batchSize, double learningRate, long seed) {
    return build(algorithm, model, epochs, batchSize, learningRate, ClientOptimizer.sgd(), seed,
        UnaryOperator.identity());
  }

  /**
   * As {@link #build(FederatedAlgorithm, Model, int, int, double, long)}, the clients training
   * with {@code clientOptimizer} at step size {@code learningRate}. The client optimizer is part
   * of the client work, not of the algorithm: its state starts afresh at every client update
   * (every round), and on the Flower server the clients choose their own.
   */
  public static LearningProcess build(FederatedAlgorithm algorithm, Model model, int epochs,
      int batchSize, double learningRate, ClientOptimizer clientOptimizer, long seed) {
    return build(algorithm, model, epochs, batchSize, learningRate, clientOptimizer, seed,
        UnaryOperator.identity());
  }

  /**
   * The process of {@code algorithm} over local graph training of {@code model} whose client
   * update is first passed through {@code wrapUpdate}, such as {@link ByzantineUpdate#wrap}: the
   * wrapped update must still return {@code <delta=M,num_examples=int64,loss=float32>}, and its
   * data type is the data every client of {@code next} holds (the evaluation keeps the plain
   * data).
   *
   * @param epochs local epochs per round
   * @param batchSize local batch size; 0 keeps the clients' batches as given
   * @param learningRate the client optimizer's step size
   * @param clientOptimizer the clients' optimizer, its state fresh at every client update
   * @param seed seeds the initial model
   * @param wrapUpdate makes the client update {@code next} runs from the local training one
   * @throws IllegalArgumentException if a setting is out of range, or the algorithm cannot run
   *     over this client work (see {@link FederatedAlgorithm#process})
   */
  public static LearningProcess build(FederatedAlgorithm algorithm, Model model, int epochs,
      int batchSize, double learningRate, ClientOptimizer clientOptimizer, long seed,
      UnaryOperator<Computation> wrapUpdate) {
    ClientUpdateConfig config = new ClientUpdateConfig(epochs, batchSize, learningRate,
        algorithm.mu(), clientOptimizer);
    GraphComputation initial = LocalTraining.initialModel("initial_model", model, seed);
    GraphComputation update = LocalTraining.clientUpdate("client_update", model, config);
    GraphComputation eval = LocalTraining.evaluation("evaluate", model);
    Computation initialState = Federated.computation(
        () -> Federated.struct(Map.of("model", Computation.of(initial).call())));
    Computation initialize = Federated.computation(
        () -> Intrinsics.federatedEval(initialState, Placement.SERVER));
    return algorithm.process(initialize, wrapUpdate.apply(Computation.of(update)),
        Computation.of(eval));
  }

  /**
   * The same process with every graph computation bound by {@code binder}: the form any runtime
   * that runs Java functions can execute.
   *
   * @throws GraphBindingException if a graph computation cannot be bound
   */
  public static LearningProcess bound(LearningProcess process, GraphBinder binder)
      throws GraphBindingException {
    return new LearningProcess(process.name(), binder.bindAll(process.initialize()),
        binder.bindAll(process.next()), binder.bindAll(process.evaluate()));
  }
}
