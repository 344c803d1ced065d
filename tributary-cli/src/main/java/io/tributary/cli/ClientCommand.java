package io.tributary.cli;

import io.tributary.flower.Backoff;
import io.tributary.flower.ConnectionFailedException;
import io.tributary.flower.FlowerClientBuilder;
import io.tributary.flower.FlowerClientRunner;
import io.tributary.flower.TlsSettings;
import io.tributary.flower.TrainingClient;
import io.tributary.flower.TrainingSettings;
import io.tributary.graph.local.GraphBindingException;
import io.tributary.graph.models.Model;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The {@code client} command: joins a Flower-protocol server (Python Flower or {@code tributary
 * server}) with a {@link TrainingClient} that trains one partition of a dataset when asked to fit.
 */
@Command(
    name = "client",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    sortOptions = false,
    description = {
      "Join a Flower-protocol server as a training client.",
      "Trains partition I of N of the dataset when the server sends fit, evaluates on the "
          + "partition's test examples when it sends evaluate, and ends when the server "
          + "disconnects it (ReconnectIns 0). Reconnects with backoff when the server is away.",
      "Server config keys local_epochs/epochs, batch_size, lr/learning_rate and proximal_mu "
          + "override the options below for each fit.",
      "Exits with 0 when the server disconnected the client, 1 when the server refused it or "
          + "stayed unreachable, and 2 with one line on stderr for a bad option or unreadable "
          + "file.",
      ""
    })
