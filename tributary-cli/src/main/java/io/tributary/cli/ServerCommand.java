package io.tributary.cli;

import io.tributary.flower.fleet.server.FleetApi;
import io.tributary.flower.fleet.server.FleetServer;
import io.tributary.flower.server.FlowerServer;
import io.tributary.flower.server.FlowerServerException;
import io.tributary.flower.server.InitialParameters;
import io.tributary.flower.server.RunResult;
import io.tributary.flower.server.ServerConfig;
import io.tributary.learning.FederatedAlgorithm;
import io.tributary.flower.server.ServerRunFiles;
import io.tributary.learning.rounds.RoundListener;
import io.tributary.learning.rounds.RoundListeners;
import io.tributary.learning.rounds.RoundRecord;
import io.tributary.privacy.aggregation.DpSettings;
import io.tributary.ui.LiveView;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The {@code server} command: a Flower-protocol server that Python Flower clients and Tributary
 * clients join, running FedAvg or FedProx rounds as federated computations.
 */
@Command(
    name = "server",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    sortOptions = false,
    description = {
      "Run a Flower-protocol server (flwr.proto.FlowerService/Join): Python Flower clients "
          + "(start_client with the grpc-bidi transport) and Tributary clients join it.",
      "With --fleet-api-address and --app it also serves Flower's Fleet API: flower-supernode "
          + "(grpc-rere, or --rest with --fleet-api-type http) and Java SuperNodes join, get the "
          + "App's FAB and run its ClientApp, in the same rounds as the Join clients.",
      "Each round samples clients, sends FitIns, averages the results weighted by examples "
          + "(FedAvg or FedProx), then sends EvaluateIns and averages the losses.",
      "Writes DIR/metrics.jsonl (one JSON object per round: round, client_loss, eval_loss, "
          + "clients, examples, failures, seconds, bytes_up, bytes_down), DIR/model.zip (one tag "
          + "per round), DIR/final.npz and DIR/report.html (charts and a table of the rounds, "
          + "also when the run stops early).",
      "Exits with 2 and one line on stderr for a bad option value or unreadable file, with 1 "
          + "when the run cannot go on (too few clients, no initial parameters).",
      ""
    })
