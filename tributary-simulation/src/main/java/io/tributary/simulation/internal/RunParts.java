package io.tributary.simulation.internal;

import io.tributary.core.computation.Computation;
import io.tributary.core.computation.Federated;
import io.tributary.core.computation.Intrinsics;
import io.tributary.core.types.Placement;
import io.tributary.core.types.StructType;
import io.tributary.core.values.StructValue;
import io.tributary.data.Dataset;
import io.tributary.graph.local.ClientUpdateConfig;
import io.tributary.graph.local.GraphBinder;
import io.tributary.graph.ops.GemmKernel;
import io.tributary.graph.local.GraphBindingException;
import io.tributary.graph.local.LocalTraining;
import io.tributary.graph.models.Model;
import io.tributary.learning.ByzantineUpdate;
import io.tributary.learning.ClientSampler;
import io.tributary.learning.FederatedAlgorithm;
import io.tributary.learning.FederatedLearning;
import io.tributary.learning.LearningProcess;
import io.tributary.learning.Topology;
import io.tributary.learning.graph.GraphLearning;
import io.tributary.learning.graph.SequenceValues;
import io.tributary.learning.rounds.Cohort;
import io.tributary.privacy.aggregation.DpSettings;
import io.tributary.privacy.aggregation.TieredDp;
import io.tributary.privacy.secagg.SecAggPlus;
import io.tributary.privacy.secagg.SecAggSettings;
import io.tributary.runtime.RuntimeOptions;
import io.tributary.simulation.Byzantine;
import io.tributary.simulation.Seeds;
import io.tributary.simulation.SimulationData;
import io.tributary.simulation.SettingsSchema;
import io.tributary.simulation.SimulationSettings;
import io.tributary.simulation.engine.Invocation;
import io.tributary.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.IntFunction;
import java.util.function.UnaryOperator;

/**
 * What a simulation builds from its settings, data and model: the bound learning process, the
 * runtime's options, and every cohort of every round. The driver ({@link FederatedRun}) and a
 * cluster engine's workers build it with the same code, so a worker's clients are the driver's.
 * Not an API.
 */
public final class RunParts {
  /** Examples per batch when scoring a model; it affects speed only, not the figures. */
  public static final int EVAL_BATCH = 512;
  /** The test set is scored as this many pieces in parallel, a fixed count so results do not
   * depend on the thread count. */
  public static final int TEST_PIECES = 8;

  private final SimulationSettings config;
  private final SimulationData data;
  private final StructType modelType;
  private final LearningProcess process;
  private final ClientSampler sampler;
  private final Cohort trainCohort;
  private final Cohort testCohort;
  private final long parameterBytes;

  /**
   * Builds the algorithm's computations for {@code model} and the evaluation cohorts.
   *
   * @throws GraphBindingException if the model's graph computations cannot be bound
   */
  public RunParts(SimulationSettings config, SimulationData data, Model model)
      throws GraphBindingException {
    this.config = config;
    this.data = data;
    this.modelType = LocalTraining.modelType(model);
    long modelSeed = Seeds.model(config.seed());
    FederatedAlgorithm algorithm = config.algorithm();
    if (config.dp().isPresent() && algorithm.topology() instanceof Topology.Flat) {
      algorithm = algorithm.withAggregator(config.dp().get().aggregator(config.clientsPerRound(),
          Seeds.dpNoise(config.seed())));
    }
    // Byzantine clients: every client's data carry an attack (honest ones scale 1), applied to
    // its update inside the client computation; without them the update is the plain one.
    UnaryOperator<Computation> wrap = config.byzantine().active() ? ByzantineUpdate::wrap
        : UnaryOperator.identity();
    Optional<TieredDp> tiered = config.tieredDp(Seeds.dpNoise(config.seed()));
    LearningProcess built = tiered.isPresent()
        ? privateThroughEdges(tiered.get(), model, modelSeed, wrap)
        : GraphLearning.build(algorithm, model, config.localEpochs(), config.batchSize(),
            config.learningRate(), config.clientOptimizer(), modelSeed, wrap);
    if (!config.clientMetrics().isEmpty()) {
      // The clients' evaluation aggregated per metric as --client-metric says.
      built = new LearningProcess(built.name(), built.initialize(), built.next(),
          FederatedLearning.evaluate(Computation.of(LocalTraining.evaluation("evaluate", model)),
              config.clientMetrics()));
    }
    this.process = GraphLearning.bound(built, GraphBinder.standard(
        GemmKernel.parse(config.get(SettingsSchema.KERNEL)).requireAvailable()));
    this.sampler = new ClientSampler(Seeds.sampler(config.seed()));
    this.trainCohort = cohort("train", data.clientTrain().size(),
        k -> SequenceValues.of(data.clientTrain().get(k), EVAL_BATCH),
        k -> "training data of client " + k);
    List<List<StructValue>> testForEval = pieces(data.test());
    List<String> testNames = new ArrayList<>();
    for (int p = 0; p < testForEval.size(); p++) {
      testNames.add("test piece " + p);
    }
    this.testCohort = new Cohort("test", testForEval, testNames);
    long bytes = 0;
    for (Tensor t : model.initialParameters(0).values()) {
      bytes += t.byteSize();
    }
    this.parameterBytes = bytes;
  }

