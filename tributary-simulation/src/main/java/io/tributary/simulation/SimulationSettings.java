package io.tributary.simulation;

import io.tributary.data.CsvClients;
import io.tributary.data.ParquetClients;
import io.tributary.data.DatasetFormatException;
import io.tributary.data.FederatedSource;
import io.tributary.data.GzipLimits;
import io.tributary.data.NpzClients;
import io.tributary.graph.local.ClientOptimizer;
import io.tributary.learning.FederatedAlgorithm;
import io.tributary.learning.MetricAggregation;
import io.tributary.learning.SettingException;
import io.tributary.learning.Topology;
import io.tributary.learning.rounds.output.RunFileException;
import io.tributary.privacy.PrivacySpent;
import io.tributary.privacy.aggregation.DpSettings;
import io.tributary.privacy.aggregation.TieredDp;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SequencedMap;
import java.util.TreeMap;

/**
 * Every setting of one simulation, validated: what {@code config.json} records, so that the same
 * settings (the seed included) repeat the run exactly. A setting out of range is a {@link
 * SettingException} naming it as this class does ({@code clients must be in [1, 100000], got
 * 0}); {@code tributary simulate} spells the same problem with its flag.
 *
 * <p>{@link #builder()} starts from the defaults of {@code tributary simulate} and resolves the
 * defaults that depend on other settings (the model, the partition, the clients per round).
 *
 * @param algorithm the run's algorithm: one of the registry ({@link FederatedAlgorithm#named},
 *     recorded by its name and options, its proximal coefficient being {@code mu}) or one
 *     composed in code (recorded by its parts; only code repeats it)
 * @param dataset the data
 * @param dataDir the directory of file-based data, or null for the dataset's default location
 * @param partition {@code iid}, {@code dirichlet:ALPHA} or {@code shards:K}; {@code natural} for
 *     data that come split by device
 * @param model the network
 * @param clients the population size N
 * @param clientsPerRound the clients sampled each round, K in [1, N]
 * @param rounds the number of rounds R
 * @param localEpochs local epochs E per client update
 * @param batchSize the local batch size B
 * @param learningRate the client optimizer's step size (SGD's learning rate by default)
 * @param mu the FedProx proximal coefficient (0 for fedavg)
 * @param byzantine the Byzantine clients of every round ({@link Byzantine#NONE} for none)
 * @param seed the one seed every random choice of the run derives from
 * @param threads the client worker threads
 * @param checkpointEvery rounds between checkpoints in {@code model.zip} (the last round always
 *     gets one)
 * @param out the output directory, or null for a run that writes no files
 * @param dp differentially private aggregation ({@code --dp}), or empty for none
 * @param clientOptimizer the optimizer of the client updates, with step size {@code learningRate}
 *     ({@code --client-optimizer}, default sgd); its state starts afresh every round
 * @param clientMetrics how a client metric of the evaluation ({@code loss}, {@code accuracy}) is
 *     aggregated over the clients ({@code --client-metric NAME=HOW}); a metric not named is
 *     averaged weighted by examples
 * @param engine where the client work runs ({@code --engine}, default {@link Engine#LOCAL}); the
 *     results do not depend on it
 * @param others the values of the schema's other settings ({@link SettingsSchema.Setting}), by
 *     key; a setting left out has its default
 */
