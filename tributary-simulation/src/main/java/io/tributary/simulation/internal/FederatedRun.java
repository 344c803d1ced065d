package io.tributary.simulation.internal;

import io.tributary.core.computation.Computation;
import io.tributary.core.types.StructType;
import io.tributary.core.values.StructValue;
import io.tributary.data.Dataset;
import io.tributary.graph.local.GraphBinder;
import io.tributary.graph.local.GraphBindingException;
import io.tributary.graph.local.LocalTraining;
import io.tributary.graph.local.ModelStructs;
import io.tributary.graph.models.Model;
import io.tributary.learning.ByzantineUpdate;
import io.tributary.learning.ClientSampler;
import io.tributary.learning.EvaluationOutput;
import io.tributary.learning.FederatedAlgorithm;
import io.tributary.learning.FederatedLearning;
import io.tributary.learning.LearningProcess;
import io.tributary.learning.RoundOutput;
import io.tributary.learning.SequenceValues;
import io.tributary.learning.rounds.Cohort;
import io.tributary.learning.rounds.FailurePolicy;
import io.tributary.learning.rounds.Population;
import io.tributary.learning.rounds.RoundLoop;
import io.tributary.learning.rounds.RoundRecord;
import io.tributary.learning.rounds.RoundReport;
import io.tributary.learning.rounds.UpdaterState;
import io.tributary.runtime.ClientFailure;
import io.tributary.runtime.ExecutionContext;
import io.tributary.privacy.aggregation.DpSettings;
import io.tributary.privacy.secagg.SecAggPlus;
import io.tributary.privacy.secagg.SecAggSettings;
import io.tributary.runtime.RuntimeOptions;
import io.tributary.simulation.Byzantine;
import io.tributary.simulation.Seeds;
import io.tributary.simulation.SimulationData;
import io.tributary.simulation.SimulationSettings;
import io.tributary.tensor.Tensor;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SequencedMap;
import java.util.TreeMap;
import java.util.function.UnaryOperator;

/**
 * The federated side of a simulation: the algorithm's {@code initialize}, {@code next} and
 * {@code evaluate} computations, run by the runtime's {@link ExecutionContext}. This class only
 * chooses each round's clients and hands their data to {@code next}; the broadcast, the local
 * training and the weighted averaging happen inside the computation. Not an API: {@link
 * io.tributary.simulation.Simulation} is.
 */
public final class FederatedRun implements AutoCloseable {
  /** Examples per batch when scoring a model; it affects speed only, not the figures. */
  public static final int EVAL_BATCH = 512;
  /** The test set is scored as this many pieces in parallel, a fixed count so results do not
   * depend on the thread count. */
  public static final int TEST_PIECES = 8;

  private final SimulationSettings config;
  private final SimulationData data;
  private final StructType modelType;
  private final LearningProcess process;
  private final ExecutionContext context;
  private final ClientSampler sampler;
  private final Cohort trainCohort;
  private final Cohort testCohort;
  private final RoundLoop loop;
  private final long parameterBytes;
  private StructValue state;

