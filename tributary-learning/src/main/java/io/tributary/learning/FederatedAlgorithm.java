package io.tributary.learning;

import io.tributary.core.computation.Computation;
import io.tributary.graph.local.ClientOptimizer;
import io.tributary.graph.local.ClientUpdateConfig;
import io.tributary.graph.models.Model;
import io.tributary.learning.aggregation.Aggregator;
import io.tributary.learning.aggregation.WeightedMean;
import io.tributary.learning.serveropt.ServerOptimizer;
import io.tributary.learning.serveropt.ServerSgd;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * A federated algorithm composed of three parts, as TFF's {@code build_weighted_fed_avg(
 * client_optimizer, server_optimizer, model_aggregator)} composes it: the client work (local
 * training, with FedProx's proximal coefficient {@code mu}; the client optimizer is a setting of
 * the client work given to {@link #build(Model, int, int, double, ClientOptimizer, long)}), an
 * {@link Aggregator} and a {@link
 * ServerOptimizer}. {@link #process} makes the {@link LearningProcess}; its {@code next} is one
 * federated computation of type {@code (<S@SERVER,{D}@CLIENTS> -> <S@SERVER,R@SERVER>)} whose
 * server state S is {@code <model=M>} plus {@code optimizer=O} when the server optimizer keeps
 * state and {@code aggregator=A} when the aggregator does.
 *
 * <p>{@link Algorithms} builds Flower's strategy suite from these parts by name.
 *
 * @param name the algorithm's name, such as {@code fedadam}
 * @param mu the FedProx proximal coefficient the clients train with; 0 for none
 * @param aggregator how the client updates become one
 * @param serverOptimizer how the aggregated update changes the model
 * @param topology whether the clients report to the server ({@link Topology#FLAT}) or through
 *     edges ({@link Topology.Hierarchical}, hierarchical FedAvg's tier)
 */
public record FederatedAlgorithm(String name, double mu, Aggregator aggregator,
    ServerOptimizer serverOptimizer, Topology topology) {
  /**
   * Checks the parts.
   *
   * @throws IllegalArgumentException when mu is negative or not finite
   */
  public FederatedAlgorithm {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(aggregator, "aggregator");
    Objects.requireNonNull(serverOptimizer, "serverOptimizer");
    Objects.requireNonNull(topology, "topology");
    if (!(mu >= 0) || Double.isInfinite(mu)) {
      throw new IllegalArgumentException("mu must be >= 0 and finite, got " + mu);
    }
  }

  /** A flat algorithm: its clients report to the server. */
  public FederatedAlgorithm(String name, double mu, Aggregator aggregator,
      ServerOptimizer serverOptimizer) {
    this(name, mu, aggregator, serverOptimizer, Topology.FLAT);
  }

  /** FedAvg: the example-weighted mean of the updates added to the model. */
  public static FederatedAlgorithm fedAvg() {
    return new FederatedAlgorithm("fedavg", 0, new WeightedMean(), new ServerSgd(1, 0));
  }

  /**
   * The algorithm {@code name} that aggregates with {@code aggregator} (a robust rule) and adds
   * the aggregate to the model, as FedAvg's server does.
   */
  public static FederatedAlgorithm of(String name, Aggregator aggregator) {
    return new FederatedAlgorithm(name, 0, aggregator, new ServerSgd(1, 0));
  }

  /**
   * The algorithm {@code name} that applies the example-weighted mean update with {@code
   * optimizer} (FedAvgM's momentum, FedAdam).
   */
  public static FederatedAlgorithm of(String name, ServerOptimizer optimizer) {
    return new FederatedAlgorithm(name, 0, new WeightedMean(), optimizer);
  }

  /** This algorithm under another name. */
  public FederatedAlgorithm withName(String newName) {
    return new FederatedAlgorithm(newName, mu, aggregator, serverOptimizer, topology);
  }

  /** This algorithm with another aggregator (a robust rule, a DP wrapper). */
  public FederatedAlgorithm withAggregator(Aggregator newAggregator) {
    return new FederatedAlgorithm(name, mu, newAggregator, serverOptimizer, topology);
  }

  /** This algorithm with another server optimizer. */
  public FederatedAlgorithm withServerOptimizer(ServerOptimizer newOptimizer) {
    return new FederatedAlgorithm(name, mu, aggregator, newOptimizer, topology);
  }

  /**
   * This algorithm aggregating through edges as {@code newTopology} says, or flat. A
   * hierarchical algorithm aggregates by the example-weighted mean at the edges and at the
   * server (Liu et al.'s HierFAVG), or by a private aggregation per edge that {@code
   * tributary-privacy} builds; {@link #process} refuses other aggregators.
   */
  public FederatedAlgorithm withTopology(Topology newTopology) {
    return new FederatedAlgorithm(name, mu, aggregator, serverOptimizer, newTopology);
  }

  /**
   * The process over local graph training of {@code model} (a simulation).
   *
   * @param epochs local epochs per round
   * @param batchSize local batch size; 0 keeps the clients' batches as given
   * @param learningRate the client optimizer's step size (SGD's learning rate by default)
   * @param seed seeds the initial model
   */
  public LearningProcess build(Model model, int epochs, int batchSize, double learningRate,
      long seed) {
    return build(model, epochs, batchSize, learningRate, ClientOptimizer.sgd(), seed,
        UnaryOperator.identity());
  }

  /**
   * As {@link #build(Model, int, int, double, long)}, the clients training with {@code
   * clientOptimizer} at step size {@code learningRate}. The client optimizer is part of the
   * client work, not of the algorithm: its state starts afresh at every client update (every
   * round), and on the Flower server the clients choose their own.
   */
  public LearningProcess build(Model model, int epochs, int batchSize, double learningRate,
      ClientOptimizer clientOptimizer, long seed) {
    return build(model, epochs, batchSize, learningRate, clientOptimizer, seed,
        UnaryOperator.identity());
  }

  /**
   * The process over local graph training of {@code model} whose client update is first passed
   * through {@code wrapUpdate}, such as {@link ByzantineUpdate#wrap}: the wrapped update must
   * still return {@code <delta=M,num_examples=int64,loss=float32>}, and its data type is the
   * data every client of {@code next} holds (the evaluation keeps the plain data).
   *
   * @param epochs local epochs per round
   * @param batchSize local batch size; 0 keeps the clients' batches as given
   * @param learningRate the client optimizer's step size
   * @param clientOptimizer the clients' optimizer, its state fresh at every client update
   * @param seed seeds the initial model
   * @param wrapUpdate makes the client update {@code next} runs from the local training one
   */
  public LearningProcess build(Model model, int epochs, int batchSize, double learningRate,
      ClientOptimizer clientOptimizer, long seed, UnaryOperator<Computation> wrapUpdate) {
    return FederatedLearning.build(this, model,
        new ClientUpdateConfig(epochs, batchSize, learningRate, mu, clientOptimizer), seed,
        wrapUpdate);
  }

  /**
   * The process over any client work: {@code initialize} gives {@code <model=M>@SERVER}, the
   * client update has type {@code (<model=M,data=D> -> <delta=M,num_examples=int64,loss=float32>)}
   * (the client applies {@link #mu} itself), the evaluation {@code (<model=M,data=D> ->
   * <...,num_examples=int64,...>)}.
   *
   * @throws IllegalArgumentException if a part does not have that shape
   */
  public LearningProcess process(Computation initialize, Computation clientUpdate,
      Computation evaluation) {
    return FederatedLearning.process(this, initialize, clientUpdate, evaluation);
  }
}
