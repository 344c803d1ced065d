package io.tributary.simulation.internal;

import io.tributary.core.values.StructValue;
import io.tributary.graph.local.GraphBindingException;
import io.tributary.graph.local.ModelStructs;
import io.tributary.graph.models.Model;
import io.tributary.learning.EvaluationOutput;
import io.tributary.learning.RoundOutput;
import io.tributary.learning.Topology;
import io.tributary.learning.rounds.Cohort;
import io.tributary.learning.rounds.FailurePolicy;
import io.tributary.learning.rounds.Population;
import io.tributary.learning.rounds.RoundLoop;
import io.tributary.learning.rounds.RoundRecord;
import io.tributary.learning.rounds.RoundRecorder;
import io.tributary.learning.rounds.RoundReport;
import io.tributary.learning.rounds.UpdaterState;
import io.tributary.runtime.ClientFailure;
import io.tributary.runtime.ExecutionContext;
import io.tributary.simulation.Engine;
import io.tributary.simulation.EngineProvider;
import io.tributary.simulation.SimulationData;
import io.tributary.simulation.SettingsSchema;
import io.tributary.simulation.SimulationSettings;
import io.tributary.simulation.engine.ClusterEngine;
import io.tributary.simulation.engine.EngineUnavailableException;
import io.tributary.simulation.engine.Invocation.Kind;
import io.tributary.simulation.engine.Invocation;
import io.tributary.tensor.Tensor;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SequencedMap;
import java.util.TreeMap;

/**
 * The federated side of a simulation: the algorithm's {@code initialize}, {@code next} and
 * {@code evaluate} computations, run by the runtime's {@link ExecutionContext}. This class only
 * chooses each round's clients and hands their data to {@code next}; the broadcast, the local
 * training and the weighted averaging happen inside the computation. Not an API: {@link
 * io.tributary.simulation.Simulation} is.
 */
public final class FederatedRun implements AutoCloseable, RoundRecorder {
  private final SimulationSettings config;
  private final RunParts parts;
  private final ExecutionContext context;
  private final ClusterEngine engine;
  private final RoundLoop loop;
  /** The invocation now running, for a cluster engine's workers; null between invocations. */
  private volatile Invocation current;
  private StructValue state;

  /**
   * Builds the algorithm's computations for {@code model}, starts the settings' engine and runs
   * {@code initialize}.
   *
   * @throws GraphBindingException if the model's graph computations cannot be bound
   * @throws EngineUnavailableException if a cluster engine cannot start
   */
  public FederatedRun(SimulationSettings config, SimulationData data, Model model)
      throws GraphBindingException {
    this.config = config;
    this.parts = new RunParts(config, data, model);
    ClusterEngine started = config.engine() instanceof Engine.Cluster cluster
        ? EngineProvider.startFor(cluster, config, () -> current) : null;
    this.engine = started;
    try {
      this.context = ExecutionContext.create(started == null ? parts.options()
          : parts.options().withPassEngine(started));
    } catch (RuntimeException e) {
      if (started != null) {
        started.close();
      }
      throw e;
    }
    this.loop = new RoundLoop(context, parts.process(), new Datasets(), FailurePolicy.STOP_RUN);
    try {
      this.state = loop.initialize();
    } catch (RuntimeException e) {
      close();
      throw e;
    }
  }

  /** The round loop over the simulated population, for {@link io.tributary.learning.rounds.RunLoop}. */
  public RoundLoop loop() {
    return loop;
  }

  /** The server state the first round starts from: initialized, or restored from a checkpoint. */
  public StructValue state() {
    return state;
  }

  /**
   * The algorithm metric of the bytes the clients sent their edges in a hierarchical round (k2
   * times their updates); {@code bytes_up} is then what the edges sent the server.
   */
  public static final String EDGE_BYTES_UP = "edge_bytes_up";
  /** The algorithm metric of the bytes the edges sent their clients in a hierarchical round. */
  public static final String EDGE_BYTES_DOWN = "edge_bytes_down";

