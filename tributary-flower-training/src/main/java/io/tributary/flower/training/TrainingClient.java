package io.tributary.flower.training;

import io.tributary.core.compiler.LocalFunction;
import io.tributary.core.types.StructType;
import io.tributary.core.values.StructValue;
import io.tributary.data.Dataset;
import io.tributary.flower.AbstractFlowerClient;
import io.tributary.flower.ConfigValues;
import io.tributary.flower.EvaluateIns;
import io.tributary.flower.EvaluateRes;
import io.tributary.flower.FitIns;
import io.tributary.flower.FitRes;
import io.tributary.flower.FlowerClientException;
import io.tributary.flower.Scalar;
import io.tributary.graph.local.ClientUpdateConfig;
import io.tributary.graph.local.GraphBinder;
import io.tributary.graph.local.GraphBindingException;
import io.tributary.graph.local.LocalRunException;
import io.tributary.graph.local.LocalTraining;
import io.tributary.graph.local.ModelStructs;
import io.tributary.graph.models.Model;
import io.tributary.learning.graph.SequenceValues;
import io.tributary.tensor.Tensor;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.IntToLongFunction;

/**
 * A {@link io.tributary.flower.FlowerClient} that trains one of Tributary's models on its own data, with the same
 * local-training procedures as {@code tributary simulate} ({@link LocalTraining}).
 *
 * <p><b>Parameter order.</b> Parameters travel as a list in the order of the model's parameter
 * struct ({@link LocalTraining#modelType}), which for the built-in models is declaration order:
 * each layer's {@code kernel} then its {@code bias}, from input to output. A server must send
 * them back in that order; each tensor's dtype and shape are checked against the model before
 * training, and a mismatch fails that fit or evaluation with the reason.
 *
 * <p><b>Fit.</b> Trains from the server's parameters with plain SGD (FedProx's proximal term when
 * {@code proximal_mu > 0}) over the training data, shuffled afresh each fit, and returns the new
 * parameters, the number of training examples and the metric {@code loss}, the example-weighted
 * mean training loss. Config keys, as Flower users send them, override the client's
 * {@link TrainingSettings}: {@code local_epochs} or {@code epochs}, {@code batch_size},
 * {@code lr} or {@code learning_rate}, {@code proximal_mu}. With {@code clipping_norm} C (sent
 * by a server with client-side differential privacy, as Flower's {@code fixedclipping_mod}
 * reads it) the update, new minus the server's parameters, is clipped to L2 norm C over all
 * tensors together before it leaves the client, and the client returns the server's parameters
 * plus the clipped update, and reports the metric {@code norm_bit}: whether the update was
 * within C before clipping (true) or not, as Flower's {@code adaptiveclipping_mod} does, for a
 * server with client-side adaptive clipping, which sends each round's C. With {@code
 * local_noise_stddev} S as well (local differential
 * privacy), Gaussian noise of standard deviation S from a secure generator is added to every
 * element of the clipped update.
 *
 * <p><b>Evaluate.</b> Loss and {@code accuracy} of the server's parameters on the test data, with
 * the number of test examples. {@code getParameters} answers with the client's latest
 * parameters: the seeded initial model until the first fit. Not thread-safe; a runner calls it
 * from one thread.
 */
public final class TrainingClient extends AbstractFlowerClient {
  private static final int EVAL_BATCH = 512;
  private static final int CACHED_UPDATES = 4;