final class ClientCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @picocli.CommandLine.Mixin Verbose verbose = new Verbose();

  @Option(names = "--server", paramLabel = "HOST:PORT", required = true,
      description = "the server's address")
  String server;

  @Option(names = "--model", paramLabel = "mclr|mlp|cnn",
      description = "the network, as in simulate (default: mlp for digits and fashion-mnist, "
          + "mclr for synthetic)")
  String model;

  @Option(names = "--dataset", paramLabel = "NAME",
      description = "digits, synthetic:ALPHA,BETA, synthetic-iid or fashion-mnist (default: "
          + "digits)")
  String dataset = "digits";

  @Option(names = "--data-dir", paramLabel = "DIR",
      description = "the directory of file-based data (fashion-mnist)")
  Path dataDir;

  @Option(names = "--partition", paramLabel = "I/N",
      description = "train partition I (from 0) of N; clients with the same N and --seed hold "
          + "disjoint partitions (default: 0/1, all the data)")
  String partition = "0/1";

  @Option(names = "--split", paramLabel = "iid|dirichlet:ALPHA|shards:K",
      description = "how pooled training data (digits, fashion-mnist) are split among the N "
          + "clients, as `tributary simulate --partition` splits them: with the same N and "
          + "--seed, partition I holds simulate's client I's training examples (default: iid; "
          + "synthetic data come split by device and take no --split)")
  String split;

  @Option(names = "--local-epochs", paramLabel = "E",
      description = "passes over the partition per fit (default: 1)")
  int localEpochs = 1;

  @Option(names = "--batch-size", paramLabel = "B",
      description = "SGD minibatch size (default: 16)")
  int batchSize = 16;

  @Option(names = "--lr", paramLabel = "LR", description = "SGD learning rate (default: 0.1)")
  double lr = 0.1;

  @Option(names = "--seed", paramLabel = "S",
      description = "the seed of the data split, partition, initial model and shuffling "
          + "(default: 1)")
  long seed = 1;

  @Option(names = "--tensor-types", paramLabel = "LIST", split = ",",
      description = "tensor types to announce, most preferred first (default: "
          + "numpy.ndarray,proto.ndarray); servers that announce nothing get numpy.ndarray")
  List<String> tensorTypes;

  @Option(names = "--tls-ca", paramLabel = "FILE",
      description = "use TLS, trusting the PEM certificate authorities in FILE")
  Path tlsCa;

  @Option(names = "--tls-cert", paramLabel = "FILE",
      description = "for mutual TLS: the client's PEM certificate chain (with --tls-key)")
  Path tlsCert;

  @Option(names = "--tls-key", paramLabel = "FILE",
      description = "for mutual TLS: the client's PKCS#8 PEM key (with --tls-cert)")
  Path tlsKey;

  @Option(names = "--auth-token", paramLabel = "T",
      description = "send 'authorization: Bearer T' with the connection")
  String authToken;

  @Option(names = "--max-message-size", paramLabel = "BYTES",
      description = "the largest message accepted or sent (default: 2147483647, as Flower)")
  int maxMessageSize = Integer.MAX_VALUE;

  @Option(names = "--max-attempts", paramLabel = "K",
      description = "consecutive failed attempts to reach the server before giving up "
          + "(default: 10, about 3 minutes)")
  int maxAttempts = Backoff.DEFAULT.maxAttempts();

  @Override
  public Integer call() {
    PrintWriter err = spec.commandLine().getErr();
    verbose.configureLogging();
    FlowerClientRunner runner;
    String what;
    try {
      ServerSettings.Address address = ServerSettings.address("--server", server);
      int[] part = partition(partition);
      DatasetSpec data = DatasetSpec.parse(dataset);
      ModelKind kind = model != null ? ModelKind.parse(model)
          : data.naturallyPartitioned() ? ModelKind.MCLR : ModelKind.MLP;
      TrainingSettings settings = new TrainingSettings(localEpochs, batchSize, lr, 0,
          Seeds.derive(seed, Seeds.MODEL));
      io.tributary.data.Partitioner split = splitFor(data);
      // The settings are usable: the product kernels load and compile on another thread while
      // this one loads the data.
      io.tributary.graph.ops.KernelWarmUp.startInBackground();
      ClientData cd;
      try {
        cd = ClientData.load(data, dataDir, part[0], part[1], split, kind, seed);
      } catch (IOException e) {
        return Problems.report(err, "client", dataDir != null ? dataDir
            : io.tributary.data.FashionMnist.DEBIAN_DIR, e);
      }
      Model net = kind.build(cd.name(), cd.train().exampleShape(), cd.train().numClasses());
      TrainingClient client = new TrainingClient(net, cd.train(), cd.test(), settings);
      runner = builder(client).build();
      // Last of the checks, so that every other mistake is named even while offline.
      ServerSettings.requireKnownHost("--server", address.host());
      what = String.format(Locale.ROOT, "partition %d/%d of %s%s (%d train, %d test examples), "
          + "model %s (%d parameters)", part[0], part[1], data,
          data.naturallyPartitioned() ? "" : ", split " + split, cd.train().size(),
          cd.test().size(), kind.cliName(), net.parameterCount());
    } catch (IllegalArgumentException | IllegalStateException | IOException e) {
      int status = usage(err, e.getMessage());
      verbose.trace(err, e);
      return status;
    } catch (GraphBindingException e) {
      err.println("tributary client: cannot prepare the model: " + e.getMessage());
      verbose.trace(err, e);
      return 1;
    }
    err.println("tributary client: " + what + "; joining " + server);
    err.flush();
    Thread hook = new Thread(runner::stop, "tributary-client-stop");
    Runtime.getRuntime().addShutdownHook(hook);
    try {
      FlowerClientRunner.Outcome outcome = runner.run();
      spec.commandLine().getOut().println(outcome == FlowerClientRunner.Outcome.STOPPED
          ? "stopped" : "done: the server disconnected this client");
      return 0;
    } catch (ConnectionFailedException e) {
      err.println("tributary client: " + e.getMessage().replaceAll("\\R", " "));
      err.flush();
      verbose.trace(err, e);
      return 1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return 1;
    } finally {
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException e) {
        // The JVM is already shutting down and runs the hook.
      }
    }
  }

  private FlowerClientBuilder builder(TrainingClient client) {
    FlowerClientBuilder b = FlowerClientRunner.builder(client).target(server)
        .maxMessageSize(maxMessageSize)
        .backoff(Backoff.DEFAULT.withMaxAttempts(maxAttempts).withSeed(seed));
    if (tensorTypes != null) {
      b.tensorTypes(tensorTypes.stream().map(String::strip).toList());
    }
    if (authToken != null) {
      b.authToken(authToken);
    }
    if (tlsCert != null || tlsKey != null) {
      if (tlsCert == null || tlsKey == null) {
        throw new IllegalArgumentException("--tls-cert and --tls-key go together");
      }
      b.tls(new TlsSettings(tlsCa, tlsCert, tlsKey));
    } else if (tlsCa != null) {
      b.tls(TlsSettings.trusting(tlsCa));
    }
    return b;
  }

  /** The partitioner --split names, checked against the dataset before any data is read. */
  private io.tributary.data.Partitioner splitFor(DatasetSpec data) {
    if (data.naturallyPartitioned()) {
      if (split != null) {
        throw new IllegalArgumentException("--split does not apply to " + data
            + ": its data come split by device");
      }
      return new io.tributary.data.Partitioner.Iid();
    }
    return io.tributary.data.Partitioner.parse(split == null ? "iid" : split);
  }

  /** {@code I/N} with 0 <= I < N. */
  static int[] partition(String text) {
    String[] p = text.strip().split("/", -1);
    try {
      if (p.length == 2) {
        int[] v = Arrays.stream(p).mapToInt(s -> Integer.parseInt(s.strip())).toArray();
        if (v[1] >= 1 && v[0] >= 0 && v[0] < v[1]) {
          return v;
        }
      }
    } catch (NumberFormatException e) {
      // Reported below with the expected form.
    }
    throw new IllegalArgumentException("--partition '" + text
        + "': use I/N with 0 <= I < N, e.g. 0/10");
  }

  static int usage(PrintWriter err, String message) {
    err.println("tributary client: " + message.replaceAll("\\R", " "));
    err.flush();
    return ExitCodes.BAD_INPUT;
  }
}
