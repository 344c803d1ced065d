package io.tributary.simulation.internal;

import io.tributary.core.types.StructType;
import io.tributary.core.values.StructValue;
import io.tributary.data.Dataset;
import io.tributary.graph.local.GraphBinder;
import io.tributary.graph.local.GraphBindingException;
import io.tributary.graph.local.LocalTraining;
import io.tributary.graph.local.ModelStructs;
import io.tributary.graph.models.Model;
import io.tributary.learning.ClientSampler;
import io.tributary.learning.EvaluationOutput;
import io.tributary.learning.FedAvg;
import io.tributary.learning.FedProx;
import io.tributary.learning.FederatedLearning;
import io.tributary.learning.LearningProcess;
import io.tributary.learning.RoundOutput;
import io.tributary.learning.SequenceValues;
import io.tributary.runtime.ClientFailure;
import io.tributary.runtime.ExecutionContext;
import io.tributary.runtime.LocalComputationException;
import io.tributary.runtime.Outcome;
import io.tributary.runtime.RuntimeOptions;
import io.tributary.simulation.Seeds;
import io.tributary.simulation.SimulationData;
import io.tributary.simulation.SimulationSettings;
import io.tributary.tensor.Finite;
import io.tributary.tensor.Tensor;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SequencedMap;

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
  private final List<List<StructValue>> trainForEval;
  private final List<List<StructValue>> testForEval;
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
    LearningProcess built = switch (config.algorithm()) {
      case FEDAVG -> FedAvg.build(model, config.localEpochs(), config.batchSize(),
          config.learningRate(), modelSeed);
      case FEDPROX -> FedProx.build(model, config.localEpochs(), config.batchSize(),
          config.learningRate(), config.mu(), modelSeed);
    };
    this.process = built.bound(GraphBinder.standard());
    // Client results are checked, not trusted: a failed or non-finite one is left out and
    // reported (any one success suffices, as on the server), and example counts are bounded.
    this.context = ExecutionContext.create(RuntimeOptions.defaults()
        .withThreads(config.threads()).withSeed(config.seed())
        .withMinSuccessFraction(Double.MIN_VALUE)
        .withMaxWeight(FederatedLearning.DEFAULT_MAX_EXAMPLES_PER_CLIENT,
            RuntimeOptions.WeightPolicy.CLIP));
    this.sampler = new ClientSampler(Seeds.sampler(config.seed()));
    this.trainForEval = new ArrayList<>();
    for (Dataset d : data.clientTrain()) {
      trainForEval.add(SequenceValues.of(d, EVAL_BATCH));
    }
    this.testForEval = pieces(data.test());
    long bytes = 0;
    for (Tensor t : model.initialParameters(0).values()) {
      bytes += t.byteSize();
    }
    this.parameterBytes = bytes;
    this.state = (StructValue) context.invoke(process.initialize());
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
   * What {@code next} reported for one round.
   *
   * @param clientLoss the example-weighted mean loss of the clients' local training
   * @param clients the clients sampled
   * @param examples the training examples of the clients whose update was averaged
   * @param failures the sampled clients whose work failed and was excluded
   * @param reasons one line per failure, naming the client
   * @param algorithmMetrics the algorithm's further metrics, by name
   */
  public record Step(double clientLoss, int clients, long examples, int failures,
      List<String> reasons, SequencedMap<String, Double> algorithmMetrics) {}

  /**
   * The loss and accuracy of the current global model on some data, and the pieces of data
   * whose results were not finite and were left out.
   */
  public record Score(double loss, double accuracy, List<String> excluded) {}

  /** Runs round {@code round} (from 1): samples clients and invokes {@code next}. */
  public Step round(int round) {
    int[] chosen = sampler.sample(round, data.clientTrain().size(), config.clientsPerRound());
    List<List<StructValue>> clientData = new ArrayList<>(chosen.length);
    for (int k : chosen) {
      long shuffle = Seeds.shuffle(config.seed(), round, k);
      clientData.add(SequenceValues.shuffled(data.clientTrain().get(k), config.batchSize(),
          shuffle));
    }
    Outcome outcome = context.invokeWithReport(process.next(), state, clientData);
    RoundOutput result = RoundOutput.of(outcome.value());
    StructValue next = result.state();
    // Each update and their mean were checked finite; model + mean can still overflow.
    Map<String, Tensor> model = ModelStructs.fromValue(modelType, next.get("model"),
        "server model");
    Optional<String> bad = Finite.problem(new ArrayList<>(model.values()),
        new ArrayList<>(model.keySet()));
    if (bad.isPresent()) {
      throw new LocalComputationException("the new global model is not finite and is refused: "
          + bad.get());
    }
    state = next;
    List<String> reasons = new ArrayList<>();
    for (ClientFailure f : outcome.report().failures()) {
      // Name the client by its index in the population, not in this round's sample.
      reasons.add(f.describe().replaceFirst("^client " + f.client() + " ",
          "client " + chosen[f.client()] + " "));
    }
    return new Step(printable(result.metrics().trainLoss()), chosen.length,
        result.metrics().numExamples(), outcome.report().failedClients().size(), reasons,
        result.metrics().others());
  }

  /** The current model on every client's training data. */
  public Score scoreTrain() {
    return score(trainForEval, "training data of client ");
  }

  /** The current model on the test data. */
  public Score scoreTest() {
    return score(testForEval, "test piece ");
  }

  private Score score(List<List<StructValue>> pieces, String what) {
    Outcome outcome = context.invokeWithReport(process.evaluate(), model(), pieces);
    EvaluationOutput out = EvaluationOutput.of(outcome.value());
    List<String> excluded = new ArrayList<>();
    for (ClientFailure f : outcome.report().failures()) {
      excluded.add("evaluation on " + what + f.client() + " left out: " + f.message());
    }
    return new Score(printable(out.loss()), printable(out.accuracy()), excluded);
  }

  private StructValue model() {
    return state.struct("model");
  }

  /**
   * Continues from a checkpoint: the global model becomes {@code parameters}, whose names, dtypes
   * and shapes must be the model's. The rest of the server state is the algorithm's initial one
   * (FedAvg's and FedProx's state is the model alone).
   *
   * @throws IllegalArgumentException when the parameters do not fit the model
   */
  public void restore(Map<String, Tensor> parameters) {
    List<Object> values = new ArrayList<>(state.values());
    values.set(state.names().indexOf(Optional.of("model")),
        ModelStructs.toValue(modelType, parameters));
    state = StructValue.of(state.names(), values);
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