  /**
   * Builds the algorithm's computations for {@code model} and runs {@code initialize}.
   *
   * @throws GraphBindingException if the model's graph computations cannot be bound
   */
  public FederatedRun(SimulationSettings config, SimulationData data, Model model)
      throws GraphBindingException {
    this.config = config;
    this.data = data;
    this.modelType = LocalTraining.modelType(model);
    long modelSeed = Seeds.model(config.seed());
    FederatedAlgorithm algorithm = config.algorithm().federated(config.mu());
    if (config.dp().isPresent()) {
      algorithm = algorithm.withAggregator(config.dp().get().aggregator(config.clientsPerRound(),
          Seeds.dpNoise(config.seed())));
    }
    // Byzantine clients: every client's data carry an attack (honest ones scale 1), applied to
    // its update inside the client computation; without them the update is the plain one.
    LearningProcess built = algorithm.build(model, config.localEpochs(), config.batchSize(),
        config.learningRate(), config.clientOptimizer(), modelSeed,
        config.byzantine().active() ? ByzantineUpdate::wrap : UnaryOperator.identity());
    if (!config.clientMetrics().isEmpty()) {
      // The clients' evaluation aggregated per metric as --client-metric says.
      built = new LearningProcess(built.name(), built.initialize(), built.next(),
          FederatedLearning.evaluate(Computation.of(LocalTraining.evaluation("evaluate", model)),
              config.clientMetrics()));
    }
    this.process = built.bound(GraphBinder.standard());
    // Client results are checked, not trusted: a failed or non-finite one is left out and
    // reported (any one success suffices, as on the server), and example counts are bounded.
    RuntimeOptions options = RuntimeOptions.defaults()
        .withThreads(config.threads()).withSeed(config.seed())
        .withMinSuccessFraction(Double.MIN_VALUE)
        .withMaxWeight(FederatedLearning.DEFAULT_MAX_EXAMPLES_PER_CLIENT,
            RuntimeOptions.WeightPolicy.CLIP);
    Optional<DpSettings.Secure> secure = config.dp().flatMap(DpSettings::secure);
    if (secure.isPresent()) {
      // The DP aggregator's secure sums run SecAgg+ among the simulated clients; the masks are
      // secret, the sum exact, so the run's results do not depend on them.
      options = options.withSecureSum(SecAggPlus.secureSummation(SecAggSettings.of(
          secure.get().neighbours(), secure.get().threshold(), secure.get().bits(),
          Seeds.secAggGraph(config.seed()))));
    }
    this.context = ExecutionContext.create(options);
    this.sampler = new ClientSampler(Seeds.sampler(config.seed()));
    List<List<StructValue>> trainForEval = new ArrayList<>();
    List<String> trainNames = new ArrayList<>();
    for (int k = 0; k < data.clientTrain().size(); k++) {
      trainForEval.add(SequenceValues.of(data.clientTrain().get(k), EVAL_BATCH));
      trainNames.add("training data of client " + k);
    }
    this.trainCohort = new Cohort("train", trainForEval, trainNames);
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
    this.loop = new RoundLoop(context, process, new Datasets(), FailurePolicy.STOP_RUN);
    this.state = loop.initialize();
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
   * Runs round {@code round} (from 1) through the shared {@link RoundLoop}: samples clients,
   * invokes {@code next}, and scores the new model on every client's training data and on the
   * test data.
   *
   * @throws io.tributary.runtime.ExecutionFailedException when the round fails (the simulator
   *     stops the run: {@link FailurePolicy#STOP_RUN})
   */
  public RoundRecord round(int round) {
    RoundReport report;
    try {
      report = loop.round(round, state);
    } catch (InterruptedException e) {
      // A simulated population never waits.
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
    state = report.state();
    RoundOutput.Metrics m = report.metrics().orElseThrow();
    List<String> reasons = new ArrayList<>();
    for (ClientFailure f : report.failures()) {
      reasons.add(RoundReport.describe(f, report.cohort()));
    }
    double[] scores = new double[4];
    int excluded = 0;
    for (int e = 0; e < 2; e++) {
      RoundReport.Evaluation ev = report.evaluations().get(e);
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
    config.dp().ifPresent(dp -> algorithmMetrics.put("epsilon",
        dp.spent(config.samplingRate(), round).epsilon()));
    return new RoundRecord(round, scores[0], scores[1], scores[2], scores[3],
        printable(m.trainLoss()), clients, m.numExamples(), failed, report.seconds(),
        (long) (clients - failed) * parameterBytes, (long) clients * parameterBytes, reasons,
        excluded, algorithmMetrics);
  }

  /** The simulated population: seeded samples of the clients' datasets, shuffled per round. */
  private final class Datasets implements Population {
    @Override
    public Cohort fitCohort(int round) {
      int[] chosen = sampler.sample(round, data.clientTrain().size(), config.clientsPerRound());
      Byzantine byzantine = config.byzantine();
      StructValue[] attacks = byzantine.active()
          ? byzantine.attacks(config.seed(), round, chosen.length) : null;
      boolean[] attacked = new boolean[chosen.length];
      if (attacks != null) {
        for (int p : byzantine.positions(config.seed(), round, chosen.length)) {
          attacked[p] = true;
        }
      }
      List<Object> clientData = new ArrayList<>(chosen.length);
      List<String> names = new ArrayList<>(chosen.length);
      for (int p = 0; p < chosen.length; p++) {
        int k = chosen[p];
        List<StructValue> batches = SequenceValues.shuffled(data.clientTrain().get(k),
            config.batchSize(), Seeds.shuffle(config.seed(), round, k));
        if (attacks == null) {
          clientData.add(batches);
          names.add("client " + k);
        } else {
          clientData.add(ByzantineUpdate.clientData(batches, attacks[p]));
          names.add("client " + k + (attacked[p] ? " (byzantine)" : ""));
        }
      }
      return new Cohort("fit", clientData, names);
    }

    @Override
    public List<Cohort> evaluationCohorts(int round) {
      return List.of(trainCohort, testCohort);
    }
  }

  private StructValue model() {
    return state.struct("model");
  }

  /**
   * Continues from a checkpoint: the global model becomes {@code parameters}, whose names, dtypes
   * and shapes must be the model's; a server optimizer's state (FedAdam's moments and step count)
   * comes from {@code updater}.
   *
   * @throws IllegalArgumentException when the parameters or the optimizer state do not fit the
   *     algorithm, the checkpoint lacks the optimizer state the algorithm keeps, or the
   *     aggregator keeps state (checkpoints do not hold it)
   */
  public void restore(Map<String, Tensor> parameters, Optional<UpdaterState> updater) {
    if (state.names().contains(Optional.of("aggregator"))) {
      throw new IllegalArgumentException("resume: " + config.algorithm().cliName() + "'s "
          + "aggregator keeps state that checkpoints do not hold yet; start a new run");
    }
    List<Object> values = new ArrayList<>(state.values());
    values.set(state.names().indexOf(Optional.of("model")),
        ModelStructs.toValue(modelType, parameters));
    state = StructValue.of(state.names(), values);
    if (updater.isPresent()) {
      state = updater.get().applyTo(state);
    } else if (UpdaterState.of(state).isPresent()) {
      throw new IllegalArgumentException("resume: the checkpoint holds no state of "
          + config.algorithm().cliName() + "'s server optimizer");
    }
  }

  /** The server optimizer's state after the last round; empty when the algorithm keeps none. */
  public Optional<UpdaterState> updaterState() {
    return UpdaterState.of(state);
  }

  /** The current global model's parameters by name. */
  public SequencedMap<String, Tensor> parameters() {
    return new LinkedHashMap<>(ModelStructs.fromValue(modelType, model(), "server model"));
  }

  /** The bytes of one copy of the model's parameters, what each client receives and sends. */
  public long parameterBytes() {
    return parameterBytes;
  }

  /** A float32 metric as the double that prints like the float (0.1f as 0.1, not 0.100000001). */
  private static double printable(float value) {
    return Double.parseDouble(Float.toString(value));
  }

  @Override
  public void close() {
    context.close();
  }
}