  /**
   * The private hierarchical process: the clients' local training of {@code model}, the edges'
   * and the server's private aggregation of {@code tiered}.
   */
  private LearningProcess privateThroughEdges(TieredDp tiered, Model model, long modelSeed,
      UnaryOperator<Computation> wrap) {
    ClientUpdateConfig training = new ClientUpdateConfig(config.localEpochs(),
        config.batchSize(), config.learningRate(), 0, config.clientOptimizer());
    Computation initialModel = Computation.of(
        LocalTraining.initialModel("initial_model", model, modelSeed));
    Computation initialState = Federated.computation(() -> Federated.struct(
        java.util.Map.of("model", initialModel.call())));
    Computation initialize = Federated.computation(
        () -> Intrinsics.federatedEval(initialState, Placement.SERVER));
    return tiered.process(initialize,
        wrap.apply(Computation.of(LocalTraining.clientUpdate("client_update", model, training))),
        Computation.of(LocalTraining.evaluation("evaluate", model)));
  }

  /** Whether the clients report to the server or through edges. */
  private Topology topology() {
    return config.algorithm().topology();
  }

  /**
   * The runtime's options of a simulation: client results are checked, not trusted (a failed or
   * non-finite one is left out and reported, any one success suffices, as on the server), and
   * example counts are bounded.
   */
  public RuntimeOptions options() {
    RuntimeOptions options = RuntimeOptions.defaults()
        .withThreads(config.threads()).withSeed(config.seed())
        .withMinSuccessFraction(Double.MIN_VALUE)
        .withMaxWeight(FederatedLearning.DEFAULT_MAX_EXAMPLES_PER_CLIENT,
            RuntimeOptions.WeightPolicy.CLIP);
    if (topology() instanceof Topology.Hierarchical h) {
      // Every round's cohort lists its clients edge by edge, in the same edge sizes.
      options = options.withEdges(h.cohortEdges(config.clientsPerRound()));
    }
    Optional<DpSettings.Secure> secure = config.dp().flatMap(DpSettings::secure);
    if (secure.isPresent()) {
      // The DP aggregator's secure sums run SecAgg+ among the simulated clients; the masks are
      // secret, the sum exact, so the run's results do not depend on them.
      options = options.withSecureSum(SecAggPlus.secureSummation(SecAggSettings.of(
          secure.get().neighbours(), secure.get().threshold(), secure.get().bits(),
          Seeds.secAggGraph(config.seed()))));
    }
    return options;
  }

  private static List<List<StructValue>> pieces(Dataset test) {
    int n = test.size();
    int count = Math.max(1, Math.min(TEST_PIECES, n));
    List<List<StructValue>> out = new ArrayList<>();
    for (int p = 0; p < count; p++) {
      int from = (int) ((long) p * n / count);
      int to = (int) ((long) (p + 1) * n / count);
      int[] idx = new int[to - from];
      for (int i = 0; i < idx.length; i++) {
        idx[i] = from + i;
      }
      out.add(SequenceValues.of(test.subset(test.name(), idx), EVAL_BATCH));
    }
    return out;
  }

