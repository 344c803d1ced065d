package io.tributary.cli;

import io.tributary.graph.ops.GemmKernel;
import io.tributary.graph.ops.KernelWarmUp;
import io.tributary.learning.SettingException;
import io.tributary.learning.rounds.RoundRecord;
import io.tributary.privacy.aggregation.TieredDp;
import io.tributary.simulation.Byzantine;
import io.tributary.simulation.DatasetSpec;
import io.tributary.simulation.Engine;
import io.tributary.simulation.History;
import io.tributary.simulation.ModelKind;
import io.tributary.simulation.ResumePoint;
import io.tributary.simulation.RunFiles;
import io.tributary.simulation.SettingsSchema;
import io.tributary.simulation.Simulation;
import io.tributary.simulation.SimulationDataException;
import io.tributary.simulation.SimulationEnd;
import io.tributary.simulation.SimulationResult;
import io.tributary.learning.FederatedAlgorithm;
import io.tributary.simulation.SimulationSettings.Builder;
import io.tributary.simulation.SimulationSettings;
import io.tributary.simulation.SimulationStoppedException;
import io.tributary.learning.rounds.output.ProgressListener;
import io.tributary.ui.LiveView;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * The {@code simulate} command: parses the flags into {@link SimulationSettings} and runs a
 * {@link Simulation} with its progress display and every file of the run; all simulation logic is
 * the library's.
 */
@Command(
    name = "simulate",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    sortOptions = false,
    description = {
      "Run a federated simulation: an algorithm of the suite (listed below) over a simulated "
          + "client population.",
      "Each round samples clients, runs the algorithm's next computation through the runtime's "
          + "execution context, and scores the new global model on the training and test data.",
      "Writes DIR/metrics.jsonl (one JSON object per round), DIR/config.json (every setting, "
          + "the seed included), DIR/clients.json (client data sizes), DIR/final.npz (the final "
          + "parameters), DIR/model.zip (checkpoints, one tag each) and DIR/report.html (charts "
          + "and figures in one self-contained page).",
      "With no options: FedAvg on the 8x8 digits, which takes seconds and reaches over 90%% test "
          + "accuracy.",
      "With --resume DIR: continues the stopped or killed run in DIR from the last checkpoint in "
          + "DIR/model.zip, with the run's own settings, and ends with the files an uninterrupted "
          + "run would have written.",
      "Exits with 2 and one line on stderr for a bad option value or unreadable data.",
      ""
    })
final class SimulateCommand implements Callable<Integer> {
  static final String DEFAULT_ALGORITHM = "fedavg";
  static final String DEFAULT_DATASET = "digits";
  static final int DEFAULT_CLIENTS = Builder.DEFAULT_CLIENTS;
  static final int DEFAULT_CLIENTS_PER_ROUND = Builder.DEFAULT_CLIENTS_PER_ROUND;
  static final int DEFAULT_ROUNDS = Builder.DEFAULT_ROUNDS;
  static final int DEFAULT_LOCAL_EPOCHS = Builder.DEFAULT_LOCAL_EPOCHS;
  static final int DEFAULT_BATCH_SIZE = Builder.DEFAULT_BATCH_SIZE;
  static final double DEFAULT_LR = Builder.DEFAULT_LR;
  static final double DEFAULT_MU = Builder.DEFAULT_MU;
  static final long DEFAULT_SEED = Builder.DEFAULT_SEED;
  static final int DEFAULT_CHECKPOINT_EVERY = Builder.DEFAULT_CHECKPOINT_EVERY;

  @Spec CommandSpec spec;

  @picocli.CommandLine.Mixin Verbose verbose = new Verbose();

  @Option(names = "--algorithm", paramLabel = "NAME",
      description = "the federated algorithm, one of those listed below (default: "
          + DEFAULT_ALGORITHM + ")")
  String algorithm = DEFAULT_ALGORITHM;

  @picocli.CommandLine.Mixin AlgorithmOptions algorithmOptions = new AlgorithmOptions();

