package io.tributary.flower.server;

import io.tributary.flower.Scalar;
import io.tributary.flower.server.internal.MemoryBounds;
import io.tributary.flower.server.internal.ServerAlgorithm;
import io.tributary.learning.FederatedAlgorithm;
import io.tributary.learning.MetricAggregation;
import io.tributary.runtime.RuntimeOptions;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SequencedMap;
import java.util.Set;
import java.util.TreeMap;

/**
 * Everything a {@link FlowerServer} needs, checked when built; make one with {@link #builder()}.
 *
 * @param host the address to listen on ({@code 0.0.0.0} for all)
 * @param port the port; 0 picks a free one ({@link FlowerServer#port()} tells which)
 * @param rounds the number of the last round (a run resumed after round k runs rounds k+1 to
 *     this one)
 * @param minClients clients needed before a round starts, and the least sampled per round
 *     (Flower's {@code min_available_clients} and {@code min_fit_clients})
 * @param algorithm the algorithm: the registry's by name ({@link FederatedAlgorithm#named}) or
 *     one composed in code; flat (a server's clients report to it directly). Its round is the
 *     algorithm's own federated {@code next} with CLIENTS bound to the connected clients; the
 *     clients do the client work, told by each fit config what they must do differently:
 *     {@code proximal_mu} when the algorithm has one, and with client-side clipping {@code
 *     clipping_norm} (Flower's {@code fixedclipping_mod} reads it) and {@code local_noise_stddev}
 * @param fractionFit the fraction of connected clients sampled for fit (Flower default 1.0)
 * @param fractionEvaluate the fraction sampled for evaluation (Flower default 1.0); 0 for no
 *     federated evaluation, as Flower's {@code FedAvg(fraction_evaluate=0.0)}
 * @param roundTimeout how long a client may take to answer one instruction; empty for no limit
 *     (the builder's default is {@link #DEFAULT_ROUND_TIMEOUT}, so that one silent client cannot
 *     stall a federation)
 * @param minSuccessFraction the fraction of a round's clients that must succeed; the default,
 *     the smallest positive double, accepts failures as long as one client succeeds (Flower's
 *     {@code accept_failures=True})
 * @param clientWait how long to wait for {@code minClients} clients before giving up
 * @param initial where the first model comes from
 * @param seed seeds client sampling and the choice of the client asked for initial parameters
 * @param tls TLS files; empty for plaintext
 * @param tokens accepted bearer tokens; empty for no authentication
 * @param maxMessageSize the largest message accepted or sent, in bytes
 * @param maxConcurrentClients the most runtime worker threads, which check and fold the
 *     clients' answers into the aggregate; a round runs fewer when their partial sums would not
 *     fit a quarter of {@code memory} ({@link ServerMemory#workers}); every sampled client is
 *     sent its instruction at the start of the invocation whatever this is
 * @param shutdownGrace how long shutdown waits for clients to answer {@code ReconnectIns}
 * @param readAheadBytes how many bytes of fit answers the server reads before the round takes
 *     them (inbound flow control; Join streams' and Fleet nodes' together); clients beyond it
 *     keep their answers until there is room (default {@link ServerMemory#readAheadBytes()} of
 *     {@code memory}); a Fleet endpoint over HTTP holds as many bytes of request bodies at most
 * @param flowControlWindow the HTTP/2 stream window granted to each client, fixed below 8 MiB
 *     (gRPC's bandwidth estimate does not grow it; from 8 MiB gRPC's own tuning, which stops at
 *     8 MiB, runs): the most bytes of an answer a client sends before the server reads it, so
 *     that clients waiting for the read-ahead hold at most this much each in the server's direct
 *     memory (default {@link ServerMemory#flowControlWindow(int)}
 *     of {@code minClients}: gRPC's tuning where {@code memory} holds 256 KiB a client, else
 *     64 KiB fixed)
 * @param memory what the default budgets and the workers are sized from (default the JVM's
 *     heap limit)
 * @param maxExamplesPerClient the largest {@code num_examples} a client's answer counts with in
 *     the weighted means (default {@link #DEFAULT_MAX_EXAMPLES_PER_CLIENT})
 * @param overMaxExamples what a larger count does: {@code CLIP} (default) counts it as the
 *     bound, {@code EXCLUDE} fails that client's result
 * @param examplesOverMedian the round-relative bound on a client's {@code num_examples}: from
 *     round 2 on, a count above this multiple of the median count the previous round's
 *     successful clients reported counts as that multiple (default
 *     {@link #DEFAULT_EXAMPLES_OVER_MEDIAN}); 0 turns it off
 * @param clientMetrics how a metric the clients report (FitRes or EvaluateRes metrics, by name)
 *     is aggregated; a metric not named here is averaged weighted by examples
 * @param secureAggregation SecAgg+ for every fit round (the server finds the protocol on its
 *     class path, see {@link SecureFitProtocol}; the clients must run
 *     {@code io.tributary.flower.secagg.SecAggClientAdapter}); empty for plain rounds
 * @param fitConfig further entries of every fit config
 * @param roundFitConfig entries computed from the server state before each round (they win
 *     over the others)
 */