  /**
   * Round {@code round}'s sampled clients: seeded samples of their datasets, shuffled. The
   * batches of a client are made when the runtime reaches it (a shuffled copy of its examples
   * each), so a round holds only the clients being trained, whatever its size.
   */
  public Cohort fitCohort(int round) {
    int population = data.clientTrain().size();
    int[] chosen = topology() instanceof Topology.Hierarchical h
        ? h.sample(sampler, round, population, config.clientsPerRound())
        : sampler.sample(round, population, config.clientsPerRound());
    Byzantine byzantine = config.byzantine();
    StructValue[] attacks = byzantine.active()
        ? byzantine.attacks(config.seed(), round, chosen.length) : null;
    boolean[] attacked = new boolean[chosen.length];
    if (attacks != null) {
      for (int p : byzantine.positions(config.seed(), round, chosen.length)) {
        attacked[p] = true;
      }
    }
    IntFunction<Object> client = p -> {
      int k = chosen[p];
      List<StructValue> batches = SequenceValues.shuffled(data.clientTrain().get(k),
          config.batchSize(), Seeds.shuffle(config.seed(), round, k));
      return attacks == null ? batches : ByzantineUpdate.clientData(batches, attacks[p]);
    };
    IntFunction<String> name = p -> "client " + chosen[p] + (attacked[p] ? " (byzantine)" : "");
    // A generated population's sizes are unknown until its data are made: its clients are taken
    // to cost the same.
    return data.generated() ? Cohort.generated("fit", chosen.length, client, name)
        : Cohort.generated("fit", chosen.length, client, name, p -> trainingBytes(chosen[p]));
  }

  /**
   * The guess at client {@code k}'s training work, made without its batches: the bytes of its
   * examples, features and labels as the dataset holds them. A round's clients are started
   * largest first, so that with skewed sizes the workers finish together.
   */
  private long trainingBytes(int k) {
    Dataset d = data.clientTrain().get(k);
    return d.features().byteSize() + d.labels().byteSize();
  }

  /**
   * A cohort of {@code size} clients to evaluate on: made on demand for a generated population,
   * so that no client's data outlive its work, and made once otherwise (the unshuffled batches of
   * held data share their storage).
   */
  private Cohort cohort(String name, int size, IntFunction<Object> client,
      IntFunction<String> clientName) {
    if (data.generated()) {
      return Cohort.generated(name, size, client, clientName);
    }
    List<Object> values = new ArrayList<>(size);
    List<String> names = new ArrayList<>(size);
    for (int p = 0; p < size; p++) {
      values.add(client.apply(p));
      names.add(clientName.apply(p));
    }
    return new Cohort(name, values, names);
  }

  /** The clients every round's model is evaluated on: every client's training data. */
  public Cohort trainCohort() {
    return trainCohort;
  }

  /** The pieces of the test data every round's model is evaluated on. */
  public Cohort testCohort() {
    return testCohort;
  }

  /**
   * The computation and the clients of {@code invocation}; its server argument (the state for
   * {@code next}, the model for {@code evaluate}) is the caller's.
   */
  public Call call(Invocation invocation, Object serverArgument) {
    return switch (invocation.kind()) {
      case FIT -> new Call(process.next(),
          List.of(serverArgument, fitCohort(invocation.round()).argument()));
      case EVALUATE_TRAIN -> new Call(process.evaluate(),
          List.of(serverArgument, trainCohort.argument()));
      case EVALUATE_TEST -> new Call(process.evaluate(),
          List.of(serverArgument, testCohort.argument()));
    };
  }

  /**
   * A computation and its arguments, in order.
   *
   * @param computation the bound computation
   * @param arguments the server argument, then the clients' values
   */
  public record Call(Computation computation, List<Object> arguments) {}

  /** The bound learning process. */
  public LearningProcess process() {
    return process;
  }

  /** The settings. */
  public SimulationSettings settings() {
    return config;
  }

  /** The model's parameters as a struct type. */
  public StructType modelType() {
    return modelType;
  }

  /** The bytes of one copy of the model's parameters, what each client receives and sends. */
  public long parameterBytes() {
    return parameterBytes;
  }
}