  @Option(names = "--edges", paramLabel = "E",
      description = "hierfavg: the edges the clients report to, in contiguous blocks of client "
          + "ids, each round drawing its share of --clients-per-round from its own clients "
          + "(default 2)")
  Integer edges;

  @Option(names = "--edge-rounds", paramLabel = "K2",
      description = "hierfavg: edge aggregations per cloud aggregation, 1 to 1000 (default 2); "
          + "a round of --rounds is one cloud round")
  Integer edgeRounds;

  @Option(names = "--dp-at", paramLabel = "WHERE",
      description = "hierfavg with --dp: where the noise is added, server (default; the server "
          + "sees the edges' sums) or edges (each edge noises its own sum, so the server sees "
          + "only noised sums; accounted per edge, docs/privacy.md)")
  String dpAt;

  @picocli.CommandLine.Mixin DpOptions dpOptions = new DpOptions();

  @picocli.CommandLine.Mixin SimulateSecureOptions secureOptions = new SimulateSecureOptions();

  @picocli.CommandLine.Mixin UiOptions uiOptions = new UiOptions();

  @Option(names = "--dataset", paramLabel = "NAME",
      description = "digits (embedded 8x8 UCI digits), synthetic:ALPHA,BETA (FedProx "
          + "Synthetic(alpha,beta), one device per client), synthetic-iid, fashion-mnist (IDX "
          + "files, see --data-dir), generated:FEATURES,CLASSES,EXAMPLES (each client's data "
          + "made from the seed when it is needed, up to 10,000,000 clients), csv:PATH (your CSV "
          + "file with a header, gzip accepted: a client column, a label column and feature "
          + "columns; read once, then client by client), parquet:PATH (the same as a Parquet "
          + "file) or npz-dir:DIR (your directory of one "
          + ".npz per client holding x and y, and test.npz as the test set if there) (default: "
          + DEFAULT_DATASET + ")")
  String dataset = DEFAULT_DATASET;

  @Option(names = "--client-column", paramLabel = "NAME",
      description = "csv and parquet: the column naming each row's client "
          + "(default: client)")
  String clientColumn;

  @Option(names = "--label-column", paramLabel = "NAME",
      description = "csv and parquet: the label column, whole numbers from 0 "
          + "(default: label)")
  String labelColumn;

  @Option(names = "--feature-columns", paramLabel = "A,B,...",
      description = "csv and parquet: the feature columns, in order (default: every column "
          + "but the client "
          + "and label columns)")
  String featureColumns;

  @Option(names = "--test-fraction", paramLabel = "F",
      description = "csv, parquet and npz-dir: the share of each client's examples held out, chosen "
          + "from the seed, as the test set, in (0, 1) (default: 0.2; npz-dir: test.npz when "
          + "there)")
  Double testFraction;

  @Option(names = "--data-dir", paramLabel = "DIR",
      description = "the directory of file-based data (fashion-mnist: train-images-idx3-ubyte[.gz] "
          + "and the other three MNIST-layout files; default /usr/share/datasets/fashion-mnist)")
  Path dataDir;

  @Option(names = "--partition", paramLabel = "iid|dirichlet:ALPHA|shards:K",
      description = "how pooled data are split among the clients: iid, dirichlet:ALPHA (label "
          + "skew, smaller ALPHA is more skewed) or shards:K (sort by label, K shards per client) "
          + "(default: iid; synthetic data come split by device and take no --partition)")
  String partition;

  @Option(names = "--model", paramLabel = "mclr|mlp|cnn|PATH.zip",
      description = "the network: mclr (softmax regression), mlp (two ReLU hidden layers: 64 "
          + "units on small inputs, the FedAvg 2NN's 200 on 784-pixel images) or cnn (the FedAvg "
          + "CNN, 28x28 images only), or PATH.zip, your model file (the newest tag's graph and the "
          + "parameters training starts from; the run's DIR/model.zip holds the trained model in "
          + "the same format) (default: mlp for digits and fashion-mnist, mclr for "
          + "synthetic)")
  String model;

  @Option(names = "--clients", paramLabel = "N",
      description = "the population size; for synthetic data, the number of devices; for csv and "
          + "npz-dir, the data's own number of clients, which a given N must equal (default: "
          + DEFAULT_CLIENTS + "; for csv and npz-dir, the data's)")
  Integer clients;

