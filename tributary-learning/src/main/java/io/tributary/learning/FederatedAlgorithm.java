package io.tributary.learning;

import io.tributary.core.computation.Computation;
import io.tributary.learning.aggregation.Aggregator;
import io.tributary.learning.aggregation.WeightedMean;
import io.tributary.learning.serveropt.ServerOptimizer;
import io.tributary.learning.serveropt.ServerSgd;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SequencedMap;

/**
 * A federated algorithm: the one type a run is given its algorithm as, by the simulator, the
 * Flower servers and Spark alike. It is named from the registry ({@link #named}, any {@link
 * AlgorithmSpec} on the class path: Flower's strategy suite and a user's own) or composed of
 * three parts in code, as TFF's {@code build_weighted_fed_avg(client_optimizer,
 * server_optimizer, model_aggregator)} composes it: the client work (local training, with
 * FedProx's proximal coefficient {@code mu}; the client optimizer is a setting of the client work,
 * which {@code io.tributary.learning.graph.GraphLearning.build} takes for graph models), an
 * {@link Aggregator} and a {@link ServerOptimizer}. {@link #process} makes the {@link
 * LearningProcess}, the federated computations a binding runs; its {@code next} is one federated
 * computation of type {@code (<S@SERVER,{D}@CLIENTS> -> <S@SERVER,R@SERVER>)} whose server state
 * S is {@code <model=M>} plus {@code optimizer=O} when the server optimizer keeps state and
 * {@code aggregator=A} when the aggregator does.
 *
 * <pre>{@code
 * FederatedAlgorithm adam = FederatedAlgorithm.named("fedadam", Map.of("eta", 0.01));
 * LearningProcess process = GraphLearning.build(adam, model, 1, 10, 0.1, seed);  // learning-graph
 * }</pre>
 *
 * <p>An algorithm the registry built remembers its spec's name and hyperparameter values
 * ({@link #registration}), which is how a run records it ({@code config.json}'s {@code
 * algorithm_options}) and how Spark's workers and a resume build it again; changing a part
 * ({@link #withAggregator}, ...) makes a composed algorithm, which only code can repeat. Two
 * algorithms are equal when their name and parts are, registered or not.
 *
 * <p>Flower's client learning rate {@code eta_l} is not a server hyperparameter here: the
 * clients' learning rate is the client work's (simulate's {@code --lr}).
 */
public final class FederatedAlgorithm {
  /**
   * The spec and the values a registered algorithm was built from.
   *
   * @param spec the spec's name, such as {@code fedadam}
   * @param hyperparameters every hyperparameter of the spec, in its order, each checked
   */
  public record Registration(String spec, SequencedMap<String, Double> hyperparameters) {
    /** Copies the values. */
    public Registration {
      Objects.requireNonNull(spec, "spec");
      hyperparameters = Collections.unmodifiableSequencedMap(
          new LinkedHashMap<>(hyperparameters));
    }
  }

  private final String name;
  private final double mu;
  private final Aggregator aggregator;
  private final ServerOptimizer serverOptimizer;
  private final Topology topology;
  private final Optional<Registration> registration;
  /** Whether the clients train with the proximal term even at mu 0 (FedProx's contract). */
  private final boolean proximalTerm;

  /**
   * An algorithm of these parts, composed in code.
   *
   * @param name the algorithm's name, such as {@code fedadam}
   * @param mu the FedProx proximal coefficient the clients train with; 0 for none
   * @param aggregator how the client updates become one
   * @param serverOptimizer how the aggregated update changes the model
   * @param topology whether the clients report to the server ({@link Topology#FLAT}) or
   *     through edges ({@link Topology.Hierarchical}, hierarchical FedAvg's tier)
   * @throws IllegalArgumentException when mu is negative or not finite
   */
  public FederatedAlgorithm(String name, double mu, Aggregator aggregator,
      ServerOptimizer serverOptimizer, Topology topology) {
    this(name, mu, aggregator, serverOptimizer, topology, Optional.empty(), false);
  }

  private FederatedAlgorithm(String name, double mu, Aggregator aggregator,
      ServerOptimizer serverOptimizer, Topology topology, Optional<Registration> registration,
      boolean proximalTerm) {
    this.name = Objects.requireNonNull(name, "name");
    this.aggregator = Objects.requireNonNull(aggregator, "aggregator");
    this.serverOptimizer = Objects.requireNonNull(serverOptimizer, "serverOptimizer");
    this.topology = Objects.requireNonNull(topology, "topology");
    if (!(mu >= 0) || Double.isInfinite(mu)) {
      throw new IllegalArgumentException("mu must be >= 0 and finite, got " + mu);
    }
    this.mu = mu;
    this.registration = registration;
    this.proximalTerm = proximalTerm;
  }

  /** The algorithm {@code name} of the installed registry with its defaults. */
  public static FederatedAlgorithm named(String name) {
    return named(name, Map.of());
  }

