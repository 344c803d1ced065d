package io.tributary.cli;

import io.tributary.flower.Backoff;
import io.tributary.flower.ConnectionFailedException;
import io.tributary.flower.FlowerClient;
import io.tributary.flower.FlowerClientBuilder;
import io.tributary.flower.FlowerClientRunner;
import io.tributary.flower.TlsSettings;
import io.tributary.flower.passes.NodePasses;
import io.tributary.flower.training.TrainingClient;
import io.tributary.graph.local.GraphBindingException;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The {@code client} command: joins a Flower-protocol server (Python Flower or {@code tributary
 * server}) with a {@link TrainingClient} that trains one partition of a dataset when asked to fit.
 * Unless {@code --no-client-passes}, the client also runs a Tributary server's secure passes
 * ({@link NodePasses#serve(FlowerClient)}, the protocol and the algorithms composed in code from
 * the class path and {@code --classpath}); {@code --secure-aggregation} wraps it for Flower's
 * SecAgg+ fit rounds, inside the passes.
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
      "A Tributary server's secure passes (a computation that sums securely, such as DP-FedAvg "
          + "with secure sums) run here too: the client rebuilds the server's computation, "
          + "checks its fingerprint, and enters its part into SecAgg+ (--no-client-passes turns "
          + "this off). --secure-aggregation is another thing: Flower's SecAgg+ fit rounds of a "
          + "server run with --secure-aggregation; the two can be on together.",
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

  @picocli.CommandLine.Mixin LocalTrainingOptions training = new LocalTrainingOptions();

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

  @Option(names = "--secure-aggregation",
      description = "take part in SecAgg+ rounds (a server run with --secure-aggregation): send "
          + "only masked, quantized updates; other servers are answered as usual); apart from "
          + "and beside a Tributary server's secure passes, which run by default")
  boolean secureAggregation;

  @Option(names = "--classpath", paramLabel = "JARS",
      description = "jars and folders (separated by '" + "${sys:path.separator}" + "') whose "
          + "registered ComposedAlgorithms (and SecurePassProtocol) the client passes use, for a "
          + "server whose algorithm is composed in code")
  String classpath;

  @picocli.CommandLine.Mixin ClientPassesOptions clientPasses = new ClientPassesOptions();

  @Override
  public Integer call() {
    PrintWriter err = spec.commandLine().getErr();
    verbose.configureLogging();
    FlowerClientRunner runner;
    String what;
    try {
      ServerSettings.Address address = ServerSettings.address("--server", server);
      // The settings are usable: the product kernels load and compile on another thread while
      // the data are loaded.
      LocalTrainingOptions.Prepared p =
          training.prepare(io.tributary.graph.ops.KernelWarmUp::startInBackground);
      FlowerClient client = p.client();
      what = p.description();
      if (secureAggregation) {
        // Flower's SecAgg+ fit rounds: FitIns naming a secagg stage; all else goes through.
        client = new io.tributary.flower.secagg.SecAggClientAdapter(client);
      }
      // A Tributary server's secure passes: FitIns carrying a pass stage. Outermost, so that a
      // pass replays the client (and its SecAgg+ adapter, which lets a plain fit through).
      java.util.Optional<NodePasses> passes = clientPasses.passes(UserApps.loader(classpath));
      if (passes.isPresent()) {
        client = passes.get().serve(client);
        what += "; " + ClientPassesOptions.describe(passes.get());
      }
      runner = builder(client).build();
      // Last of the checks, so that every other mistake is named even while offline.
      ServerSettings.requireKnownHost("--server", address.host());
    } catch (IllegalArgumentException | IllegalStateException | IOException e) {
      int status = usage(err, e.getMessage());
      verbose.trace(err, e);
      return status;
    } catch (LocalTrainingOptions.DataException e) {
      return Problems.report(err, "client", e.where, e.problem);
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

  private FlowerClientBuilder builder(FlowerClient client) {
    FlowerClientBuilder b = FlowerClientRunner.builder(client).target(server)
        .maxMessageSize(maxMessageSize)
        .backoff(Backoff.DEFAULT.withMaxAttempts(maxAttempts).withSeed(training.seed));
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

  static int usage(PrintWriter err, String message) {
    err.println("tributary client: " + message.replaceAll("\\R", " "));
    err.flush();
    return ExitCodes.BAD_INPUT;
  }
}