  @Option(names = "--clients-per-round", paramLabel = "K",
      description = "clients sampled (seeded, without replacement) each round, 1..N (default: "
          + DEFAULT_CLIENTS_PER_ROUND + ", or N when N is smaller)")
  Integer clientsPerRound;

  @Option(names = "--rounds", paramLabel = "R",
      description = "federated rounds (default: " + DEFAULT_ROUNDS + ")")
  int rounds = DEFAULT_ROUNDS;

  @Option(names = "--local-epochs", paramLabel = "E",
      description = "passes over its data each client makes per round (default: "
          + DEFAULT_LOCAL_EPOCHS + ")")
  int localEpochs = DEFAULT_LOCAL_EPOCHS;

  @Option(names = "--batch-size", paramLabel = "B",
      description = "local minibatch size (default: " + DEFAULT_BATCH_SIZE + ")")
  int batchSize = DEFAULT_BATCH_SIZE;

  @Option(names = "--lr", paramLabel = "LR",
      description = "client learning rate, the client optimizer's step size (default: "
          + DEFAULT_LR + ")")
  double lr = DEFAULT_LR;

  @Option(names = "--mu", paramLabel = "MU",
      description = "FedProx proximal coefficient, >= 0; fedprox only (default: " + DEFAULT_MU
          + ")")
  Double mu;

  @Option(names = "--byzantine", paramLabel = "K:MODE",
      description = "K of each round's sampled clients (a seeded choice) are Byzantine and send "
          + "an attacked update: K:scale:S (their delta times S), K:signflip (the delta negated, "
          + "as scale:-1) or K:noise:SIGMA (Gaussian noise of standard deviation SIGMA in place "
          + "of the delta); K at most --clients-per-round (default: none)")
  String byzantine;

  @Option(names = "--client-metric", paramLabel = "NAME=HOW",
      description = "how the clients' metric NAME (loss or accuracy of the evaluation) is "
          + "aggregated over the clients: weighted_mean, mean, sum, min or max; repeatable "
          + "(default: weighted_mean, by examples)")
  List<String> clientMetrics = new java.util.ArrayList<>();

  @Option(names = "--seed", paramLabel = "S",
      description = "the seed of every random choice: data split, partition, initial model, "
          + "client sampling, local shuffling (default: " + DEFAULT_SEED + ")")
  long seed = DEFAULT_SEED;

  @Option(names = "--threads", paramLabel = "T",
      description = "worker threads for client work; results do not depend on it (default: the "
          + "number of processors)")
  Integer threads;

  @Option(names = "--engine", paramLabel = "local|local[N]|spark://HOST:PORT",
      description = "where the client work runs: this JVM's threads (local, the default), Spark "
          + "in this JVM with N threads (local[N]) or a Spark standalone cluster; results do not "
          + "depend on it. Spark needs tributary-spark built (docs/spark.md)")
  String engine = "local";

  @Option(names = "--partitions", paramLabel = "P",
      description = "Spark tasks per client pass, each a range of consecutive client groups "
          + "(default: Spark's default parallelism); results do not depend on it")
  int partitions;

  @Option(names = "--spark-conf", paramLabel = "KEY=VALUE",
      description = "a Spark setting of the application, such as spark.executor.memory=2g "
          + "(repeatable; docs/spark.md)")
  List<String> sparkConf = new ArrayList<>();

  @Option(names = "--checkpoint-every", paramLabel = "C",
      description = "rounds between checkpoints of the global model in DIR/model.zip, one tag "
          + "(round-NNNN) each; the last round always gets one (default: "
          + DEFAULT_CHECKPOINT_EVERY + ")")
  int checkpointEvery = DEFAULT_CHECKPOINT_EVERY;

  @Option(names = "--out", paramLabel = "DIR",
      description = "the output directory, created if needed; it must not hold a run already "
          + "(default: runs/<timestamp>)")
  Path out;