  /**
   * The algorithm {@code name} of the installed registry ({@link AlgorithmRegistry#installed})
   * with {@code hyperparameters} (by Flower's names, such as FedAdam's {@code eta}) in place of
   * its defaults.
   *
   * @throws IllegalArgumentException naming the algorithm and the offending hyperparameter when
   *     the name is unknown, a hyperparameter is not one of the algorithm's, or a value is out of
   *     range
   */
  public static FederatedAlgorithm named(String name, Map<String, Double> hyperparameters) {
    return AlgorithmRegistry.installed().build(name, hyperparameters);
  }

  /** This algorithm as the registry's spec {@code spec} built it from {@code values}. */
  FederatedAlgorithm registered(String spec, SequencedMap<String, Double> values) {
    return new FederatedAlgorithm(name, mu, aggregator, serverOptimizer, topology,
        Optional.of(new Registration(spec, values)),
        proximalTerm || values.containsKey("proximal_mu"));
  }

  /** The algorithm's name, such as {@code fedadam}. */
  public String name() {
    return name;
  }

  /** The FedProx proximal coefficient the clients train with; 0 for none. */
  public double mu() {
    return mu;
  }

  /** How the client updates become one. */
  public Aggregator aggregator() {
    return aggregator;
  }

  /** How the aggregated update changes the model. */
  public ServerOptimizer serverOptimizer() {
    return serverOptimizer;
  }

  /** Whether the clients report to the server or through edges. */
  public Topology topology() {
    return topology;
  }

  /**
   * The registered spec and the hyperparameter values that built this algorithm; empty for one
   * composed in code (or changed after the registry built it).
   */
  public Optional<Registration> registration() {
    return registration;
  }

  /**
   * Whether the clients of this algorithm train with a proximal term: its mu is above 0, or it
   * was built by a spec that takes {@code proximal_mu} (FedProx, whose clients expect the term
   * even at 0), which the {@code with...} methods keep.
   */
  public boolean proximal() {
    return mu > 0 || proximalTerm;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof FederatedAlgorithm a && name.equals(a.name)
        && Double.compare(mu, a.mu) == 0 && aggregator.equals(a.aggregator)
        && serverOptimizer.equals(a.serverOptimizer) && topology.equals(a.topology)
        && proximalTerm == a.proximalTerm;
  }

  @Override
  public int hashCode() {
    return Objects.hash(name, mu, aggregator, serverOptimizer, topology, proximalTerm);
  }

  @Override
  public String toString() {
    return "FederatedAlgorithm[name=" + name + ", mu=" + mu + ", aggregator=" + aggregator
        + ", serverOptimizer=" + serverOptimizer + ", topology=" + topology
        + registration.map(r -> ", registration=" + r).orElse("") + "]";
  }

  /** A flat algorithm: its clients report to the server. */
  public FederatedAlgorithm(String name, double mu, Aggregator aggregator,
      ServerOptimizer serverOptimizer) {
    this(name, mu, aggregator, serverOptimizer, Topology.FLAT);
  }

  /**
   * FedAvg: the example-weighted mean of the updates added to the model; the registry's {@code
   * fedavg}, which takes no hyperparameters.
   */
  public static FederatedAlgorithm fedAvg() {
    return new FederatedAlgorithm("fedavg", 0, new WeightedMean(), new ServerSgd(1, 0))
        .registered("fedavg", new LinkedHashMap<>());
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
    return new FederatedAlgorithm(newName, mu, aggregator, serverOptimizer, topology, Optional.empty(),
        proximalTerm);
  }

  /** This algorithm with another aggregator (a robust rule, a DP wrapper). */
  public FederatedAlgorithm withAggregator(Aggregator newAggregator) {
    return new FederatedAlgorithm(name, mu, newAggregator, serverOptimizer, topology, Optional.empty(),
        proximalTerm);
  }

  /** This algorithm with another server optimizer. */
  public FederatedAlgorithm withServerOptimizer(ServerOptimizer newOptimizer) {
    return new FederatedAlgorithm(name, mu, aggregator, newOptimizer, topology, Optional.empty(),
        proximalTerm);
  }

  /**
   * This algorithm aggregating through edges as {@code newTopology} says, or flat. A
   * hierarchical algorithm aggregates by the example-weighted mean at the edges and at the
   * server (Liu et al.'s HierFAVG), or by a private aggregation per edge that {@code
   * tributary-privacy} builds; {@link #process} refuses other aggregators.
   */
  public FederatedAlgorithm withTopology(Topology newTopology) {
    return new FederatedAlgorithm(name, mu, aggregator, serverOptimizer, newTopology, Optional.empty(),
        proximalTerm);
  }

  /**
   * The process over any client work: {@code initialize} gives {@code <model=M>@SERVER}, the
   * client update has type {@code (<model=M,data=D> -> <delta=M,num_examples=int64,loss=float32>)}
   * (the client applies {@link #mu()} itself), the evaluation {@code (<model=M,data=D> ->
   * <...,num_examples=int64,...>)}.
   *
   * @throws IllegalArgumentException if a part does not have that shape
   */
  public LearningProcess process(Computation initialize, Computation clientUpdate,
      Computation evaluation) {
    return FederatedLearning.process(this, initialize, clientUpdate, evaluation);
  }
}