  /**
   * A round's figures: the clients' training loss and examples from {@code next}, the new
   * model's scores on every client's training data and on the test data, the privacy spent.
   */
  @Override
  public RoundRecord record(RoundReport report) {
    int round = report.round();
    RoundOutput.Metrics m = report.metrics().orElseThrow();
    List<String> reasons = new ArrayList<>();
    for (ClientFailure f : report.failures()) {
      reasons.add(RoundReport.describe(f, report.cohort()));
    }
    double[] scores = new double[4];
    int excluded = 0;
    for (int e = 0; e < 2; e++) {
      RoundReport.Evaluation ev = report.evaluations().get(e);
      if (ev.cohort().size() == 0) {
        // A round that does not score the training data (train_eval_every).
        scores[2 * e] = Double.NaN;
        scores[2 * e + 1] = Double.NaN;
        continue;
      }
      EvaluationOutput out = EvaluationOutput.of(ev.output().orElseThrow());
      scores[2 * e] = printable(out.loss());
      scores[2 * e + 1] = printable(out.accuracy());
      for (ClientFailure f : ev.failures()) {
        reasons.add("evaluation on " + ev.cohort().names().get(f.client()) + " left out: "
            + f.message());
        excluded++;
      }
    }
    int clients = report.cohort().size();
    int failed = (int) report.failures().stream().map(ClientFailure::client).distinct().count();
    TreeMap<String, Double> algorithmMetrics = new TreeMap<>(m.others());
    // The privacy spent after this round: every round so far sampled a fixed-size cohort of
    // K of N clients and added noise of the same multiplier (a failed client does not lower it).
    if (config.dp().isPresent()) {
      algorithmMetrics.put(RoundRecord.EPSILON, config.privacySpent(round).epsilon());
    }
    long p = parts.parameterBytes();
    long up = (long) (clients - failed) * p;
    long down = (long) clients * p;
    if (config.algorithm().topology()
        instanceof Topology.Hierarchical h) {
      // The clients talk to their edges, k2 times a round; only the edges' models reach the
      // server, and the server's model reaches the edges once.
      algorithmMetrics.put(EDGE_BYTES_UP, (double) h.edgeRounds() * up);
      algorithmMetrics.put(EDGE_BYTES_DOWN, (double) h.edgeRounds() * down);
      up = (long) h.edges() * p;
      down = (long) h.edges() * p;
    }
    return new RoundRecord(round, scores[0], scores[1], scores[2], scores[3],
        printable(m.trainLoss()), clients, m.numExamples(), failed, report.seconds(), up, down,
        reasons, excluded, algorithmMetrics);
  }

  /**
   * The simulated population: seeded samples of the clients' datasets, shuffled per round. It
   * also notes which invocation runs, which a cluster engine's workers replay.
   */
  private static final Cohort NO_TRAINING_SCORE = new Cohort("train", List.of(), List.of());

  private final class Datasets implements Population {
    @Override
    public Cohort fitCohort(int round) {
      return parts.fitCohort(round);
    }

    @Override
    public List<Cohort> evaluationCohorts(int round) {
      int every = config.get(SettingsSchema.TRAIN_EVAL_EVERY);
      boolean scoreTraining = round % every == 0 || round == config.rounds();
      return List.of(scoreTraining ? parts.trainCohort() : NO_TRAINING_SCORE, parts.testCohort());
    }

    @Override
    public Population.Invocation open(Phase phase, int round, Cohort cohort) {
      Kind kind = phase == Phase.FIT ? Kind.FIT
          : cohort == parts.trainCohort() ? Kind.EVALUATE_TRAIN : Kind.EVALUATE_TEST;
      current = new io.tributary.simulation.engine.Invocation(kind, round);
      return () -> current = null;
    }
  }

  /**
   * Continues from a checkpoint: the global model becomes {@code parameters}, whose names, dtypes
   * and shapes must be the model's; a server optimizer's state (FedAdam's moments and step count)
   * and a stateful aggregator's state (a private aggregator's round and clipping norm) come from
   * {@code updater}.
   *
   * @throws IllegalArgumentException when the parameters, the optimizer state or the aggregator
   *     state do not fit the algorithm, or the checkpoint lacks the state the algorithm keeps
   */
  public void restore(Map<String, Tensor> parameters, Optional<UpdaterState> updater) {
    List<Object> values = new ArrayList<>(state.values());
    values.set(state.names().indexOf(Optional.of("model")),
        ModelStructs.toValue(parts.modelType(), parameters));
    state = StructValue.of(state.names(), values);
    if (updater.isPresent()) {
      state = updater.get().applyTo(state);
    } else if (UpdaterState.of(state).isPresent()) {
      throw new IllegalArgumentException("resume: the checkpoint holds no state of "
          + config.algorithm().name() + "'s server optimizer or aggregator");
    }
  }

  /**
   * Starts from {@code parameters} (a user's model brings them) instead of the seeded initial
   * model; the rest of the state stays as the algorithm initialised it.
   *
   * @throws IllegalArgumentException when the parameters are not the model's
   */
  public void startFrom(Map<String, Tensor> parameters) {
    List<Object> values = new ArrayList<>(state.values());
    values.set(state.names().indexOf(Optional.of("model")),
        ModelStructs.toValue(parts.modelType(), parameters));
    state = StructValue.of(state.names(), values);
  }

  /** The global model of {@code serverState} by parameter name. */
  @Override
  public SequencedMap<String, Tensor> parameters(StructValue serverState) {
    return new LinkedHashMap<>(ModelStructs.fromValue(parts.modelType(),
        serverState.struct("model"), "server model"));
  }

  /** The bytes of one copy of the model's parameters, what each client receives and sends. */
  public long parameterBytes() {
    return parts.parameterBytes();
  }

  /** A float32 metric as the double that prints like the float (0.1f as 0.1, not 0.100000001). */
  private static double printable(float value) {
    return Double.parseDouble(Float.toString(value));
  }

  @Override
  public void close() {
    try {
      context.close();
    } finally {
      if (engine != null) {
        engine.close();
      }
    }
  }
}