  @Option(names = "--kernel", paramLabel = "java|openblas",
      description = "the matrix kernel: java (the same bits however the JVM is started) or "
          + "openblas (OpenBLAS where it loads; other last digits); recorded in config.json "
          + "(default: java)")
  String kernel;

  @Option(names = "--set", paramLabel = "KEY=VALUE",
      description = "a setting by its config.json key, the value as JSON (a plain word is a "
          + "string): --set local_epochs=3, --set 'algorithm_options={\"eta\": 0.05}' with "
          + "--set algorithm=fedadam; applied after the other options; repeatable")
  List<String> set = new ArrayList<>();

  @Option(names = "--resume", paramLabel = "DIR",
      description = "continue the stopped or killed run in DIR from its last checkpoint, with the "
          + "settings it was started with: its metrics.jsonl is cut back to that round, and the "
          + "results equal an uninterrupted run's bit for bit. Other options may be repeated only "
          + "with the run's values (--threads may differ: results do not depend on it)")
  Path resume;

  @Option(names = "--client-optimizer", paramLabel = "sgd|momentum|adam|adagrad|yogi",
      description = "the optimizer of the client updates, stepping with --lr; its state starts "
          + "afresh every round (default: sgd)")
  String clientOptimizer;

  @Option(names = "--client-momentum", paramLabel = "M",
      description = "momentum's momentum, in [0, 1) (default 0.9)")
  Double clientMomentum;

  @Option(names = "--client-beta1", paramLabel = "B1",
      description = "adam's and yogi's beta1, in [0, 1) (default 0.9)")
  Double clientBeta1;

  @Option(names = "--client-beta2", paramLabel = "B2",
      description = "adam's and yogi's beta2, in [0, 1) (default 0.999)")
  Double clientBeta2;

  @Option(names = "--client-epsilon", paramLabel = "EPS",
      description = "adam's and adagrad's epsilon (default 1e-7), yogi's (1e-3)")
  Double clientEpsilon;

  @Option(names = "--client-initial-accumulator", paramLabel = "V0",
      description = "adagrad's initial accumulator, >= 0 (default 0.1)")
  Double clientInitialAccumulator;

  @Option(names = "--client-initial-v", paramLabel = "V0",
      description = "yogi's initial second moment, >= 0 (default 1e-6)")
  Double clientInitialV;

  /** Options a resumed run may set to other values than its own: they do not change results. */
  private static final Set<String> FREE_ON_RESUME = Set.of("--resume", "--threads", "--verbose",
      "--engine", "--partitions", "--spark-conf", "--ui", "--ui-token");

  @Override
  public Integer call() {
    PrintWriter err = spec.commandLine().getErr();
    SimulationSettings settings;
    Optional<LiveView.Builder> ui;
    try {
      ui = uiOptions.builder();
      settings = resume != null ? resumedSettings() : settings();
    } catch (SettingException e) {
      return usage(err, SimulateFlags.render(e));
    } catch (IllegalArgumentException e) {
      return usage(err, e.getMessage());
    } catch (IOException e) {
      return problem(err, resume, e);
    }
    DpOptions.warnIfSeeded(err, "simulate", settings.dp());
    // The product kernels load and compile on another thread while this one loads the data.
    GemmKernel gemm = GemmKernel.parse(settings.get(SettingsSchema.KERNEL));
    if (gemm.unavailableReason().isPresent()) {
      // A resumed openblas run on a JVM where OpenBLAS cannot load.
      return usage(err, "--kernel " + gemm.name() + ": " + gemm.unavailableReason().get());
    }
    KernelWarmUp.startInBackground(gemm);
    // The files first: a directory that holds a run is refused before anything is shown.
    Simulation.Builder run = Simulation.builder(settings).writeFiles()
        .progress(err, ProgressListener.detect());
    if (resume != null) {
      run.resume();
    }
    PrintWriter out = spec.commandLine().getOut();
    Path report = settings.out().resolve(RunFiles.REPORT);
    Optional<LiveView> view;
    try {
      view = liveView(ui, settings, err);
    } catch (IllegalArgumentException e) {
      return usage(err, e.getMessage());
    } catch (IOException e) {
      return usage(err, "--ui " + uiOptions.ui + ": cannot listen there: " + e.getMessage());
    }
    view.ifPresent(run::listener);
    try {
      return run(run, out, err, settings, report);
    } finally {
      closeQuietly(view);
    }
  }

