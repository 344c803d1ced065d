package io.tributary.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The {@code simulate} command: runs FedAvg or FedProx over a simulated client population through
 * the runtime's execution context, and writes the run's metrics, settings, final model and an
 * HTML report to the output directory.
 */
@Command(
    name = "simulate",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    sortOptions = false,
    description = {
      "Run a federated simulation: FedAvg or FedProx over a simulated client population.",
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
  static final int DEFAULT_CLIENTS = 10;
  static final int DEFAULT_CLIENTS_PER_ROUND = 5;
  static final int DEFAULT_ROUNDS = 30;
  static final int DEFAULT_LOCAL_EPOCHS = 2;
  static final int DEFAULT_BATCH_SIZE = 16;
  static final double DEFAULT_LR = 0.1;
  static final double DEFAULT_MU = 0.01;
  static final long DEFAULT_SEED = 1;
  static final int DEFAULT_CHECKPOINT_EVERY = 10;

  @Spec CommandSpec spec;

  @picocli.CommandLine.Mixin Verbose verbose = new Verbose();

  @Option(names = "--algorithm", paramLabel = "fedavg|fedprox",
      description = "the federated algorithm (default: " + DEFAULT_ALGORITHM + ")")
  String algorithm = DEFAULT_ALGORITHM;

  @Option(names = "--dataset", paramLabel = "NAME",
      description = "digits (embedded 8x8 UCI digits), synthetic:ALPHA,BETA (FedProx "
          + "Synthetic(alpha,beta), one device per client), synthetic-iid, or fashion-mnist (IDX "
          + "files, see --data-dir) (default: " + DEFAULT_DATASET + ")")
  String dataset = DEFAULT_DATASET;

  @Option(names = "--data-dir", paramLabel = "DIR",
      description = "the directory of file-based data (fashion-mnist: train-images-idx3-ubyte[.gz] "
          + "and the other three MNIST-layout files; default /usr/share/datasets/fashion-mnist)")
  Path dataDir;

  @Option(names = "--partition", paramLabel = "iid|dirichlet:ALPHA|shards:K",
      description = "how pooled data are split among the clients: iid, dirichlet:ALPHA (label "
          + "skew, smaller ALPHA is more skewed) or shards:K (sort by label, K shards per client) "
          + "(default: iid; synthetic data come split by device and take no --partition)")
  String partition;

  @Option(names = "--model", paramLabel = "mclr|mlp|cnn",
      description = "the network: mclr (softmax regression), mlp (two ReLU hidden layers: 64 "
          + "units on small inputs, the FedAvg 2NN's 200 on 784-pixel images) or cnn (the FedAvg "
          + "CNN, 28x28 images only) (default: mlp for digits and fashion-mnist, mclr for "
          + "synthetic)")
  String model;

  @Option(names = "--clients", paramLabel = "N",
      description = "the population size; for synthetic data, the number of devices (default: "
          + DEFAULT_CLIENTS + ")")
  int clients = DEFAULT_CLIENTS;

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
      description = "client SGD learning rate (default: " + DEFAULT_LR + ")")
  double lr = DEFAULT_LR;

  @Option(names = "--mu", paramLabel = "MU",
      description = "FedProx proximal coefficient, >= 0; fedprox only (default: " + DEFAULT_MU
          + ")")
  Double mu;

  @Option(names = "--seed", paramLabel = "S",
      description = "the seed of every random choice: data split, partition, initial model, "
          + "client sampling, local shuffling (default: " + DEFAULT_SEED + ")")
  long seed = DEFAULT_SEED;

  @Option(names = "--threads", paramLabel = "T",
      description = "worker threads for client work; results do not depend on it (default: the "
          + "number of processors)")
  Integer threads;

  @Option(names = "--checkpoint-every", paramLabel = "C",
      description = "rounds between checkpoints of the global model in DIR/model.zip, one tag "
          + "(round-NNNN) each; the last round always gets one (default: "
          + DEFAULT_CHECKPOINT_EVERY + ")")
  int checkpointEvery = DEFAULT_CHECKPOINT_EVERY;

  @Option(names = "--out", paramLabel = "DIR",
      description = "the output directory, created if needed; it must not hold a run already "
          + "(default: runs/<timestamp>)")
  Path out;

  @Option(names = "--resume", paramLabel = "DIR",
      description = "continue the stopped or killed run in DIR from its last checkpoint, with the "
          + "settings it was started with: its metrics.jsonl is cut back to that round, and the "
          + "results equal an uninterrupted run's bit for bit. Other options may be repeated only "
          + "with the run's values (--threads may differ: results do not depend on it)")
  Path resume;

  /** Options a resumed run may set to other values than its own: they do not change results. */
  private static final Set<String> FREE_ON_RESUME = Set.of("--resume", "--threads", "--verbose");

  @Override
  public Integer call() {
    PrintWriter err = spec.commandLine().getErr();
    SimulationConfig config;
    ResumePoint point = null;
    try {
      if (resume != null) {
        point = ResumePoint.read(resume);
        config = resumedConfig(point);
      } else {
        config = config();
      }
    } catch (IllegalArgumentException e) {
      return usage(err, e.getMessage());
    } catch (IOException e) {
      return problem(err, resume, e);
    }
    // The product kernels load and compile on another thread while this one loads the data.
    io.tributary.graph.ops.KernelWarmUp.startInBackground();
    return new Simulation(config, point, spec.commandLine().getOut(), err, Progress.detect())
        .verbose(verbose).run();
  }

  /**
   * The settings of the run being resumed, read from its checkpoint's command line, with this
   * command's --threads; any other option given here must have the run's value.
   *
   * @throws IllegalArgumentException naming the first option whose value differs
   */
  private SimulationConfig resumedConfig(ResumePoint point) {
    List<String> words = point.command();
    if (words.size() < 2 || !words.get(0).equals("tributary") || !words.get(1).equals("simulate")) {
      throw new IllegalArgumentException("--resume: the checkpoint in " + resume + " was not made"
          + " by tributary simulate (its command: " + String.join(" ", words) + ")");
    }
    SimulateCommand original = new SimulateCommand();
    CommandLine parser = new CommandLine(original);
    try {
      parser.parseArgs(words.subList(2, words.size()).toArray(String[]::new));
    } catch (CommandLine.ParameterException e) {
      throw new IllegalArgumentException("--resume: the checkpoint's command cannot be read: "
          + e.getMessage());
    }
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
    original.out = resume;
    if (threads != null) {
      original.threads = threads;
    }
    return original.config();
  }

  /** The validated settings, defaults resolved. */
  SimulationConfig config() {
    DatasetSpec data = DatasetSpec.parse(dataset);
    Algorithm alg = Algorithm.parse(algorithm);
    ModelKind net = model != null ? ModelKind.parse(model)
        : data.naturallyPartitioned() ? ModelKind.MCLR : ModelKind.MLP;
    String split;
    if (data.naturallyPartitioned()) {
      if (partition != null) {
        throw new IllegalArgumentException("--partition does not apply to " + data + ": its data "
            + "come split by device, one device per client");
      }
      split = "natural";
    } else {
      split = partition == null ? "iid" : io.tributary.data.Partitioner.parse(partition).toString();
    }
    if (mu != null && alg == Algorithm.FEDAVG) {
      throw new IllegalArgumentException("--mu applies only to --algorithm fedprox (fedavg has no "
          + "proximal term)");
    }
    double proximal = alg == Algorithm.FEDAVG ? 0 : mu == null ? DEFAULT_MU : mu;
    int perRound = clientsPerRound != null ? clientsPerRound
        : Math.min(DEFAULT_CLIENTS_PER_ROUND, Math.max(clients, 1));
    int workers = threads != null ? threads : Runtime.getRuntime().availableProcessors();
    Path dir = out != null ? out : defaultOut();
    return new SimulationConfig(alg, data, dataDir, split, net, clients, perRound, rounds,
        localEpochs, batchSize, lr, proximal, seed, workers, checkpointEvery, dir);
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