  private final Model model;
  private final StructType modelType;
  private final ModelParameters order;
  private final Dataset train;
  private final List<StructValue> testSet;
  private final int testSize;
  private final TrainingSettings settings;
  private final GraphBinder binder = GraphBinder.standard();
  /** Local DP noise: never seeded, so a client's noise cannot be replayed. */
  private final java.security.SecureRandom noise = new java.security.SecureRandom();
  private final LocalFunction evaluation;
  private final Map<ClientUpdateConfig, LocalFunction> updates =
      new LinkedHashMap<>(8, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<ClientUpdateConfig, LocalFunction> e) {
          return size() > CACHED_UPDATES;
        }
      };
  private final SplittableRandom shuffles;
  private final IntToLongFunction shuffleSeeds;
  private Map<String, Tensor> current;

  /**
   * A client of {@code model} that trains on {@code train} and evaluates on {@code test}.
   *
   * @throws GraphBindingException if the model's local computations cannot be prepared
   */
  public TrainingClient(Model model, Dataset train, Dataset test, TrainingSettings settings)
      throws GraphBindingException {
    this(model, train, test, settings, null);
  }

  /**
   * Like {@link #TrainingClient(Model, Dataset, Dataset, TrainingSettings)}, shuffling round r's
   * data with {@code shuffleSeeds.applyAsLong(r)} whenever the server's fit config names the
   * round ({@code server_round}, as Tributary's server sends it), so that a client can repeat a
   * simulation's shuffling: {@code r -> Seeds.shuffle(seed, r, k)} for client k of a simulation
   * with that seed. Without {@code server_round} in the config it shuffles as the plain
   * constructor does.
   *
   * @throws GraphBindingException if the model's local computations cannot be prepared
   */
  public TrainingClient(Model model, Dataset train, Dataset test, TrainingSettings settings,
      IntToLongFunction shuffleSeeds) throws GraphBindingException {
    this.model = model;
    this.modelType = LocalTraining.modelType(model);
    this.order = new ModelParameters(ModelStructs.parameterNames(modelType).stream()
        .map(n -> model.graph().requireVariable(n)).toList());
    this.train = train;
    this.testSet = SequenceValues.of(test, EVAL_BATCH);
    this.testSize = test.size();
    this.settings = settings;
    this.evaluation = binder.bind(LocalTraining.evaluation(model.name() + "_evaluate", model))
        .body();
    this.shuffles = new SplittableRandom(settings.seed());
    this.shuffleSeeds = shuffleSeeds;
    this.current = model.initialParameters(settings.seed());
  }

  /** The parameter names, in the order parameters travel. */
  public List<String> parameterNames() {
    return ModelStructs.parameterNames(modelType);
  }

  @Override
  public List<Tensor> getParameters(Map<String, Scalar> config) {
    return order.toList(current);
  }

  @Override
  public FitRes fit(FitIns ins) throws FlowerClientException {
    Map<String, Tensor> global = order.byName("fit", ins.parameters());
    Map<String, Scalar> c = ins.config();
    ClientUpdateConfig cfg;
    try {
      cfg = new ClientUpdateConfig(
          ConfigValues.integer(c, settings.localEpochs(), 1, ClientUpdateConfig.MAX_EPOCHS,
              "local_epochs", "epochs"),
          0,
          ConfigValues.real(c, settings.learningRate(), Double.MIN_VALUE, "lr", "learning_rate"),
          ConfigValues.real(c, settings.proximalMu(), 0, "proximal_mu"));
    } catch (IllegalArgumentException e) {
      throw new FlowerClientException("fit: " + e.getMessage(), e);
    }
    int batchSize = ConfigValues.integer(c, settings.batchSize(), 1, Integer.MAX_VALUE,
        "batch_size");
    long seed = shuffles.nextLong();
    if (shuffleSeeds != null && c.containsKey("server_round")) {
      seed = shuffleSeeds.applyAsLong(ConfigValues.integer(c, 0, 1, Integer.MAX_VALUE,
          "server_round"));
    }
    List<StructValue> data = SequenceValues.shuffled(train, batchSize, seed);
    StructValue out;
    try {
      out = (StructValue) update(cfg).apply(StructValue.named(
          "model", ModelStructs.toValue(modelType, global), "data", data));
    } catch (LocalRunException e) {
      throw new FlowerClientException("fit: local training failed: " + e.getMessage(), e);
    }
    // The trained model itself, not global + delta: the server's trained - global is then the
    // same float subtraction the simulator's client update makes.
    current = ModelStructs.fromValue(modelType, out.get("model"), "fit: model");
    double clip = ConfigValues.real(c, Double.NaN, Double.MIN_VALUE, "clipping_norm");
    Map<String, Scalar> metrics = new java.util.LinkedHashMap<>();
    if (!Double.isNaN(clip)) {
      // Whether the update was within C before clipping: what a server's adaptive clipping
      // counts (Flower's adaptiveclipping_mod reports the same).
      metrics.put("norm_bit", Scalar.of(updateNorm(global, current) <= clip));
      current = clipped(global, current, clip);
    }
    double localNoise = ConfigValues.real(c, 0, 0, "local_noise_stddev");
    if (localNoise > 0) {
      if (Double.isNaN(clip)) {
        throw new FlowerClientException("fit: local_noise_stddev needs clipping_norm (local "
            + "noise is scaled to a clipped update)");
      }
      current = noised(current, localNoise);
    }
    long examples = ((Tensor) out.get("num_examples")).getLong(0);
    float loss = ((Tensor) out.get("loss")).getFloat(0);
    metrics.put("loss", Scalar.of((double) loss));
    return new FitRes(order.toList(current), examples, metrics);
  }

  /** The L2 norm of {@code trained - global} over all tensors together. */
  private static double updateNorm(Map<String, Tensor> global, Map<String, Tensor> trained) {
    double sum = 0;
    for (Map.Entry<String, Tensor> e : trained.entrySet()) {
      Tensor g = global.get(e.getKey());
      for (long i = 0; i < e.getValue().size(); i++) {
        double d = e.getValue().getAsDouble(i) - g.getAsDouble(i);
        sum += d * d;
      }
    }
    return Math.sqrt(sum);
  }

  /**
   * {@code params} plus Gaussian noise of standard deviation {@code stddev} on every element,
   * from a cryptographically secure generator: local differential privacy's noise on the update.
   */
  private Map<String, Tensor> noised(Map<String, Tensor> params, double stddev) {
    Map<String, Tensor> out = new java.util.LinkedHashMap<>();
    for (Map.Entry<String, Tensor> e : params.entrySet()) {
      Tensor t = e.getValue();
      io.tributary.tensor.TensorBuilder b =
          io.tributary.tensor.TensorBuilder.allocate(t.dtype(), t.shape());
      for (long i = 0; i < t.size(); i++) {
        b.setFromDouble(i, t.getAsDouble(i) + stddev * noise.nextGaussian());
      }
      out.put(e.getKey(), b.build());
    }
    return out;
  }

  /**
   * {@code global + (trained - global) min(1, C / ||trained - global||)}, the norm over all
   * tensors (Flower's {@code compute_clip_model_update}); {@code trained} itself when within C.
   */
  private static Map<String, Tensor> clipped(Map<String, Tensor> global,
      Map<String, Tensor> trained, double clip) {
    double norm = updateNorm(global, trained);
    if (!(norm > clip)) {
      return trained;
    }
    double scale = clip / norm;
    Map<String, Tensor> out = new java.util.LinkedHashMap<>();
    for (Map.Entry<String, Tensor> e : trained.entrySet()) {
      Tensor t = e.getValue();
      Tensor g = global.get(e.getKey());
      io.tributary.tensor.TensorBuilder b =
          io.tributary.tensor.TensorBuilder.allocate(t.dtype(), t.shape());
      for (long i = 0; i < t.size(); i++) {
        b.setFromDouble(i, g.getAsDouble(i) + (t.getAsDouble(i) - g.getAsDouble(i)) * scale);
      }
      out.put(e.getKey(), b.build());
    }
    return out;
  }

  @Override
  public EvaluateRes evaluate(EvaluateIns ins) throws FlowerClientException {
    Map<String, Tensor> params = order.byName("evaluate", ins.parameters());
    StructValue out;
    try {
      out = (StructValue) evaluation.apply(StructValue.named(
          "model", ModelStructs.toValue(modelType, params), "data", testSet));
    } catch (LocalRunException e) {
      throw new FlowerClientException("evaluate failed: " + e.getMessage(), e);
    }
    float loss = ((Tensor) out.get("loss")).getFloat(0);
    float accuracy = ((Tensor) out.get("accuracy")).getFloat(0);
    return new EvaluateRes(loss, testSize,
        Map.of("accuracy", Scalar.of((double) accuracy)));
  }

  private LocalFunction update(ClientUpdateConfig cfg) throws FlowerClientException {
    LocalFunction f = updates.get(cfg);
    if (f == null) {
      try {
        f = binder.bind(LocalTraining.clientTraining(model.name() + "_client_update", model, cfg))
            .body();
      } catch (GraphBindingException e) {
        throw new FlowerClientException("fit: cannot prepare local training: " + e.getMessage(),
            e);
      }
      updates.put(cfg, f);
    }
    return f;
  }
}