  /** The live page of the run, started, when --ui was given; the simulation closes it. */
  private static Optional<LiveView> liveView(Optional<LiveView.Builder> ui,
      SimulationSettings settings, PrintWriter err) throws IOException {
    if (ui.isEmpty()) {
      return Optional.empty();
    }
    String title = new SimulationEnd(settings, History.empty(), Optional.empty(), "").title();
    return Optional.of(UiOptions.start(ui.get().title(title)
        .evaluation(RoundRecord.EvaluationKind.CENTRAL), err));
  }

  /** Closes the view if the run did not (it failed before it started). */
  private static void closeQuietly(Optional<LiveView> view) {
    view.ifPresent(v -> {
      try {
        v.close();
      } catch (IOException e) {
        // Closing a server socket: nothing the user could act on.
      }
    });
  }

  private int run(Simulation.Builder run, PrintWriter out, PrintWriter err,
      SimulationSettings settings, Path report) {
    try {
      SimulationResult result = run.build().run();
      summary(out, result.history(), result.outcome(), report);
      privacy(out, settings, result.history());
      return 0;
    } catch (SimulationStoppedException e) {
      err.println("tributary simulate: " + e.getMessage().replaceAll("\\R", " "));
      verbose.trace(err, e.getCause());
      err.flush();
      summary(out, e.history(), e.getMessage(), report);
      privacy(out, settings, e.history());
      return 1;
    } catch (SimulationDataException e) {
      return problem(err, e.location(), e.getCause());
    } catch (SettingException e) {
      return usage(err, SimulateFlags.render(e));
    } catch (IllegalArgumentException e) {
      return usage(err, e.getMessage());
    } catch (IOException e) {
      return problem(err, resume != null ? resume : settings.out(), e);
    }
  }

  private static void summary(PrintWriter out, History history, String outcome, Path report) {
    if (!history.isEmpty()) {
      RoundRecord last = history.last();
      out.printf(java.util.Locale.ROOT,
          "round %d: test accuracy %.4f, test loss %.4f, training loss %.4f%n",
          last.round(), last.testAccuracy(), last.testLoss(), last.trainLoss());
    }
    out.println(outcome);
    out.println("report: " + report);
    out.flush();
  }

  /** The privacy spent by the rounds run, for a run with {@code --dp}. */
  private static void privacy(PrintWriter out, SimulationSettings settings, History history) {
    if (settings.dp().isPresent() && !history.isEmpty()) {
      long rounds = history.last().round();
      String note = settings.tieredDp(0).map(t -> t.noiseAt() == TieredDp.NoiseAt.EDGES
          ? String.format(java.util.Locale.ROOT, " at each edge, accounted as %.4g over its "
              + "%d edge rounds", t.accountedNoiseMultiplier(), t.edgeRounds())
          : " at the server, through edges").orElse("");
      out.println(DpOptions.spentLine(settings.dp().get(), settings.samplingRate(), rounds,
          settings.privacySpent(rounds), note));
      out.flush();
    }
  }