final class ServerCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @picocli.CommandLine.Mixin Verbose verbose = new Verbose();

  @Option(names = "--address", paramLabel = "HOST:PORT",
      description = "where to serve the legacy Join protocol, such as 0.0.0.0:8080 ([::]:8080 "
          + "for IPv6; port 0 picks a free port); needed unless --fleet-api-address is given")
  String address;

  @picocli.CommandLine.Mixin FleetApiOptions fleetOptions = new FleetApiOptions();

  @Option(names = "--rounds", paramLabel = "N", required = true,
      description = "the number of rounds")
  int rounds;

  @Option(names = "--min-clients", paramLabel = "K", required = true,
      description = "clients to wait for before each round, and the least sampled per round")
  int minClients;

  @Option(names = {"--algorithm", "--strategy"}, paramLabel = "NAME",
      description = "the algorithm, one of those listed below (default: fedavg); the round runs "
          + "its federated computation over the connected clients; fedprox sends proximal_mu in "
          + "each FitIns config")
  String strategy = "fedavg";

  @picocli.CommandLine.Mixin AlgorithmOptions algorithmOptions = new AlgorithmOptions();
  @picocli.CommandLine.Mixin SecureAggregationOptions secureAggregation =
      new SecureAggregationOptions();

  @picocli.CommandLine.Mixin DpOptions dpOptions = new DpOptions();

  @picocli.CommandLine.Mixin UiOptions uiOptions = new UiOptions();

  @Option(names = "--mu", paramLabel = "MU",
      description = "FedProx's proximal coefficient (default: " + SimulateCommand.DEFAULT_MU
          + "; fedprox only)")
  Double mu;

  @Option(names = "--fraction-fit", paramLabel = "F",
      description = "fraction of connected clients sampled per round, at least --min-clients "
          + "(default: 1.0)")
  double fractionFit = 1.0;

  @Option(names = "--round-timeout", paramLabel = "SEC",
      description = "seconds a client may take to answer one instruction; a late client is "
          + "dropped and counted as failed, and the round goes on; 0 for no limit (default: 600)")
  double roundTimeout = ServerConfig.DEFAULT_ROUND_TIMEOUT.toSeconds();

  @Option(names = "--max-examples-per-client", paramLabel = "N",
      description = "the largest num_examples a client's answer is weighted with (default: "
          + "1000000000); see --over-max-examples")
  long maxExamplesPerClient = ServerConfig.DEFAULT_MAX_EXAMPLES_PER_CLIENT;

  @Option(names = "--max-examples-over-median", paramLabel = "F",
      description = "from round 2 on, a client's num_examples above F times the median the "
          + "previous round's clients reported counts as that bound; 0 for none (default: 10)")
  double examplesOverMedian = ServerConfig.DEFAULT_EXAMPLES_OVER_MEDIAN;

  @Option(names = "--client-metric", paramLabel = "NAME=HOW",
      description = "how the clients' metric NAME (FitRes and EvaluateRes metrics) is "
          + "aggregated into metrics.jsonl (fit_NAME, evaluate_NAME): weighted_mean, mean, sum, "
          + "min or max; repeatable (default: weighted_mean, by examples)")
  List<String> clientMetrics = new java.util.ArrayList<>();

  @Option(names = "--over-max-examples", paramLabel = "clip|exclude",
      description = "a client reporting more examples is weighted with the bound (clip, the "
          + "default) or fails that round (exclude)")
  String overMaxExamples = "clip";

  @Option(names = "--min-success-fraction", paramLabel = "F",
      description = "fraction of a round's clients that must succeed for the round to count "
          + "(default: any one client, as Flower's accept_failures)")
  double minSuccessFraction = Double.MIN_VALUE;

  @Option(names = "--client-wait", paramLabel = "SEC",
      description = "seconds to wait for --min-clients clients (default: 600)")
  double clientWait = 600;

  @Option(names = "--initial", paramLabel = "FILE.npz",
      description = "the initial model (default: asked of one random client, as Flower does)")
  Path initial;

  @Option(names = "--out", paramLabel = "DIR",
      description = "the output directory, created if needed; it must not hold a run already "
          + "(default: runs/server-<timestamp>)")
  Path out;

  @Option(names = "--resume", paramLabel = "DIR",
      description = "continue the stopped or killed run in DIR after the last round in its "
          + "model.zip: that round's model is the initial one, the rounds go on from the next "
          + "up to --rounds, and metrics.jsonl is cut back to that round; the other options are "
          + "this server's (the output directory is DIR)")
  Path resume;

  @Option(names = "--seed", paramLabel = "S",
      description = "seeds client sampling (default: 1)")
  long seed = 1;

  @Option(names = "--tls-cert", paramLabel = "FILE",
      description = "the server's PEM certificate chain (with --tls-key: TLS)")
  Path tlsCert;

  @Option(names = "--tls-key", paramLabel = "FILE", description = "the server's PEM private key")
  Path tlsKey;

  @Option(names = "--tls-client-ca", paramLabel = "FILE",
      description = "PEM CA certificates; clients must present a certificate it signed (mTLS)")
  Path tlsClientCa;

  @Option(names = "--auth-tokens", paramLabel = "FILE",
      description = "accepted bearer tokens, one per line; clients must send 'authorization: "
          + "Bearer TOKEN' or are refused with UNAUTHENTICATED")
  Path authTokens;

  @Option(names = "--read-ahead-mb", paramLabel = "MB",
      description = "MiB of clients' fit answers read before the round takes them (Join "
          + "clients' and Fleet nodes' together); clients beyond it keep their answers until "
          + "there is room (default: an eighth of the heap, at most 256; the server also "
          + "buffers as much of outgoing models, and of Fleet HTTP request bodies)")
  Integer readAheadMb;

  @Option(names = "--flow-control-window-kb", paramLabel = "KB",
      description = "KiB of its answer each client may send before the server reads it (its "
          + "HTTP/2 stream window), 64 to 65536, fixed below 8192; the server holds up to this "
          + "much for every client waiting to be read (default: gRPC's own tuning, up to 8192, "
          + "while the heap holds 256 KiB per --min-clients, else 64)")
  Integer flowControlWindowKb;

  @Option(names = "--max-concurrent-clients", paramLabel = "N",
      description = "the most worker threads that check and fold the clients' answers, 1 to "
          + "4096; each may hold its client's answer and partial float64 sums of twice the "
          + "model's bytes, and the server runs fewer when a quarter of the heap cannot hold "
          + "those (default: 256; every sampled client is sent its instruction at once "
          + "whatever this is)")
  int maxConcurrentClients = ServerConfig.DEFAULT_MAX_CONCURRENT_CLIENTS;

  @Override
  public Integer call() {
    PrintWriter err = spec.commandLine().getErr();
    verbose.configureLogging();
    ServerConfig config;
    Optional<FleetApi> fleet;
    if (resume != null && out != null && !resume.toAbsolutePath().normalize()
        .equals(out.toAbsolutePath().normalize())) {
      return usage(err, "--resume writes into the run's own directory " + resume
          + "; leave out --out " + out);
    }
    if (resume != null && initial != null) {
      return usage(err, "--resume takes the initial model from the run's checkpoint; leave out"
          + " --initial");
    }
    Path dir = resume != null ? resume
        : out != null ? out : Path.of("runs", "server-" + System.currentTimeMillis());
    Optional<LiveView.Builder> ui;
    try {
      ui = uiOptions.builder();
      config = config();
      fleet = fleet();
      // Last of the checks, so that every other mistake is named even while offline.
      if (address != null) {
        ServerSettings.requireKnownHost("--address", config.host());
      }
      if (fleet.isPresent()) {
        ServerSettings.requireKnownHost("--fleet-api-address", fleet.get().host());
      }
    } catch (IllegalArgumentException e) {
      int status = usage(err, e.getMessage());
      verbose.trace(err, e);
      return status;
    } catch (FileProblem p) {
      int status = Problems.report(err, "server", p.file, p.problem);
      verbose.trace(err, p.problem);
      return status;
    }
    if (resume == null) {
      try {
        ServerRunFiles.requireNoRun(dir);
      } catch (IOException e) {
        return usage(err, e.getMessage());
      }
      try {
        Files.createDirectories(dir);
      } catch (IOException e) {
        return Problems.report(err, "server", dir, e);
      }
    }
    return run(config, fleet, dir, err, ui);
  }

  private int run(ServerConfig config, Optional<FleetApi> fleet, Path dir, PrintWriter err,
      Optional<LiveView.Builder> ui) {
    PrintWriter outw = spec.commandLine().getOut();
    FederatedAlgorithm s = config.algorithm();
    int done = config.initial().roundsDone();
    Optional<DpSettings> dp = dpOptions.settings(1.0, config.rounds());
    // The server starts before any file is touched, and the files are checked and locked
    // before the first round: a failed start or a refused resume leaves the directory as it was.
    Started started;
    try {
      started = start(config, fleet);
    } catch (TlsProblem e) {
      // The TLS files passed the PEM check but grpc could not use what they hold.
      int status = usage(err, e.getCause().getMessage().replaceAll("\\R", " "));
      verbose.trace(err, e.getCause());
      return status;
    } catch (IOException e) {
      int status = Problems.report(err, "server", dir, e);
      verbose.trace(err, e);
      return status;
    }
    ServerRunFiles output;
    try {
      output = ServerSettings.runFiles(dir, config.rounds(), s,
          command(), dp).report(s.name() + " server on " + config.host() + ":" + config.port(),
              ServerSettings.display(config, dir, command(), dp))
          .identity(config.runIdentity()).progress(outw).resumedAfter(done).build();
    } catch (IOException e) {
      started.close();
      return Problems.report(err, "server", dir.resolve("metrics.jsonl"), e);
    }
    DpOptions.warnIfSeeded(err, "server", dp);
    Optional<LiveView> view;
    try {
      view = liveView(ui, config, dp, outw);
    } catch (IllegalArgumentException e) {
      closeQuietly(output);
      started.close();
      return usage(err, e.getMessage());
    } catch (IOException e) {
      closeQuietly(output);
      started.close();
      return usage(err, "--ui " + uiOptions.ui + ": cannot listen there: " + e.getMessage());
    }
    RoundListener listener = view.<RoundListener>map(v -> RoundListeners.of(output, v))
        .orElse(output);
    try (listener;
        Started server = started) {
      if (done > 0) {
        outw.println("resuming " + dir + " after round " + done);
      }
      outw.println("listening on " + server.where(config, fleet) + ", waiting for "
          + config.minClients() + " clients");
      outw.flush();
      server.run(listener);
      // The server told the files the run's end: report.html and final.npz are written.
      Path report = dir.resolve(ServerRunFiles.REPORT);
      outw.println("wrote " + dir);
      outw.println("report: " + report);
      if (dp.isPresent()) {
        outw.println(DpOptions.spentLine(dp.get(), 1.0, config.rounds()));
      }
      outw.flush();
      return 0;
    } catch (IOException e) {
      stoppedReport(output, done, "stopped by a file problem: " + e.getMessage(), err);
      int status = Problems.report(err, "server", dir, e);
      verbose.trace(err, e);
      return status;
    } catch (FlowerServerException e) {
      stoppedReport(output, done, "stopped: " + e.getMessage(), err);
      err.println("tributary server: " + e.getMessage().replaceAll("\\R", " "));
      err.flush();
      verbose.trace(err, e);
      return 1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      stoppedReport(output, done, "interrupted", err);
      err.println("tributary server: interrupted");
      err.flush();
      return 1;
    }
  }

  /** The live page of the run, started, when --ui was given. */
  private static Optional<LiveView> liveView(Optional<LiveView.Builder> ui, ServerConfig config,
      Optional<DpSettings> dp, PrintWriter out) throws IOException {
    if (ui.isEmpty()) {
      return Optional.empty();
    }
    LiveView.Builder b = ui.get().title(config.algorithm().name() + " server on "
        + config.host() + ":" + config.port()).evaluation(RoundRecord.EvaluationKind.FEDERATED);
    dp.ifPresent(d -> b.epsilonAfterRound(ServerSettings.epsilonAfterRound(d)));
    return Optional.of(UiOptions.start(b, out));
  }

  private static void closeQuietly(ServerRunFiles output) {
    try {
      output.close();
    } catch (IOException e) {
      // Nothing was written yet; the --ui problem is the one to report.
    }
  }

  private String command() {
    return String.join(" ", spec.commandLine().getParseResult().originalArgs());
  }

  /**
   * Writes the report of a run that stopped early, naming the last round it finished; a report
   * that cannot be written is one more line on stderr, after which the run's own problem follows.
   */
  private static void stoppedReport(ServerRunFiles output, int done, String why,
      PrintWriter err) {
    List<io.tributary.learning.rounds.RoundRecord> rounds = output.rounds();
    int last = rounds.isEmpty() ? done : rounds.getLast().round();
    String outcome = (last == 0 ? "stopped before round 1" : "stopped after round " + last)
        + (why.startsWith("stopped") ? why.substring("stopped".length()) : ": " + why);
    try {
      output.finish(outcome.replaceAll("\\R", " "));
    } catch (IOException e) {
      err.println("tributary server: could not write " + ServerRunFiles.REPORT + ": "
          + e.getMessage());
    }
  }

  /** A server's TLS files that grpc refused when the server started. */
  static final class TlsProblem extends IOException {
    private static final long serialVersionUID = 1L;

    TlsProblem(IOException cause) {
      super(cause.getMessage(), cause);
    }
  }

  /** The server started: the legacy one, or one that serves the Fleet API too. */
  private record Started(FlowerServer legacy, FleetServer fleet) implements AutoCloseable {
    RunResult run(io.tributary.learning.rounds.RoundListener l) throws FlowerServerException,
        InterruptedException {
      return fleet != null ? fleet.run(l) : legacy.run(l);
    }

    String where(ServerConfig config, Optional<FleetApi> api) {
      if (fleet == null) {
        return config.host() + ":" + legacy.port();
      }
      String f = api.get().host() + ":" + fleet.fleetPort() + " (Fleet API, "
          + api.get().transport().name().toLowerCase(java.util.Locale.ROOT).replace('_', '-')
          + ", " + api.get().app() + ")";
      return fleet.joinPort().map(p -> config.host() + ":" + p + " (Join) and ").orElse("") + f;
    }

    @Override
    public void close() {
      if (fleet != null) {
        fleet.close();
      } else {
        legacy.close();
      }
    }
  }

  private static Started start(ServerConfig config, Optional<FleetApi> fleet)
      throws IOException {
    try {
      return fleet.isPresent() ? new Started(null, FleetServer.start(config, fleet.get()))
          : new Started(FlowerServer.start(config), null);
    } catch (IOException e) {
      if (config.tls().isPresent() && String.valueOf(e.getMessage()).contains("TLS")) {
        throw new TlsProblem(e);
      }
      throw e;
    }
  }

  /** The Fleet API settings, when --fleet-api-address is given. */
  Optional<FleetApi> fleet() throws FileProblem {
    Optional<io.tributary.flower.secaggplus.SecAggPlusSettings> secAgg =
        fleetOptions.fleetApiAddress == null ? Optional.empty()
            : secureAggregation.flower(dpOptions.settings(1.0, rounds));
    if (secAgg.isPresent() && address != null) {
      throw new IllegalArgumentException("--secure-aggregation with --fleet-api-address runs "
          + "Flower's SecAgg+, which legacy Join clients cannot take part in: leave out "
          + "--address");
    }
    return fleetOptions.api(address != null, ServerSettings.tls(tlsCert, tlsKey, tlsClientCa),
        secAgg);
  }

  /** The validated settings. */
  ServerConfig config() throws FileProblem {
    if (address == null && fleetOptions.fleetApiAddress == null) {
      throw new IllegalArgumentException("give --address (the Join protocol) or "
          + "--fleet-api-address (Flower's Fleet API), or both");
    }
    ServerSettings.Address a = ServerSettings.address("--address",
        address != null ? address : "0.0.0.0:0");
    FederatedAlgorithm algorithm = ServerSettings.algorithm(strategy,
        algorithmOptions.hyperparameters(strategy), mu);
    Optional<DpSettings> dp = dpOptions.settings(1.0, rounds);
    if (dp.isPresent()) {
      algorithm = ServerSettings.dp(algorithm, dp.get(), minClients, seed);
    }
    ServerConfig.Builder b = ServerSettings.builder(a, rounds, minClients, algorithm,
        fractionFit, roundTimeout, minSuccessFraction, clientWait, seed);
    for (String m : clientMetrics) {
      ServerSettings.clientMetric(b, m);
    }
    if (readAheadMb != null) {
      b.readAheadBytes(ServerSettings.readAhead(readAheadMb));
    }
    if (flowControlWindowKb != null) {
      b.flowControlWindow(ServerSettings.flowControlWindow(flowControlWindowKb));
    }
    b.maxConcurrentClients(ServerSettings.maxConcurrentClients(maxConcurrentClients));
    if (fleetOptions.fleetApiAddress == null) {
      secureAggregation.apply(b, dp);
    }
    b.maxExamplesPerClient(ServerSettings.maxExamples(maxExamplesPerClient),
        ServerSettings.weightPolicy(overMaxExamples));
    b.examplesOverMedian(ServerSettings.examplesOverMedian(examplesOverMedian));
    ServerSettings.tls(tlsCert, tlsKey, tlsClientCa).ifPresent(b::tls);
    if (authTokens != null) {
      try {
        b.tokens(ServerSettings.tokens(authTokens));
      } catch (IOException e) {
        throw new FileProblem(authTokens, e);
      }
    }
    try {
      b.initial(resume != null ? InitialParameters.resume(resume)
          : ServerSettings.initial(initial));
    } catch (IOException e) {
      throw new FileProblem(resume != null ? resume : initial, e);
    }
    return b.build();
  }

  /** A file named by an option could not be used. */
  static final class FileProblem extends Exception {
    private static final long serialVersionUID = 1L;
    final transient Path file;
    final IOException problem;

    FileProblem(Path file, IOException problem) {
      super(problem);
      this.file = file;
      this.problem = problem;
    }
  }

  static int usage(PrintWriter err, String message) {
    err.println("tributary server: " + message.replaceAll("\\R", " "));
    err.flush();
    return ExitCodes.BAD_INPUT;
  }
}
