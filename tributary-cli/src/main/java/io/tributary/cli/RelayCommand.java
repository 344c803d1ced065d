package io.tributary.cli;

import io.tributary.flower.ConnectionFailedException;
import io.tributary.flower.FlowerClientRunner;
import io.tributary.flower.TlsSettings;
import io.tributary.flower.relay.Relay;
import io.tributary.flower.relay.RelayConfig;
import io.tributary.flower.server.NotEnoughClientsException;
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
 * The {@code relay} command: parses its options into a {@link RelayConfig} and runs a
 * {@link Relay} until the server ends the run.
 */
@Command(
    name = "relay",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    sortOptions = false,
    description = {
      "Run an edge server between clients and a tributary server.",
      "Clients (tributary client, Python Flower clients) join the relay at --address; once "
          + "--min-clients have joined, the relay joins the server at --upstream as one client. "
          + "Each fit the server sends goes to every client of the relay, which answers with "
          + "its edge's example-weighted mean update and total examples; each evaluate, with "
          + "the edge's weighted mean loss. When the server is lost, the clients are told to "
          + "come back when the relay next tries to rejoin, and the relay rejoins with backoff.",
      "With --secure-aggregation every edge round is a SecAgg+ round among the Join clients "
          + "(which run 'tributary client --secure-aggregation'): the relay learns only its "
          + "edge's example-weighted sum and total examples, not any client's update.",
      "Exits with 0 when the server ended the run, 1 when the server refused the relay or too "
          + "few clients joined, and 2 with one line on stderr for a bad option or unreadable "
          + "file.",
      ""
    })