  /**
   * The settings of the run being resumed, read from its {@code config.json}, with this command's
   * --threads and engine; any other option given here must have the run's value.
   *
   * @throws IllegalArgumentException naming the first option whose value differs
   * @throws IOException when the run's files cannot be read or its config.json is not settings
   */
  private SimulationSettings resumedSettings() throws IOException {
    ResumePoint.read(resume);
    SimulationSettings recorded = SimulationSettings.read(resume);
    // The run's options as this command parses them, so that values compare as typed
    // (--lr 0.10 is the run's 0.1).
    List<String> words = recorded.commandLine();
    SimulateCommand original = new SimulateCommand();
    CommandLine parser = new CommandLine(original);
    parser.parseArgs(words.subList(2, words.size()).toArray(String[]::new));
    for (OptionSpec given : spec.commandLine().getParseResult().matchedOptions()) {
      String name = given.longestName();
      if (FREE_ON_RESUME.contains(name)) {
        continue;
      }
      Object theirs = parser.getCommandSpec().findOption(name).getValue();
      Object ours = given.getValue();
      if (name.equals("--out") && ours != null && theirs != null
          && Path.of(ours.toString()).toAbsolutePath().normalize()
              .equals(resume.toAbsolutePath().normalize())) {
        continue;
      }
      if (!Objects.equals(String.valueOf(ours), String.valueOf(theirs))) {
        throw new IllegalArgumentException("--resume: " + name + " " + ours + " differs from the"
            + " run in " + resume + ", which has " + name + " " + theirs + " (resume with the"
            + " run's settings, or start a new run)");
      }
    }
    return recorded.withOut(resume).withThreads(threads != null ? threads : recorded.threads())
        .withEngine(engine());
  }

  /**
   * The --dataset value with the options of the user's files.
   *
   * @throws IllegalArgumentException naming an option that does not apply to the dataset
   */
  private DatasetSpec datasetSpec() {
    DatasetSpec spec = DatasetSpec.parse(dataset);
    if (spec instanceof DatasetSpec.Table csv) {
      DatasetSpec.Table table = csv.withColumns(clientColumn != null ? clientColumn : csv.clientColumn(),
          labelColumn != null ? labelColumn : csv.labelColumn(), featureColumns == null
              ? List.of() : List.of(featureColumns.split(",", -1)).stream().map(String::strip)
                  .toList());
      return testFraction == null ? table : table.withTestFraction(testFraction);
    }
    for (var e : java.util.Map.of("--client-column", Objects.toString(clientColumn, ""),
        "--label-column", Objects.toString(labelColumn, ""), "--feature-columns",
        Objects.toString(featureColumns, "")).entrySet()) {
      if (!e.getValue().isEmpty()) {
        throw new IllegalArgumentException(e.getKey() + " applies only to --dataset csv:PATH and parquet:PATH");
      }
    }
    if (spec instanceof DatasetSpec.NpzDir npz) {
      return testFraction == null ? npz : new DatasetSpec.NpzDir(npz.dir(), testFraction);
    }
    if (testFraction != null) {
      throw new IllegalArgumentException("--test-fraction applies only to --dataset csv:PATH, "
          + "parquet:PATH and npz-dir:DIR");
    }
    return spec;
  }

  /**
   * The validated settings, defaults resolved by the library's builder.
   *
   * @throws IllegalArgumentException naming the flag whose value is wrong
   */
  SimulationSettings settings() {
    try {
      return settingsNamedByTheLibrary();
    } catch (SettingException e) {
      // The library names the setting as Java code does; the user typed its flag.
      throw new IllegalArgumentException(SimulateFlags.render(e), e);
    }
  }