public record SimulationSettings(FederatedAlgorithm algorithm, DatasetSpec dataset, Path dataDir,
    String partition, ModelKind model, int clients, int clientsPerRound, int rounds,
    int localEpochs, int batchSize, double learningRate, double mu, Byzantine byzantine,
    long seed, int threads, int checkpointEvery, Path out, Optional<DpSettings> dp,
    ClientOptimizer clientOptimizer,
    SequencedMap<String, MetricAggregation> clientMetrics, Engine engine,
    SequencedMap<String, Object> others) {

  /** The client metrics a simulation's evaluation reports, which {@code --client-metric} names. */
  public static final List<String> CLIENT_METRICS = List.of("accuracy", "loss");

  /** {@code --client-metric}'s spelling of an aggregation: {@code weighted_mean}, {@code max}. */
  public static String metricName(MetricAggregation how) {
    return how.name().toLowerCase(Locale.ROOT);
  }

  /** The most clients a population of held data may have; each needs its dataset in memory. */
  public static final int MAX_CLIENTS = 100_000;
  /**
   * The most clients of a generated population ({@code --dataset generated}), whose data are made
   * on demand: a round's cohort costs a few bytes per client on the driver.
   */
  public static final int MAX_GENERATED_CLIENTS = 10_000_000;
  /** The most rounds, so that a typo cannot start a run that never ends. */
  public static final int MAX_ROUNDS = 1_000_000;
  /** The most local epochs, the limit the client update enforces. */
  public static final int MAX_EPOCHS = 10_000;
  /** The most worker threads. */
  public static final int MAX_THREADS = 1024;

  /**
   * Checks every setting.
   *
   * @throws IllegalArgumentException naming the first setting out of range or not applicable
   */
  public SimulationSettings {
    Objects.requireNonNull(algorithm, "algorithm");
    Objects.requireNonNull(dataset, "dataset");
    if (RunAlgorithm.proximal(algorithm) && Double.isFinite(mu) && mu >= 0) {
      // The registry's algorithm with the run's proximal coefficient: what the run trains.
      algorithm = RunAlgorithm.withMu(algorithm, mu);
    }
    Objects.requireNonNull(partition, "partition");
    Objects.requireNonNull(model, "model");
    Objects.requireNonNull(byzantine, "byzantine");
    Objects.requireNonNull(clientOptimizer, "clientOptimizer");
    Objects.requireNonNull(engine, "engine");
    clientMetrics = Collections.unmodifiableSequencedMap(new TreeMap<>(clientMetrics));
    // A value equal to its default is left out, so that settings that run alike are equal.
    SequencedMap<String, Object> given = new TreeMap<>();
    for (var e : others.entrySet()) {
      SettingsSchema.Setting<?> setting = SettingsSchema.setting(e.getKey());
      if (!setting.check(e.getValue()).equals(setting.defaultValue())) {
        given.put(e.getKey(), e.getValue());
      }
    }
    others = Collections.unmodifiableSequencedMap(given);
    if (others.containsKey(SettingsSchema.MODEL_FILE.name())
        && others.containsKey(SettingsSchema.MODEL_CODE.name())) {
      throw new SettingException("model", "{model} is a file and a model built in code at once");
    }
    for (String name : clientMetrics.keySet()) {
      if (!CLIENT_METRICS.contains(name)) {
        throw new SettingException("clientMetrics", "{clientMetrics}: the clients report "
            + String.join(" and ", CLIENT_METRICS) + ", not '" + name + "'");
      }
    }
    range("clients", clients, 1, dataset.generated() ? MAX_GENERATED_CLIENTS : MAX_CLIENTS);
    if (dataset instanceof DatasetSpec.Provided p && p.source().clients() != clients) {
      throw new SettingException("clients", "{clients} must be the " + p.source().clients()
          + " clients of the data given in code (" + p.source().name() + "), got " + clients);
    }
    range("clientsPerRound", clientsPerRound, 1, clients);
    range("rounds", rounds, 1, MAX_ROUNDS);
    range("localEpochs", localEpochs, 1, MAX_EPOCHS);
    range("batchSize", batchSize, 1, Integer.MAX_VALUE);
    range("threads", threads, 1, MAX_THREADS);
    range("checkpointEvery", checkpointEvery, 1, MAX_ROUNDS);
    if (!(learningRate > 0) || !Double.isFinite(learningRate)) {
      throw new SettingException("learningRate", "{learningRate} must be positive and finite, "
          + "got " + learningRate);
    }
    if (!(mu >= 0) || !Double.isFinite(mu)) {
      throw new SettingException("mu", "{mu} must be finite and >= 0, got " + mu);
    }
    if (byzantine.clients() > clientsPerRound) {
      throw new SettingException("byzantine", "{byzantine}: K must be at most "
          + "{clientsPerRound} (" + clientsPerRound + "), got " + byzantine.clients());
    }
    if (!RunAlgorithm.proximal(algorithm) && mu != 0) {
      throw noProximalTerm(algorithm);
    }
    if (dataDir != null && !dataset.fileBased()) {
      throw new SettingException("dataDir", "{dataDir} applies only to file-based datasets "
          + "(fashion-mnist); " + dataset + " needs no files");
    }
    if (dataset.naturallyPartitioned() != partition.equals("natural")) {
      throw dataset.naturallyPartitioned() ? partitionNotApplicable(dataset)
          : new SettingException("partition", "{partition} 'natural' applies only to data "
              + "split by device");
    }
    if (algorithm.topology() instanceof Topology.Hierarchical h
        && clientsPerRound < h.edges()) {
      throw new SettingException("clientsPerRound", "{clientsPerRound} must be at least {edges} "
          + "(" + h.edges() + "): every edge needs a client each round, got " + clientsPerRound);
    }
    Objects.requireNonNull(dp, "dp");
    Topology topology = algorithm.topology();
    if (!others.getOrDefault(SettingsSchema.DP_AT.name(), "server").equals("server")
        && (dp.isEmpty() || !(topology instanceof Topology.Hierarchical))) {
      throw new SettingException("dpAt", "{dpAt} applies only to {dp} with {algorithm} "
          + "hierfavg");
    }
    if (dp.isPresent() && topology instanceof Topology.Hierarchical h) {
      try {
        dp.get().tiered(TieredDp.NoiseAt.parse((String) others.getOrDefault(
            SettingsSchema.DP_AT.name(), "server")), h.edgeRounds(), 0);
      } catch (IllegalArgumentException e) {
        throw new SettingException("dpAt", "{dp} through edges: " + e.getMessage());
      }
    }
    if (dp.isPresent()) {
      try {
        dp.get().checkFor(clientsPerRound);
      } catch (IllegalArgumentException e) {
        // DpSettings names its own components (clippedCountStddev), as its record does.
        throw new SettingException("dp", e.getMessage());
      }
      DpSettings.requireAveraging(algorithm);
    }
  }

  /** Settings whose other settings ({@link SettingsSchema.Setting}) all have their defaults. */
  public SimulationSettings(FederatedAlgorithm algorithm, DatasetSpec dataset, Path dataDir,
      String partition, ModelKind model, int clients, int clientsPerRound, int rounds,
      int localEpochs, int batchSize, double learningRate, double mu, Byzantine byzantine,
      long seed, int threads, int checkpointEvery, Path out, Optional<DpSettings> dp,
      ClientOptimizer clientOptimizer, SequencedMap<String, MetricAggregation> clientMetrics,
      Engine engine) {
    this(algorithm, dataset, dataDir, partition, model, clients, clientsPerRound, rounds,
        localEpochs, batchSize, learningRate, mu, byzantine, seed, threads, checkpointEvery, out,
        dp, clientOptimizer, clientMetrics, engine, new TreeMap<>());
  }

  /** Whether the clients train the user's model (a model file or one built in code). */
  public boolean userModel() {
    return !get(SettingsSchema.MODEL_FILE).isEmpty() || get(SettingsSchema.MODEL_CODE) != null;
  }

  /** The model as the command line and the report name it: a built-in's name, a file, code. */
  public String modelName() {
    if (!get(SettingsSchema.MODEL_FILE).isEmpty()) {
      return get(SettingsSchema.MODEL_FILE);
    }
    UserModel code = get(SettingsSchema.MODEL_CODE);
    return code != null ? "code:" + code.model().name() : model.cliName();
  }

  /**
   * The value of {@code setting}: the one given, or its default.
   *
   * @param <T> the setting's type
   */
  public <T> T get(SettingsSchema.Setting<T> setting) {
    Object v = others.get(setting.name());
    return v == null ? setting.defaultValue() : setting.type().cast(v);
  }

  /** Settings that run on this JVM's threads ({@link Engine#LOCAL}). */
  public SimulationSettings(FederatedAlgorithm algorithm, DatasetSpec dataset, Path dataDir,
      String partition, ModelKind model, int clients, int clientsPerRound, int rounds,
      int localEpochs, int batchSize, double learningRate, double mu, Byzantine byzantine,
      long seed, int threads, int checkpointEvery, Path out, Optional<DpSettings> dp,
      ClientOptimizer clientOptimizer, SequencedMap<String, MetricAggregation> clientMetrics) {
    this(algorithm, dataset, dataDir, partition, model, clients, clientsPerRound, rounds,
        localEpochs, batchSize, learningRate, mu, byzantine, seed, threads, checkpointEvery, out,
        dp, clientOptimizer, clientMetrics, Engine.LOCAL);
  }

  /** Settings without differential privacy. */
  public SimulationSettings(FederatedAlgorithm algorithm, DatasetSpec dataset, Path dataDir,
      String partition, ModelKind model, int clients, int clientsPerRound, int rounds,
      int localEpochs, int batchSize, double learningRate, double mu, long seed, int threads,
      int checkpointEvery, Path out) {
    this(algorithm, dataset, dataDir, partition, model, clients, clientsPerRound, rounds,
        localEpochs, batchSize, learningRate, mu, Byzantine.NONE, seed, threads, checkpointEvery,
        out, Optional.empty(), ClientOptimizer.sgd(), new TreeMap<>(), Engine.LOCAL);
  }

  /**
   * The sampling rate of the privacy accounting (fixed-size sampling): q = K / N, or through
   * edges the largest share of its own clients an edge draws ({@link
   * Topology.Hierarchical#samplingRate}).
   */
  public double samplingRate() {
    return algorithm.topology() instanceof Topology.Hierarchical h
        ? h.samplingRate(clients, clientsPerRound) : (double) clientsPerRound / clients;
  }

  /** Where a private hierarchical run adds its noise ({@link SettingsSchema#DP_AT}). */
  public TieredDp.NoiseAt noiseAt() {
    return TieredDp.NoiseAt.parse((String) others.getOrDefault(SettingsSchema.DP_AT.name(),
        "server"));
  }

  /**
   * The private aggregation through edges of a private hierarchical run, its seeded noise (if
   * asked for) drawn from {@code noiseSeed}; empty for a run without {@link #dp} or without
   * edges.
   */
  public Optional<TieredDp> tieredDp(long noiseSeed) {
    return dp.isPresent() && algorithm.topology() instanceof Topology.Hierarchical h
        ? Optional.of(dp.get().tiered(noiseAt(), h.edgeRounds(), noiseSeed)) : Optional.empty();
  }

  /**
   * The privacy spent after {@code rounds} rounds of a run with {@link #dp}: the RDP
   * accountant's epsilon at the settings' delta, at the noise multiplier the aggregation
   * actually gives each client ({@link TieredDp#accountedNoiseMultiplier} through edges).
   *
   * @throws java.util.NoSuchElementException without {@link #dp}
   */
  public PrivacySpent privacySpent(long rounds) {
    Optional<TieredDp> tiered = tieredDp(0);
    return tiered.isPresent()
        ? tiered.get().spent(samplingRate(), rounds, dp.orElseThrow().delta())
        : dp.orElseThrow().spent(samplingRate(), rounds);
  }

  private static void range(String setting, long v, long lo, long hi) {
    if (v < lo || v > hi) {
      throw new SettingException(setting, "{" + setting + "} must be in [" + lo + ", " + hi
          + "], got " + v);
    }
  }

  /**
   * The prefix of an algorithm option's name in a {@link SettingException}: {@code
   * hyperparameters.beta_1} is the option {@code beta_1}.
   */
  public static final String HYPERPARAMETER = "hyperparameters.";

  /**
   * The registry's algorithm {@code name} with {@code options} over its defaults, checked as
   * {@link Builder#algorithm(String, Map)} checks them; FedProx's {@code proximal_mu} is the
   * run's {@link #mu}, not an option.
   *
   * @throws IllegalArgumentException naming the unknown algorithm, an option it does not take (a
   *     {@link SettingException} naming it {@code hyperparameters.NAME}) or a value out of range
   */
  public static FederatedAlgorithm namedAlgorithm(String name, Map<String, Double> options) {
    return RunAlgorithm.named(name, options);
  }

  /**
   * Whether a run's clients train with a proximal term of its {@link #mu}: {@code algorithm} is
   * the registry's and its spec takes {@code proximal_mu}, as FedProx's does.
   */
  public static boolean proximal(FederatedAlgorithm algorithm) {
    return RunAlgorithm.proximal(algorithm);
  }

  /**
   * The command-line flag of an algorithm option: its own flag, such as {@code --beta1} for
   * {@code beta_1}, or {@code --hp NAME} for one without (a registered algorithm's).
   */
  public static String hyperparameterFlag(String hyperparameter) {
    return RunAlgorithm.flag(hyperparameter);
  }

  /** Whether an algorithm option has a flag of its own (else {@code --hp NAME=VALUE} sets it). */
  public static boolean hasOwnFlag(String hyperparameter) {
    return RunAlgorithm.hasOwnFlag(hyperparameter);
  }

  private static SettingException noProximalTerm(FederatedAlgorithm algorithm) {
    return new SettingException("mu", "{mu} applies only to {algorithm} fedprox ("
        + algorithm.name() + " has no proximal term)");
  }

  private static SettingException partitionNotApplicable(DatasetSpec dataset) {
    return new SettingException("partition", "{partition} does not apply to " + dataset
        + ": its data come split by device, one device per client");
  }

  /**
   * The settings as {@code config.json}: every key of the {@link SettingsSchema}, one per line,
   * in a fixed order, with the command that repeats the run.
   */
  public String toJson() {
    return SettingsSchema.write(this);
  }

  /**
   * The settings a {@code config.json} holds (what {@link #toJson} wrote), validated.
   *
   * @throws SettingsFileException naming the key that is missing, unknown or wrong
   */
  public static SimulationSettings fromJson(String json) throws SettingsFileException {
    return SettingsSchema.read(json);
  }

  /**
   * The settings of the run in {@code dir}, from its {@code config.json}.
   *
   * @throws SettingsFileException naming the key that is missing, unknown or wrong
   * @throws IOException when the file cannot be read or is larger than a settings file can be
   */
  public static SimulationSettings read(Path dir) throws IOException {
    Path file = dir.resolve(RunFiles.CONFIG);
    if (!Files.isRegularFile(file)) {
      throw new RunFileException("holds no run (no " + RunFiles.CONFIG + ")");
    }
    if (Files.size(file) > SettingsSchema.MAX_BYTES) {
      throw new SettingsFileException(null, "is larger than " + SettingsSchema.MAX_BYTES
          + " bytes, which no settings are");
    }
    return fromJson(Files.readString(file));
  }

  /** The settings for the report's table, in display form. */
  public SequencedMap<String, String> display() {
    SequencedMap<String, String> m = new LinkedHashMap<>();
    m.put("algorithm", algorithm.name());
    RunAlgorithm.options(algorithm).forEach((k, v) -> m.put(k, number(v)));
    m.put("dataset", dataset.toString());
    datasetOptions().forEach((k, v) -> m.put(k.replace('_', ' '), v));
    if (dataDir != null) {
      m.put("data directory", dataDir.toString());
    }
    m.put("partition", partition);
    m.put("model", modelName());
    m.put("clients", Integer.toString(clients));
    m.put("clients per round", Integer.toString(clientsPerRound));
    m.put("rounds", Integer.toString(rounds));
    m.put("local epochs", Integer.toString(localEpochs));
    m.put("batch size", Integer.toString(batchSize));
    m.put("learning rate", number(learningRate));
    if (!clientOptimizer.isSgd()) {
      m.put("client optimizer", clientOptimizer.name());
      clientOptimizer.hyperparameters().forEach((k, v) -> m.put("client " + k, number(v)));
    }
    clientMetrics.forEach((k, v) -> m.put("client " + k, metricName(v)));
    m.put("mu", number(mu));
    if (byzantine.active()) {
      m.put("byzantine", byzantine.toString());
    }
    m.put("seed", Long.toString(seed));
    m.put("threads", Integer.toString(threads));
    if (engine instanceof Engine.Cluster c) {
      m.put("engine", c.master() + (c.partitions() == 0 ? "" : ", " + c.partitions()
          + " partitions"));
    }
    m.put("checkpoint every", checkpointEvery + " rounds");
    if (out != null) {
      m.put("output directory", out.toString());
    }
    dp.ifPresent(d -> d.describe().forEach((k, v) -> m.put(k.replace('_', ' '), v)));
    for (SettingsSchema.Setting<?> o : SettingsSchema.others()) {
      if (o != SettingsSchema.MODEL_FILE && o != SettingsSchema.MODEL_CODE) {
        m.put(o.name().replace('_', ' '), o.text(this));
      }
    }
    m.put("command", shellCommand());
    return m;
  }

  /**
   * The command that repeats this run: every setting spelled out, so later changes of the
   * defaults cannot change what it does. The thread count is included although results do not
   * depend on it.
   */
  public List<String> commandLine() {
    List<String> c = new ArrayList<>(List.of("tributary", "simulate",
        "--algorithm", algorithm.name(), "--dataset", dataset.toString()));
    datasetOptions().forEach((k, v) -> c.addAll(List.of("--" + k.replace('_', '-'), v)));
    if (dataDir != null) {
      c.addAll(List.of("--data-dir", dataDir.toString()));
    }
    if (!dataset.naturallyPartitioned()) {
      c.addAll(List.of("--partition", partition));
    }
    c.addAll(List.of("--model", modelName(), "--clients", Integer.toString(clients),
        "--clients-per-round", Integer.toString(clientsPerRound), "--rounds",
        Integer.toString(rounds), "--local-epochs", Integer.toString(localEpochs),
        "--batch-size", Integer.toString(batchSize), "--lr", number(learningRate)));
    if (!clientOptimizer.isSgd()) {
      c.addAll(List.of("--client-optimizer", clientOptimizer.name()));
      clientOptimizer.hyperparameters().forEach((k, v) -> c.addAll(List.of(clientFlag(k),
          number(v))));
    }
    clientMetrics.forEach((k, v) -> c.addAll(List.of("--client-metric",
        k + "=" + metricName(v))));
    if (RunAlgorithm.proximal(algorithm)) {
      c.addAll(List.of("--mu", number(mu)));
    }
    c.addAll(RunAlgorithm.commandWords(algorithm));
    if (byzantine.active()) {
      c.addAll(List.of("--byzantine", byzantine.toString()));
    }
    c.addAll(List.of("--seed", Long.toString(seed), "--threads", Integer.toString(threads),
        "--checkpoint-every", Integer.toString(checkpointEvery)));
    // Spelled only when not the default, so that the commands of java-kernel runs stay as they were.
    if (!get(SettingsSchema.KERNEL).equals(SettingsSchema.KERNEL.defaultValue())) {
      c.addAll(List.of("--kernel", get(SettingsSchema.KERNEL)));
    }
    if (engine instanceof Engine.Cluster cluster) {
      c.addAll(List.of("--engine", cluster.master(), "--partitions",
          Integer.toString(cluster.partitions())));
      cluster.settings().forEach((k, v) -> c.addAll(List.of("--spark-conf", k + "=" + v)));
    }
    if (out != null) {
      c.addAll(List.of("--out", out.toString()));
    }
    dp.ifPresent(d -> c.addAll(d.commandLine()));
    c.addAll(SettingsSchema.setWords(this));
    return c;
  }

  /**
   * The options of the user's file data, by {@code config.json} key ({@code client_column},
   * {@code label_column}, {@code feature_columns} as a comma-separated list, {@code
   * test_fraction}); empty for other data.
   */
  public SequencedMap<String, String> datasetOptions() {
    SequencedMap<String, String> m = new LinkedHashMap<>();
    if (dataset instanceof DatasetSpec.Table csv) {
      m.put("client_column", csv.clientColumn());
      m.put("label_column", csv.labelColumn());
      if (!csv.featureColumns().isEmpty()) {
        m.put("feature_columns", String.join(",", csv.featureColumns()));
      }
      m.put("test_fraction", number(csv.testFraction()));
    } else if (dataset instanceof DatasetSpec.NpzDir npz) {
      m.put("test_fraction", number(npz.testFraction()));
    }
    return m;
  }

  /**
   * {@link #commandLine()} as one line a POSIX shell reads back into the same words; settings
   * that exist only in code (an algorithm composed in code, data or a model given in code) are
   * named in a comment at its end, since the command cannot repeat them.
   */
  public String shellCommand() {
    StringBuilder s = new StringBuilder();
    for (String w : commandLine()) {
      if (!s.isEmpty()) {
        s.append(' ');
      }
      s.append(w.matches("[A-Za-z0-9_./:,=+-]+") ? w : "'" + w.replace("'", "'\\''") + "'");
    }
    List<String> codeOnly = codeOnly();
    if (!codeOnly.isEmpty()) {
      s.append("  # not repeatable from the command line, given in code: ")
          .append(String.join(", ", codeOnly));
    }
    return s.toString();
  }

  /** The settings that exist only in code, which no command line can repeat. */
  public List<String> codeOnly() {
    List<String> out = new ArrayList<>();
    if (!RunAlgorithm.registered(algorithm)) {
      out.add("the algorithm " + algorithm.name() + " (composed in code)");
    }
    if (dataset instanceof DatasetSpec.Provided) {
      out.add("the data " + dataset + " (Builder.data)");
    }
    if (get(SettingsSchema.MODEL_CODE) != null) {
      out.add("the model " + modelName() + " (Builder.model)");
    }
    return out;
  }

  /**
   * The {@code tributary simulate} flag of a client optimizer hyperparameter: {@code
   * --client-} and the name with dashes ({@code --client-beta1}, {@code
   * --client-initial-accumulator}).
   */
  public static String clientFlag(String hyperparameter) {
    return "--client-" + hyperparameter.replace('_', '-');
  }

  static String number(double v) {
    return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v)
        : String.valueOf(v).toLowerCase(Locale.ROOT);
  }

  /** A builder holding {@code tributary simulate}'s defaults. */
  public static Builder builder() {
    return new Builder();
  }

  /** These settings writing to {@code dir} (null for none). */
  public SimulationSettings withOut(Path dir) {
    return new SimulationSettings(algorithm, dataset, dataDir, partition, model, clients,
        clientsPerRound, rounds, localEpochs, batchSize, learningRate, mu, byzantine, seed,
        threads, checkpointEvery, dir, dp, clientOptimizer, clientMetrics, engine, others);
  }

  /** These settings with {@code n} worker threads; the results do not depend on it. */
  public SimulationSettings withThreads(int n) {
    return new SimulationSettings(algorithm, dataset, dataDir, partition, model, clients,
        clientsPerRound, rounds, localEpochs, batchSize, learningRate, mu, byzantine, seed,
        n, checkpointEvery, out, dp, clientOptimizer, clientMetrics, engine, others);
  }

  /** These settings running on {@code where}; the results do not depend on it. */
  public SimulationSettings withEngine(Engine where) {
    return new SimulationSettings(algorithm, dataset, dataDir, partition, model, clients,
        clientsPerRound, rounds, localEpochs, batchSize, learningRate, mu, byzantine, seed,
        threads, checkpointEvery, out, dp, clientOptimizer, clientMetrics, where, others);
  }

  /**
   * Collects settings; every one has {@code tributary simulate}'s default, and {@link #build}
   * resolves the defaults that depend on others and validates the whole.
   */
  public static final class Builder {
    /** The default number of clients. */
    public static final int DEFAULT_CLIENTS = 10;
    /** The default clients per round (or all of them when there are fewer). */
    public static final int DEFAULT_CLIENTS_PER_ROUND = 5;
    /** The default number of rounds. */
    public static final int DEFAULT_ROUNDS = 30;
    /** The default local epochs. */
    public static final int DEFAULT_LOCAL_EPOCHS = 2;
    /** The default local batch size. */
    public static final int DEFAULT_BATCH_SIZE = 16;
    /** The default client learning rate. */
    public static final double DEFAULT_LR = 0.1;
    /** FedProx's default proximal coefficient. */
    public static final double DEFAULT_MU = 0.01;
    /** The default seed. */
    public static final long DEFAULT_SEED = 1;
    /** The default rounds between checkpoints. */
    public static final int DEFAULT_CHECKPOINT_EVERY = 10;

    private FederatedAlgorithm algorithm = FederatedAlgorithm.fedAvg();
    private DatasetSpec dataset = new DatasetSpec.Digits();
    private Path dataDir;
    private String partition;
    private ModelKind model;
    private Integer clients;
    private Integer clientsPerRound;
    private int rounds = DEFAULT_ROUNDS;
    private int localEpochs = DEFAULT_LOCAL_EPOCHS;
    private int batchSize = DEFAULT_BATCH_SIZE;
    private double learningRate = DEFAULT_LR;
    private Double mu;
    private Byzantine byzantine = Byzantine.NONE;
    private long seed = DEFAULT_SEED;
    private Integer threads;
    private int checkpointEvery = DEFAULT_CHECKPOINT_EVERY;
    private Path out;
    private DpSettings dp;
    private Double dpTargetEpsilon;
    private String clientOptimizerName = "sgd";
    private final SequencedMap<String, MetricAggregation> clientMetrics = new TreeMap<>();
    private Map<String, Double> clientHyperparameters = Map.of();
    private Engine engine = Engine.LOCAL;
    private final SequencedMap<String, Object> others = new TreeMap<>();

    private Builder() {}

    /**
     * One of the schema's other settings, such as {@link SettingsSchema#TRAIN_EVAL_EVERY}
     * (default: the setting's own); checked by {@link #build}.
     *
     * @param <T> the setting's type
     */
    public <T> Builder set(SettingsSchema.Setting<T> setting, T value) {
      others.put(setting.name(), setting.type().cast(Objects.requireNonNull(value, "value")));
      return this;
    }

    /**
     * The algorithm (default FedAvg): one of the registry ({@link FederatedAlgorithm#named}),
     * whose proximal coefficient, if it takes one, the run's {@link #mu} sets, or one composed
     * in code.
     */
    public Builder algorithm(FederatedAlgorithm a) {
      this.algorithm = Objects.requireNonNull(a, "algorithm");
      return this;
    }

    /**
     * The registry's algorithm {@code name} with {@code options} over its defaults, as {@code
     * --algorithm NAME} and its flags (or {@code --hp NAME=VALUE}) give them; FedProx's {@code
     * proximal_mu} is {@link #mu}, not an option.
     *
     * @throws IllegalArgumentException naming the unknown algorithm, an option it does not take
     *     (a {@link SettingException} naming it {@code hyperparameters.NAME}) or a value out of
     *     range
     */
    public Builder algorithm(String name, Map<String, Double> options) {
      return algorithm(RunAlgorithm.named(name, options));
    }

    /** The data (default the embedded digits). */
    public Builder dataset(DatasetSpec d) {
      this.dataset = Objects.requireNonNull(d, "dataset");
      return this;
    }

    /**
     * The user's data built in code: the clients (held, made or read on demand, see {@link
     * FederatedSource}) and the test set. The clients default to the source's; the data are
     * recorded by name only ({@code code:NAME}), so a resumed run must be given them again and a
     * cluster engine cannot run them (use {@code csv:} or {@code npz-dir:} files there).
     */
    public Builder data(FederatedSource source) {
      return dataset(new DatasetSpec.Provided(source));
    }

    /** Where file-based data are read (default the dataset's own location). */
    public Builder dataDir(Path dir) {
      this.dataDir = dir;
      return this;
    }

    /**
     * How pooled data are split: {@code iid}, {@code dirichlet:ALPHA} or {@code shards:K}
     * (default iid; data split by device take none).
     */
    public Builder partition(String p) {
      this.partition = p;
      return this;
    }

    /** The network (default mlp for pooled data, mclr for data split by device). */
    public Builder model(ModelKind m) {
      this.model = m;
      others.remove(SettingsSchema.MODEL_FILE.name());
      others.remove(SettingsSchema.MODEL_CODE.name());
      return this;
    }

    /**
     * The user's model file: an ADR-0001 {@code model.zip} whose newest tag holds the graph and
     * the parameters training starts from (such as a run's own {@code model.zip}); see {@link
     * UserModel#read}. Recorded as the path.
     */
    public Builder model(Path modelFile) {
      this.model = null;
      others.remove(SettingsSchema.MODEL_CODE.name());
      return set(SettingsSchema.MODEL_FILE, modelFile.toString());
    }

    /**
     * The user's classifier graph, starting from the seeded initial parameters every model gets;
     * recorded by name only, so a resumed run must be given it again.
     */
    public Builder model(io.tributary.graph.models.Model graph) {
      return model(UserModel.of(graph));
    }

    /** The user's model, with the parameters training starts from if it brings them. */
    public Builder model(UserModel userModel) {
      this.model = null;
      others.remove(SettingsSchema.MODEL_FILE.name());
      return set(SettingsSchema.MODEL_CODE, Objects.requireNonNull(userModel, "userModel"));
    }

    /**
     * The population size (default 10; for the user's data, the data's own number of clients,
     * which a given value must equal).
     */
    public Builder clients(int n) {
      this.clients = n;
      return this;
    }

    /** Clients sampled each round (default 5, or all when fewer). */
    public Builder clientsPerRound(int k) {
      this.clientsPerRound = k;
      return this;
    }

    /** The number of rounds (default 30). */
    public Builder rounds(int r) {
      this.rounds = r;
      return this;
    }

    /** Local epochs per client update (default 2). */
    public Builder localEpochs(int e) {
      this.localEpochs = e;
      return this;
    }

    /** The local batch size (default 16). */
    public Builder batchSize(int b) {
      this.batchSize = b;
      return this;
    }

    /** The client learning rate, the client optimizer's step size (default 0.1). */
    public Builder learningRate(double lr) {
      this.learningRate = lr;
      return this;
    }

    /** FedProx's proximal coefficient (default 0.01 for FedProx; FedAvg takes none). */
    public Builder mu(double m) {
      this.mu = m;
      return this;
    }

    /**
     * The Byzantine clients of every round (default {@link Byzantine#NONE}); at most the clients
     * per round.
     */
    public Builder byzantine(Byzantine b) {
      this.byzantine = Objects.requireNonNull(b, "byzantine");
      return this;
    }

    /** The one seed of every random choice (default 1); see {@link Seeds}. */
    public Builder seed(long s) {
      this.seed = s;
      return this;
    }

    /** Worker threads for client work (default the processors); results do not depend on it. */
    public Builder threads(int t) {
      this.threads = t;
      return this;
    }

    /** Rounds between checkpoints in {@code model.zip} (default 10; the last round gets one). */
    public Builder checkpointEvery(int c) {
      this.checkpointEvery = c;
      return this;
    }

    /** The output directory recorded in the settings (default none). */
    public Builder out(Path dir) {
      this.out = dir;
      return this;
    }

    /**
     * Where the client work runs (default {@link Engine#LOCAL}): a {@link Engine.Cluster} needs
     * its engine on the class path (tributary-spark for Spark); the results are the same bits.
     */
    public Builder engine(Engine where) {
      this.engine = Objects.requireNonNull(where, "engine");
      return this;
    }

    /**
     * Differentially private aggregation (default none); {@link DpSettings#builder} names its
     * parts.
     */
    public Builder dp(DpSettings settings) {
      this.dp = settings;
      return this;
    }

    /**
     * Aims the differential privacy at {@code epsilon}: {@link #build} replaces the noise
     * multiplier of {@link #dp} with the smallest that spends at most {@code epsilon} at its delta
     * over the run's rounds at its sampling rate q = clientsPerRound / clients ({@link
     * DpSettings#calibrated}); the settings record the calibrated multiplier.
     */
    public Builder dpTargetEpsilon(double epsilon) {
      this.dpTargetEpsilon = epsilon;
      return this;
    }

    /**
     * The client optimizer ({@code sgd}, {@code momentum}, {@code adam}, {@code adagrad} or
     * {@code yogi}; default sgd) and the hyperparameters given for it (the others take {@link
     * ClientOptimizer}'s defaults), checked by {@link #build} and named by their flags.
     */
    public Builder clientOptimizer(String name, Map<String, Double> hyperparameters) {
      this.clientOptimizerName = Objects.requireNonNull(name, "name");
      this.clientHyperparameters = Map.copyOf(hyperparameters);
      return this;
    }

    /** The client optimizer (default sgd). */
    public Builder clientOptimizer(ClientOptimizer o) {
      return clientOptimizer(o.name(), o.hyperparameters());
    }

    /**
     * How the clients' metric {@code name} ({@code loss} or {@code accuracy} of the evaluation)
     * is aggregated over the clients (default: weighted by examples).
     */
    public Builder clientMetric(String name, MetricAggregation how) {
      clientMetrics.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(how, "how"));
      return this;
    }

    /**
     * Sets settings by their {@code config.json} keys, each value as JSON text ({@code
     * "rounds" -> "5"}, {@code "dataset" -> "digits"}): any key of the {@link SettingsSchema},
     * including one no other method of this builder names.
     *
     * @throws IllegalArgumentException naming the key that is unknown or whose value is wrong
     */
    public Builder set(Map<String, String> entries) {
      SettingsSchema.apply(entries, this);
      return this;
    }

    /** Whether the algorithm set so far trains with a proximal term (and so takes a mu). */
    boolean proximal() {
      return RunAlgorithm.proximal(algorithm);
    }

    /**
     * The validated settings, defaults resolved.
     *
     * @throws IllegalArgumentException naming the first setting that is wrong
     */
    public SimulationSettings build() {
      ModelKind net = model != null ? model
          : dataset.naturallyPartitioned() ? ModelKind.MCLR : ModelKind.MLP;
      String split;
      if (dataset.naturallyPartitioned()) {
        if (partition != null) {
          throw partitionNotApplicable(dataset);
        }
        split = "natural";
      } else {
        split = partition == null ? "iid"
            : io.tributary.data.Partitioner.parse(partition).toString();
      }
      if (mu != null && !RunAlgorithm.proximal(algorithm)) {
        throw noProximalTerm(algorithm);
      }
      double proximal = !RunAlgorithm.proximal(algorithm) ? 0
          : mu == null ? RunAlgorithm.proximalMu(algorithm).orElse(DEFAULT_MU) : mu;
      int population = clients != null ? clients
          : dataset.userData() ? countClients(dataset) : DEFAULT_CLIENTS;
      int perRound = clientsPerRound != null ? clientsPerRound
          : Math.min(DEFAULT_CLIENTS_PER_ROUND, Math.max(population, 1));
      int workers = threads != null ? threads : Runtime.getRuntime().availableProcessors();
      DpSettings privacy = dp;
      if (dpTargetEpsilon != null) {
        if (dp == null) {
          throw new SettingException("dpTargetEpsilon", "{dpTargetEpsilon} applies only with "
              + "{dp}");
        }
        try {
          privacy = calibrated(dp, perRound, Math.max(population, 1));
        } catch (IllegalArgumentException e) {
          throw new SettingException("dpTargetEpsilon", "{dpTargetEpsilon}: " + e.getMessage());
        }
      }
      return new SimulationSettings(algorithm, dataset, dataDir, split, net, population, perRound,
          rounds, localEpochs, batchSize, learningRate, proximal, byzantine, seed, workers,
          checkpointEvery, out, Optional.ofNullable(privacy), clientOptimizer(), clientMetrics,
          engine, others);
    }

    /**
     * {@code dp} at the noise multiplier that spends {@link #dpTargetEpsilon} over the run: at
     * sampling rate K / N, or through edges at the largest share an edge draws, the noise at
     * the edges raised by {@code sqrt(k2)} so that the k2 edge rounds of a cloud round
     * together spend what one round at the calibrated multiplier would.
     */
    private DpSettings calibrated(DpSettings dp, int perRound, int population) {
      if (algorithm.topology() instanceof Topology.Hierarchical h
          && perRound >= h.edges() && perRound <= population) {
        DpSettings c = dp.calibrated(dpTargetEpsilon, h.samplingRate(population, perRound),
            rounds);
        boolean atEdges = "edges".equals(others.get(SettingsSchema.DP_AT.name()));
        return atEdges ? c.withNoiseMultiplier(c.noiseMultiplier() * Math.sqrt(h.edgeRounds()))
            : c;
      }
      return dp.calibrated(dpTargetEpsilon, (double) perRound / population, rounds);
    }

    /** The clients of the user's data; a CSV file is read once for its client column. */
    private static int countClients(DatasetSpec d) {
      try {
        return switch (d) {
          case DatasetSpec.Provided p -> p.source().clients();
          case DatasetSpec.NpzDir n -> NpzClients.clientFiles(n.dir()).size();
          case DatasetSpec.Csv c -> CsvClients.countClients(c.file(), c.clientColumn(), ',',
              GzipLimits.defaults());
          case DatasetSpec.Parquet c -> ParquetClients.countClients(c.file(), c.clientColumn());
          default -> throw new IllegalStateException(d + " is not the user's data");
        };
      } catch (IOException e) {
        throw new SettingException("dataset", "{dataset} " + (e instanceof DatasetFormatException
            ? e.getMessage() : d + ": cannot be read ("
                + (e instanceof java.nio.file.NoSuchFileException ? "no such file"
                    : e.toString()) + ")"));
      }
    }

    private ClientOptimizer clientOptimizer() {
      if (!ClientOptimizer.NAMES.contains(clientOptimizerName)) {
        throw new SettingException("clientOptimizer", "{clientOptimizer} must be one of "
            + String.join(", ", ClientOptimizer.NAMES) + ", got '" + clientOptimizerName + "'");
      }
      java.util.SortedMap<String, Double> known = ClientOptimizer.defaults(clientOptimizerName);
      for (Map.Entry<String, Double> e : new java.util.TreeMap<>(clientHyperparameters)
          .entrySet()) {
        String name = "{clientOptimizer." + e.getKey() + "}";
        if (!known.containsKey(e.getKey())) {
          throw new SettingException("clientOptimizer." + e.getKey(), name + " does not apply "
              + "to {clientOptimizer} " + clientOptimizerName + (known.isEmpty() ? ""
                  : " (it takes " + String.join(", ", known.keySet().stream()
                      .map(k -> "{clientOptimizer." + k + "}").toList()) + ")"));
        }
        try {
          ClientOptimizer.of(clientOptimizerName, Map.of(e.getKey(), e.getValue()));
        } catch (IllegalArgumentException ex) {
          throw new SettingException("clientOptimizer." + e.getKey(),
              name + ex.getMessage().substring(e.getKey().length()));
        }
      }
      return ClientOptimizer.of(clientOptimizerName, clientHyperparameters);
    }
  }
}