public record ServerConfig(String host, int port, int rounds, int minClients,
    FederatedAlgorithm algorithm, double fractionFit, double fractionEvaluate,
    Optional<Duration> roundTimeout, double minSuccessFraction, Duration clientWait,
    InitialParameters initial, long seed, Optional<TlsFiles> tls, Set<String> tokens,
    int maxMessageSize, int maxConcurrentClients, Duration shutdownGrace, int readAheadBytes,
    int flowControlWindow, ServerMemory memory, long maxExamplesPerClient,
    RuntimeOptions.WeightPolicy overMaxExamples,
    double examplesOverMedian, Map<String, MetricAggregation> clientMetrics,
    Optional<SecureAggregation> secureAggregation, Map<String, Scalar> fitConfig,
    RoundFitConfig roundFitConfig) {
  /** The default number of worker threads that check and fold the clients' answers. */
  public static final int DEFAULT_MAX_CONCURRENT_CLIENTS = 256;
  /** The most workers a server may be given: 4096. */
  public static final int MAX_CONCURRENT_CLIENTS = 4096;
  /** The default round timeout: 10 minutes per instruction. */
  public static final Duration DEFAULT_ROUND_TIMEOUT = Duration.ofMinutes(10);
  /** The default bound on a client's reported example count: 10^9, as in simulations. */
  public static final long DEFAULT_MAX_EXAMPLES_PER_CLIENT =
      io.tributary.learning.FederatedLearning.DEFAULT_MAX_EXAMPLES_PER_CLIENT;
  /**
   * The default round-relative bound: a client counts with at most 10 times the previous round's
   * median example count, so that one client claiming a huge count cannot outweigh the rest.
   */
  public static final double DEFAULT_EXAMPLES_OVER_MEDIAN = 10;
  /** Flower's default since 1.16: 2 GiB - 1. */
  public static final int DEFAULT_MAX_MESSAGE_SIZE = Integer.MAX_VALUE;
  /** The smallest read-ahead: 64 KiB, below which every fit answer is read alone anyway. */
  public static final int MIN_READ_AHEAD_BYTES = 64 << 10;
  /** The largest stream window: 64 MiB. */
  public static final int MAX_FLOW_CONTROL_WINDOW = 64 << 20;

  public ServerConfig {
    Objects.requireNonNull(host, "host");
    Objects.requireNonNull(algorithm, "algorithm");
    Objects.requireNonNull(initial, "initial");
    fitConfig = Map.copyOf(fitConfig);
    Objects.requireNonNull(roundFitConfig, "roundFitConfig");
    // Refuses an algorithm through edges, naming it.
    new ServerAlgorithm(algorithm, fitConfig, roundFitConfig);
    Objects.requireNonNull(tls, "tls");
    tokens = Set.copyOf(tokens);
    check(port >= 0 && port <= 65535, "port must be 0 to 65535, got " + port);
    check(rounds >= 1, "rounds must be at least 1, got " + rounds);
    check(initial.roundsDone() < rounds, "the run resumed after round " + initial.roundsDone()
        + " has no rounds left of " + rounds);
    check(!(initial instanceof InitialParameters.Resumed r
        && r.updater().map(u -> u.slots().isEmpty()).orElse(true))
        || algorithm.serverOptimizer().stateSlots().isEmpty(), "resume: the "
        + "checkpoint holds no state of " + algorithm.name() + "'s server optimizer; start a new "
        + "run");
    if (initial instanceof InitialParameters.Resumed r) {
      checkAggregatorState(algorithm, r);
    }
    check(minClients >= 1, "min clients must be at least 1, got " + minClients);
    check(fractionFit > 0 && fractionFit <= 1, "fraction fit must be in (0, 1], got "
        + fractionFit);
    check(fractionEvaluate >= 0 && fractionEvaluate <= 1,
        "fraction evaluate must be in [0, 1], got " + fractionEvaluate);
    roundTimeout.ifPresent(t -> check(t.isPositive(), "the round timeout must be positive"));
    check(minSuccessFraction > 0 && minSuccessFraction <= 1,
        "min success fraction must be in (0, 1], got " + minSuccessFraction);
    check(clientWait.isPositive(), "the client wait must be positive");
    check(maxMessageSize >= 1024, "max message size must be at least 1024 bytes, got "
        + maxMessageSize);
    check(maxConcurrentClients >= 1 && maxConcurrentClients <= MAX_CONCURRENT_CLIENTS,
        "max concurrent clients must be 1 to " + MAX_CONCURRENT_CLIENTS + ", got "
        + maxConcurrentClients);
    check(!shutdownGrace.isNegative(), "the shutdown grace cannot be negative");
    MemoryBounds.check(readAheadBytes, flowControlWindow);
    Objects.requireNonNull(memory, "memory");
    check(maxExamplesPerClient >= 1, "max examples per client must be at least 1, got "
        + maxExamplesPerClient);
    Objects.requireNonNull(overMaxExamples, "overMaxExamples");
    check(examplesOverMedian == 0 || (examplesOverMedian >= 1
        && examplesOverMedian <= 1e12), "examplesOverMedian must be 0 (off) or 1 to 1e12, "
        + "got " + examplesOverMedian);
    clientMetrics = Map.copyOf(clientMetrics);
    Objects.requireNonNull(secureAggregation, "secureAggregation");
    tokens.forEach(t -> check(!t.isBlank() && t.strip().equals(t),
        "a bearer token cannot be blank or have surrounding spaces"));
  }

  /**
   * The settings for a run's report, in display form: the algorithm, the rounds, the clients,
   * the address and the rest, with whether TLS and bearer tokens are on (never a token or a key
   * file's contents).
   */
  public SequencedMap<String, String> display() {
    SequencedMap<String, String> m = new LinkedHashMap<>();
    m.put("algorithm", algorithm.name());
    if (algorithm.mu() > 0) {
      m.put("mu", number(algorithm.mu()));
    }
    m.put("rounds", Integer.toString(rounds));
    m.put("min clients", Integer.toString(minClients));
    m.put("address", host + ":" + port);
    m.put("fraction fit", number(fractionFit));
    m.put("fraction evaluate", number(fractionEvaluate));
    m.put("round timeout", roundTimeout.map(d -> number(d.toMillis() / 1000.0) + " s")
        .orElse("none"));
    m.put("min success fraction", minSuccessFraction == Double.MIN_VALUE ? "any one client"
        : number(minSuccessFraction));
    m.put("client wait", number(clientWait.toMillis() / 1000.0) + " s");
    m.put("initial model", switch (initial) {
      case InitialParameters.Given g -> "given (" + g.tensors().size()
          + (g.tensors().size() == 1 ? " tensor)" : " tensors)");
      case InitialParameters.FromClient c -> "asked of a client";
      case InitialParameters.Resumed r -> "resumed after round " + r.afterRound();
    });
    m.put("seed", Long.toString(seed));
    m.put("max examples per client", maxExamplesPerClient + " ("
        + overMaxExamples.name().toLowerCase(Locale.ROOT) + " above)");
    m.put("examples over median", examplesOverMedian == 0 ? "off"
        : number(examplesOverMedian) + "x the previous round's median");
    new TreeMap<>(clientMetrics).forEach((k, v) -> m.put("client metric " + k,
        v.name().toLowerCase(Locale.ROOT)));
    secureAggregation.ifPresent(s -> m.put("secure aggregation", "SecAgg+, " + s.neighbours()
        + " neighbours, threshold " + s.threshold() + ", " + s.bits() + " bits"));
    m.put("tls", tls.isEmpty() ? "off" : tls.get().clientCa().isPresent() ? "mutual" : "on");
    m.put("bearer tokens", tokens.isEmpty() ? "off" : tokens.size() + " accepted");
    return m;
  }

  /**
   * The config every FitIns of the run carries besides {@code server_round}: {@code
   * proximal_mu} when the algorithm has one, {@code clipping_norm} (and {@code
   * local_noise_stddev}) when its aggregator asks the clients to clip, and {@link #fitConfig}.
   */
  public Map<String, Scalar> fitInsConfig() {
    return new ServerAlgorithm(algorithm, fitConfig, roundFitConfig).fitConfig();
  }

  /**
   * The entries the fit config of the round that starts from {@code state} (the algorithm's
   * server state) adds to {@link #fitInsConfig()}: with client-side adaptive clipping the
   * round's {@code clipping_norm}, and {@link #roundFitConfig}'s entries.
   */
  public Map<String, Scalar> fitInsConfig(io.tributary.core.values.StructValue state) {
    return new ServerAlgorithm(algorithm, fitConfig, roundFitConfig).roundConfig(state);
  }

  /** The kind of run a server's checkpoints record ({@link io.tributary.learning.rounds.output.RunIdentity#kind}). */
  public static final String RUN_KIND = "server";

  /**
   * This run's identity, which its checkpoints record and a resume must match: the algorithm,
   * its proximal coefficient, the fractions of clients sampled, the least fraction of successes,
   * the example bound, the client metrics' aggregations, the secure aggregation, and the seed.
   * The number of rounds, the address, timeouts and credentials may change between a run and its
   * resume.
   */
  public io.tributary.learning.rounds.output.RunIdentity runIdentity() {
    SequencedMap<String, String> m = new LinkedHashMap<>();
    m.put("algorithm", algorithm.name());
    m.put("mu", Double.toString(algorithm.mu()));
    m.put("fraction_fit", Double.toString(fractionFit));
    m.put("fraction_evaluate", Double.toString(fractionEvaluate));
    m.put("min_success_fraction", Double.toString(minSuccessFraction));
    m.put("max_examples_per_client", maxExamplesPerClient + " "
        + overMaxExamples.name().toLowerCase(Locale.ROOT));
    m.put("examples_over_median", Double.toString(examplesOverMedian));
    new TreeMap<>(clientMetrics).forEach((k, v) -> m.put("client_metric_" + k.replaceAll(
        "[=\\s]", "_"), v.name().toLowerCase(Locale.ROOT)));
    m.put("secure_aggregation", secureAggregation.map(Object::toString).orElse("off"));
    return new io.tributary.learning.rounds.output.RunIdentity(RUN_KIND, m, seed);
  }

  /**
   * The run's checkpoints as its start tells them: one every round, each recording the
   * algorithm's proximal coefficient as the hyperparameter {@code mu}, its name as the property
   * {@code algorithm}, and this run's {@link #runIdentity}; a server has no graph to store.
   */
  public io.tributary.learning.rounds.Checkpoints checkpoints() {
    SequencedMap<String, Double> h = new LinkedHashMap<>();
    h.put("mu", algorithm.mu());
    SequencedMap<String, String> p = new LinkedHashMap<>();
    p.put("algorithm", algorithm.name());
    p.putAll(runIdentity().properties());
    return new io.tributary.learning.rounds.Checkpoints(1,
        io.tributary.format.TrainingConfig.of("", h).withProperties(p), Optional.empty());
  }

  private static String number(double v) {
    return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v)
        : Double.toString(v);
  }

  /**
   * Refuses, before any file is touched, a checkpoint whose aggregator state (a private
   * aggregator's round and clipping norm) is not the state of the run's aggregator.
   */
  private static void checkAggregatorState(FederatedAlgorithm algorithm,
      InitialParameters.Resumed r) {
    io.tributary.core.types.StructType model;
    try {
      model = io.tributary.flower.server.internal.ModelSpec.of(
          java.util.List.copyOf(r.tensors().values())).type();
    } catch (IllegalArgumentException e) {
      return; // the run refuses these tensors as its model when it starts, naming them
    }
    Optional<io.tributary.core.types.Type> stateType = algorithm.aggregator()
        .create(model).initialize().map(c -> ((io.tributary.core.types.FederatedType)
            c.type().result()).member());
    try {
      r.updater().orElse(new io.tributary.learning.rounds.UpdaterState(0,
          java.util.List.of(), java.util.List.of())).checkAggregator(stateType);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("resume: model.zip's newest checkpoint does not fit "
          + "the run: " + e.getMessage() + "; start a new run", e);
    }
  }

  private static void check(boolean ok, String message) {
    if (!ok) {
      throw new IllegalArgumentException(message);
    }
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Fluent construction with Flower's defaults; {@link #build()} checks everything. */
  public static final class Builder {
    private String host = "0.0.0.0";
    private int port = 8080;
    private int rounds = 1;
    private int minClients = 2;
    private FederatedAlgorithm algorithm = FederatedAlgorithm.fedAvg();
    private final Map<String, Scalar> fitConfig = new java.util.LinkedHashMap<>();
    private RoundFitConfig roundFitConfig = RoundFitConfig.none();
    private double fractionFit = 1.0;
    private double fractionEvaluate = 1.0;
    private Optional<Duration> roundTimeout = Optional.of(DEFAULT_ROUND_TIMEOUT);
    private double minSuccessFraction = Double.MIN_VALUE;
    private Duration clientWait = Duration.ofMinutes(10);
    private InitialParameters initial = InitialParameters.fromClient();
    private long seed;
    private Optional<TlsFiles> tls = Optional.empty();
    private Set<String> tokens = Set.of();
    private int maxMessageSize = DEFAULT_MAX_MESSAGE_SIZE;
    private int maxConcurrentClients = DEFAULT_MAX_CONCURRENT_CLIENTS;
    private Duration shutdownGrace = Duration.ofSeconds(3);
    private Integer readAheadBytes;
    private Integer flowControlWindow;
    private ServerMemory memory;
    private long maxExamplesPerClient = DEFAULT_MAX_EXAMPLES_PER_CLIENT;
    private RuntimeOptions.WeightPolicy overMaxExamples = RuntimeOptions.WeightPolicy.CLIP;
    private double examplesOverMedian = DEFAULT_EXAMPLES_OVER_MEDIAN;
    private final Map<String, MetricAggregation> clientMetrics = new java.util.HashMap<>();
    private Optional<SecureAggregation> secureAggregation = Optional.empty();

    private Builder() {}

    public Builder address(String h, int p) {
      this.host = h;
      this.port = p;
      return this;
    }

    public Builder rounds(int n) {
      this.rounds = n;
      return this;
    }

    public Builder minClients(int n) {
      this.minClients = n;
      return this;
    }

    /** The algorithm (default FedAvg). */
    public Builder algorithm(FederatedAlgorithm a) {
      this.algorithm = a;
      return this;
    }

    /** Sends {@code entries} in every fit config as well (added to those given before). */
    public Builder fitConfig(Map<String, Scalar> entries) {
      this.fitConfig.putAll(entries);
      return this;
    }

    /** Adds {@code entries}' values for the server state to each round's fit config. */
    public Builder roundFitConfig(RoundFitConfig entries) {
      this.roundFitConfig = Objects.requireNonNull(entries, "entries");
      return this;
    }

    public Builder fractionFit(double f) {
      this.fractionFit = f;
      return this;
    }

    public Builder fractionEvaluate(double f) {
      this.fractionEvaluate = f;
      return this;
    }

    /**
     * How long a client may take to answer one instruction (default
     * {@link #DEFAULT_ROUND_TIMEOUT}); {@link Duration#ZERO} for no limit.
     */
    public Builder roundTimeout(Duration t) {
      this.roundTimeout = t.isZero() ? Optional.empty() : Optional.of(t);
      return this;
    }

    /**
     * Bounds the example count a client's answer is weighted with (default
     * {@link #DEFAULT_MAX_EXAMPLES_PER_CLIENT}): a larger one is clipped to {@code max} or fails
     * the client, as {@code policy} says.
     */
    public Builder maxExamplesPerClient(long max, RuntimeOptions.WeightPolicy policy) {
      this.maxExamplesPerClient = max;
      this.overMaxExamples = policy;
      return this;
    }

    /**
     * Bounds a client's example count relative to the others' (default
     * {@link #DEFAULT_EXAMPLES_OVER_MEDIAN}): from round 2 on, a count above {@code factor} times
     * the median count of the previous round's successful clients counts as that bound; 0 turns
     * the bound off. The absolute bound ({@link #maxExamplesPerClient}) applies as well.
     */
    public Builder examplesOverMedian(double factor) {
      this.examplesOverMedian = factor;
      return this;
    }

    public Builder minSuccessFraction(double f) {
      this.minSuccessFraction = f;
      return this;
    }

    public Builder clientWait(Duration d) {
      this.clientWait = d;
      return this;
    }

    public Builder initial(InitialParameters p) {
      this.initial = p;
      return this;
    }

    public Builder seed(long s) {
      this.seed = s;
      return this;
    }

    public Builder tls(TlsFiles files) {
      this.tls = Optional.of(files);
      return this;
    }

    public Builder tokens(Set<String> t) {
      this.tokens = t;
      return this;
    }

    public Builder maxMessageSize(int bytes) {
      this.maxMessageSize = bytes;
      return this;
    }

    /**
     * The most runtime worker threads folding answers (default 256; fewer when the memory
     * cannot hold their partial sums); see the record's fields.
     */
    public Builder maxConcurrentClients(int n) {
      this.maxConcurrentClients = n;
      return this;
    }

    /**
     * Bytes of fit answers read ahead of the round (default an eighth of the memory, at most
     * 256 MiB; at least 64 KiB).
     */
    public Builder readAheadBytes(int bytes) {
      this.readAheadBytes = bytes;
      return this;
    }

    /**
     * The HTTP/2 stream window granted to each client, 64 KiB to 64 MiB, fixed below 8 MiB
     * (default {@link ServerMemory#flowControlWindow(int)} of {@code minClients}: gRPC's tuning
     * while the memory holds 256 KiB a client, else 64 KiB).
     */
    public Builder flowControlWindow(int bytes) {
      this.flowControlWindow = bytes;
      return this;
    }

    /** What the defaults are sized from (default {@link ServerMemory#ofThisJvm()}). */
    public Builder memory(ServerMemory m) {
      this.memory = Objects.requireNonNull(m, "memory");
      return this;
    }

    public Builder shutdownGrace(Duration d) {
      this.shutdownGrace = d;
      return this;
    }

    /** Aggregates every fit round securely with SecAgg+ (see {@link SecureAggregation}). */
    public Builder secureAggregation(SecureAggregation s) {
      this.secureAggregation = Optional.of(s);
      return this;
    }

    public ServerConfig build() {
      ServerMemory m = memory != null ? memory : ServerMemory.ofThisJvm();
      return new ServerConfig(host, port, rounds, minClients, algorithm, fractionFit,
          fractionEvaluate, roundTimeout, minSuccessFraction, clientWait, initial, seed, tls,
          tokens, maxMessageSize, maxConcurrentClients, shutdownGrace,
          readAheadBytes != null ? readAheadBytes : m.readAheadBytes(),
          flowControlWindow != null ? flowControlWindow
              : m.flowControlWindow(Math.max(1, minClients)), m,
          maxExamplesPerClient, overMaxExamples, examplesOverMedian, clientMetrics,
          secureAggregation, fitConfig, roundFitConfig);
    }

    /**
     * How the clients' metric {@code name} (FitRes or EvaluateRes metrics) is aggregated
     * (default: weighted by examples), as Flower's metrics aggregation functions do.
     */
    public Builder clientMetric(String name, MetricAggregation how) {
      clientMetrics.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(how, "how"));
      return this;
    }
  }
}