  private SimulationSettings settingsNamedByTheLibrary() {
    Builder b = SimulationSettings.builder()
        .algorithm(algorithm())
        .dataset(datasetSpec()).dataDir(dataDir).partition(partition)
        .rounds(rounds).localEpochs(localEpochs).batchSize(batchSize)
        .learningRate(lr).seed(seed).checkpointEvery(checkpointEvery)
        .out(out != null ? out : defaultOut());
    secureOptions.apply(dpOptions.settings()).ifPresent(b::dp);
    dpOptions.targetEpsilon().ifPresent(b::dpTargetEpsilon);
    if (model != null) {
      if (model.toLowerCase(java.util.Locale.ROOT).endsWith(".zip")) {
        b.model(Path.of(model));
      } else {
        b.model(ModelKind.parse(model));
      }
    }
    if (clients != null) {
      b.clients(clients);
    }
    if (clientsPerRound != null) {
      b.clientsPerRound(clientsPerRound);
    }
    if (mu != null) {
      b.mu(mu);
    }
    for (String m : clientMetrics) {
      ServerSettings.clientMetric(m, b::clientMetric);
    }
    if (byzantine != null) {
      b.byzantine(Byzantine.parse(byzantine));
    }
    if (threads != null) {
      b.threads(threads);
    }
    b.engine(engine());
    Map<String, Double> client = new LinkedHashMap<>();
    putIfGiven(client, "momentum", clientMomentum);
    putIfGiven(client, "beta1", clientBeta1);
    putIfGiven(client, "beta2", clientBeta2);
    putIfGiven(client, "epsilon", clientEpsilon);
    putIfGiven(client, "initial_accumulator", clientInitialAccumulator);
    putIfGiven(client, "initial_v", clientInitialV);
    if (clientOptimizer != null || !client.isEmpty()) {
      b.clientOptimizer(clientOptimizer != null ? clientOptimizer : "sgd", client);
    }
    if (dpAt != null) {
      b.set(SettingsSchema.DP_AT, dpAt);
    }
    if (this.kernel != null) {
      GemmKernel k = GemmKernel.parse(this.kernel);
      if (k.unavailableReason().isPresent()) {
        throw new IllegalArgumentException("--kernel " + k.name() + ": "
            + k.unavailableReason().get());
      }
      b.set(SettingsSchema.KERNEL, k.name());
    }
    if (!set.isEmpty()) {
      Map<String, String> entries = new LinkedHashMap<>();
      KeyValues.split("--set", "KEY=VALUE", set).forEach(e -> entries.put(e.getKey(),
          e.getValue()));
      try {
        b.set(entries);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("--set " + e.getMessage(), e);
      }
    }
    return b.build();
  }

  /**
   * The algorithm and its hyperparameters, a problem with one named by its flag ({@code
   * --edge-rounds must be ...}) where it has one.
   *
   * @throws IllegalArgumentException naming the flag or {@code --hp NAME}
   */
  private FederatedAlgorithm algorithm() {
    Map<String, Double> h = new LinkedHashMap<>(algorithmOptions.hyperparameters(algorithm));
    for (var e : new Object[][] {{"edges", edges}, {"edge_rounds", edgeRounds}}) {
      if (e[1] != null && h.put((String) e[0], ((Integer) e[1]).doubleValue()) != null) {
        throw new IllegalArgumentException("--hp " + e[0] + " is given twice (or also by its "
            + "own flag)");
      }
    }
    try {
      return SimulationSettings.namedAlgorithm(algorithm, h);
    } catch (SettingException e) {
      throw e; // rendered in flags by settings()
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(AlgorithmOptions.flagged(algorithm, e.getMessage()), e);
    }
  }

  /**
   * The --engine, --partitions and --spark-conf values as an engine.
   *
   * @throws IllegalArgumentException naming the option that is wrong
   */
  private Engine engine() {
    Engine e = Engine.parse(engine, partitions);
    if (sparkConf.isEmpty()) {
      return e;
    }
    if (!(e instanceof Engine.Cluster c)) {
      throw new IllegalArgumentException("--spark-conf applies only to a Spark engine "
          + "(--engine local[N] or spark://HOST:PORT)");
    }
    Map<String, String> conf = new LinkedHashMap<>();
    KeyValues.split("--spark-conf", "KEY=VALUE", sparkConf).forEach(kv -> conf.put(kv.getKey(),
        kv.getValue()));
    return new Engine.Cluster(c.master(), conf, c.partitions());
  }

  private static void putIfGiven(Map<String, Double> m, String name, Double value) {
    if (value != null) {
      m.put(name, value);
    }
  }

  /** {@code runs/<yyyyMMdd-HHmmss>}, with a suffix when two runs start in the same second. */
  private static Path defaultOut() {
    String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
    Path dir = Path.of("runs", stamp);
    for (int i = 2; Files.exists(dir); i++) {
      dir = Path.of("runs", stamp + "-" + i);
    }
    return dir;
  }

  /** The one line for a bad setting; exit status 2. */
  static int usage(PrintWriter err, String message) {
    err.println("tributary simulate: " + message);
    err.flush();
    return ExitCodes.BAD_INPUT;
  }

  /** The one line for a file or directory that cannot be read or written; exit status 2. */
  static int problem(PrintWriter err, Path file, IOException e) {
    return Problems.report(err, "simulate", file, e);
  }
}