final class RelayCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @picocli.CommandLine.Mixin Verbose verbose = new Verbose();

  @Option(names = "--upstream", paramLabel = "HOST:PORT", required = true,
      description = "the server's address")
  String upstream;

  @Option(names = "--address", paramLabel = "HOST:PORT", defaultValue = "0.0.0.0:9092",
      description = "where clients join (default: ${DEFAULT-VALUE})")
  String address;

  @Option(names = "--min-clients", paramLabel = "N",
      description = "clients to wait for before joining the server, and below which an edge "
          + "round is refused (default: 1)")
  int minClients = 1;

  @picocli.CommandLine.Mixin FleetApiOptions fleetOptions = new FleetApiOptions();

  @picocli.CommandLine.Mixin SecureAggregationOptions secureAggregation =
      new SecureAggregationOptions();

  @Option(names = "--edge-rounds", paramLabel = "K2",
      description = "edge rounds per server round, hierarchical FedAvg's k2: the relay trains "
          + "its clients K2 times from its edge's model and reports the edge's update "
          + "(default: 1)")
  int edgeRounds = 1;

  @Option(names = "--client-wait", paramLabel = "SEC",
      description = "seconds to wait for --min-clients clients (default: 600)")
  double clientWait = 600;

  @Option(names = "--round-timeout", paramLabel = "SEC",
      description = "seconds a client may take to answer one instruction; 0 for no limit "
          + "(default: 600)")
  double roundTimeout = 600;

  @Option(names = "--min-success-fraction", paramLabel = "F",
      description = "fraction of the edge's clients that must succeed for the relay to answer "
          + "(default: 1, all of them)")
  double minSuccessFraction = 1.0;

  @Option(names = "--max-examples-per-client", paramLabel = "N",
      description = "the largest num_examples a client's update is weighted with (default: "
          + "1000000000); see --over-max-examples")
  long maxExamplesPerClient = io.tributary.flower.server.ServerConfig
      .DEFAULT_MAX_EXAMPLES_PER_CLIENT;

  @Option(names = "--over-max-examples", paramLabel = "clip|exclude",
      description = "a client reporting more examples is weighted with the bound (clip, the "
          + "default) or left out (exclude)")
  String overMaxExamples = "clip";

  @Option(names = "--tls-cert", paramLabel = "FILE",
      description = "the relay's PEM certificate chain for its clients (with --tls-key: TLS)")
  Path tlsCert;

  @Option(names = "--tls-key", paramLabel = "FILE", description = "the relay's PEM private key")
  Path tlsKey;

  @Option(names = "--tls-client-ca", paramLabel = "FILE",
      description = "require client certificates signed by these PEM authorities (mutual TLS)")
  Path tlsClientCa;

  @Option(names = "--auth-tokens", paramLabel = "FILE",
      description = "bearer tokens accepted from clients, one per line")
  Path authTokens;

  @Option(names = "--upstream-tls-ca", paramLabel = "FILE",
      description = "reach the server over TLS, trusting the PEM authorities in FILE")
  Path upstreamCa;

  @Option(names = "--upstream-tls-cert", paramLabel = "FILE",
      description = "for mutual TLS to the server: the relay's PEM certificate chain")
  Path upstreamCert;

  @Option(names = "--upstream-tls-key", paramLabel = "FILE",
      description = "for mutual TLS to the server: the relay's PKCS#8 PEM key")
  Path upstreamKey;

  @Option(names = "--upstream-auth-token", paramLabel = "T",
      description = "send 'authorization: Bearer T' to the server")
  String upstreamToken;

  @Option(names = "--tensor-types", paramLabel = "LIST", split = ",",
      description = "tensor types to announce to the server, most preferred first (default: "
          + "numpy.ndarray,proto.ndarray)")
  List<String> tensorTypes;

  @Option(names = "--max-message-size", paramLabel = "BYTES",
      description = "the largest message accepted or sent on either side (default: "
          + "2147483647, as Flower)")
  int maxMessageSize = Integer.MAX_VALUE;

  @Option(names = "--read-ahead-mb", paramLabel = "MB",
      description = "MiB of clients' answers read before the edge round takes them (Join "
          + "clients' and Fleet nodes' together), 1 to 2047; clients beyond it keep their "
          + "answers until there is room (default: an eighth of the heap, at most 256)")
  Integer readAheadMb;

  @Option(names = "--flow-control-window-kb", paramLabel = "KB",
      description = "KiB of its answer each Join client may send before the relay reads it (its "
          + "HTTP/2 stream window), 64 to 65536, fixed below 8192 (default: gRPC's own tuning, "
          + "up to 8192, while the heap holds 256 KiB per --min-clients, else 64)")
  Integer flowControlWindowKb;

  @Option(names = "--max-concurrent-clients", paramLabel = "N",
      description = "the most worker threads that check and fold the clients' answers, 1 to "
          + "4096; the relay runs fewer when a quarter of its heap cannot hold their partial "
          + "sums (default: the processors)")
  Integer maxConcurrentClients;

  @Override
  public Integer call() {
    PrintWriter err = spec.commandLine().getErr();
    verbose.configureLogging();
    RelayConfig config;
    try {
      config = config();
    } catch (IllegalArgumentException e) {
      verbose.trace(err, e);
      return usage(err, e.getMessage());
    } catch (IOException e) {
      verbose.trace(err, e);
      return usage(err, "--auth-tokens " + authTokens + ": " + e.getMessage());
    } catch (ServerCommand.FileProblem p) {
      verbose.trace(err, p);
      return usage(err, "--supernode-keys " + p.file + ": " + p.problem.getMessage());
    }
    try (Relay relay = Relay.start(config)) {
      err.println("tributary relay: clients join " + config.host() + ":" + relay.port()
          + relay.fleetPort().map(p -> ", SuperNodes " + config.fleet().get().host() + ":" + p
              + " (Fleet API, " + config.fleet().get().transport() + ")").orElse("")
          + "; reporting to " + config.upstream());
      err.flush();
      Thread hook = new Thread(() -> {
        try {
          relay.close();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }, "tributary-relay-stop");
      Runtime.getRuntime().addShutdownHook(hook);
      FlowerClientRunner.Outcome outcome = relay.run();
      spec.commandLine().getOut().println(outcome == FlowerClientRunner.Outcome.STOPPED
          ? "stopped" : "done: the server ended the run");
      return 0;
    } catch (IOException e) {
      verbose.trace(err, e);
      return usage(err, e.getMessage());
    } catch (NotEnoughClientsException | ConnectionFailedException e) {
      err.println("tributary relay: " + e.getMessage().replaceAll("\\R", " "));
      err.flush();
      verbose.trace(err, e);
      return 1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return 1;
    }
  }

  /** The options as the library's settings; a bad value throws naming its option. */
  RelayConfig config() throws IOException, ServerCommand.FileProblem {
    ServerSettings.Address down = ServerSettings.address("--address", address);
    ServerSettings.address("--upstream", upstream);
    int maxK2 = io.tributary.learning.HierarchicalFedAvg.MAX_EDGE_ROUNDS;
    if (edgeRounds < 1 || edgeRounds > maxK2) {
      throw new IllegalArgumentException("--edge-rounds must be 1 to " + maxK2 + ", got "
          + edgeRounds);
    }
    RelayConfig.Builder b = RelayConfig.builder().address(down.host(), down.port())
        .upstream(upstream).minClients(minClients).edgeRounds(edgeRounds)
        .clientWait(ServerSettings.seconds("--client-wait", clientWait))
        .minSuccessFraction(minSuccessFraction)
        .maxExamplesPerClient(ServerSettings.maxExamples(maxExamplesPerClient),
            ServerSettings.weightPolicy(overMaxExamples))
        .maxMessageSize(maxMessageSize);
    if (maxConcurrentClients != null) {
      b.maxConcurrentClients(ServerSettings.maxConcurrentClients(maxConcurrentClients));
    }
    if (readAheadMb != null) {
      b.readAheadBytes(ServerSettings.readAhead(readAheadMb));
    }
    if (flowControlWindowKb != null) {
      b.flowControlWindow(ServerSettings.flowControlWindow(flowControlWindowKb));
    }
    if (roundTimeout != 0) {
      b.roundTimeout(ServerSettings.seconds("--round-timeout", roundTimeout));
    }
    java.util.Optional<io.tributary.flower.server.TlsFiles> tls =
        ServerSettings.tls(tlsCert, tlsKey, tlsClientCa);
    tls.ifPresent(b::tls);
    java.util.Optional<io.tributary.flower.server.SecureAggregation> secure =
        secureAggregation.settings(java.util.Optional.empty());
    if (secure.isPresent() && fleetOptions.fleetApiAddress != null) {
      throw new IllegalArgumentException("--secure-aggregation with --fleet-api-address: a "
          + "relay runs SecAgg+ among its Join clients only, not Flower's SecAgg+ among "
          + "SuperNodes; serve one or the other");
    }
    secure.ifPresent(b::secureAggregation);
    fleetOptions.api(false, tls, java.util.Optional.empty()).ifPresent(b::fleet);
    if (authTokens != null) {
      b.tokens(ServerSettings.tokens(authTokens));
    }
    if (upstreamCert != null || upstreamKey != null) {
      if (upstreamCert == null || upstreamKey == null) {
        throw new IllegalArgumentException("--upstream-tls-cert and --upstream-tls-key go "
            + "together");
      }
      b.upstreamTls(new TlsSettings(upstreamCa, upstreamCert, upstreamKey));
    } else if (upstreamCa != null) {
      b.upstreamTls(TlsSettings.trusting(upstreamCa));
    }
    if (upstreamToken != null) {
      if (upstreamToken.isEmpty() || !upstreamToken.chars().allMatch(c -> c > 0x20 && c < 0x7f)) {
        throw new IllegalArgumentException("--upstream-auth-token must be non-empty printable "
            + "ASCII without spaces");
      }
      b.upstreamToken(upstreamToken);
    }
    if (tensorTypes != null) {
      b.tensorTypes(tensorTypes.stream().map(String::strip).toList());
    }
    RelayConfig config;
    try {
      config = b.build();
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
    ServerSettings.requireKnownHost("--upstream", ServerSettings.address("--upstream",
        upstream).host());
    return config;
  }

  private static int usage(PrintWriter err, String message) {
    err.println("tributary relay: " + String.valueOf(message).replaceAll("\\R", " "));
    err.flush();
    return ExitCodes.BAD_INPUT;
  }
}
