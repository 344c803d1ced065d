package io.tributary.flower.relay;

import io.tributary.flower.Backoff;
import io.tributary.flower.FlowerClientBuilder;
import io.tributary.flower.TlsSettings;
import io.tributary.flower.fleet.server.FleetApi;
import io.tributary.flower.server.SecureAggregation;
import io.tributary.flower.server.ServerMemory;
import io.tributary.flower.server.TlsFiles;
import io.tributary.flower.server.internal.MemoryBounds;
import io.tributary.learning.FederatedLearning;
import io.tributary.learning.HierarchicalFedAvg;
import io.tributary.runtime.RuntimeOptions;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * A relay's settings: where its clients join (with TLS and bearer tokens), which server it
 * reports to (with its own TLS and token), and how an edge round treats its clients.
 *
 * @param host the address clients join
 * @param port the port clients join (0 for any free one)
 * @param upstream the server's {@code HOST:PORT}
 * @param tls the clients' side: the relay's certificate and key, and optionally the CA of the
 *     certificates clients must present
 * @param tokens bearer tokens accepted from clients; empty for none
 * @param upstreamTls TLS to the server; empty for plaintext
 * @param upstreamToken the bearer token the relay presents to the server
 * @param minClients the clients the relay waits for before it joins the server, and below which
 *     an edge round is refused
 * @param clientWait how long an edge round waits for {@code minClients}
 * @param roundTimeout how long each client has to answer an instruction; empty for no limit
 * @param maxExamplesPerClient the largest example count a client's update is weighted with
 * @param overMaxExamples what happens to a client that claims more
 * @param minSuccessFraction the share of the edge's clients that must succeed for an edge round
 *     to be reported (1 for all; a failed client is left out otherwise)
 * @param maxConcurrentClients how many clients' answers are processed at once, at most: fewer
 *     where their partial sums would not fit a quarter of {@code memory} ({@link
 *     ServerMemory#workers})
 * @param maxMessageSize the largest message accepted or sent on either side, in bytes
 * @param readAheadBytes bytes of answers read ahead of the edge round, its Join clients' and
 *     Fleet nodes' together (default an eighth of {@code memory}, at most 256 MiB), as a
 *     server's ({@link io.tributary.flower.server.ServerConfig#readAheadBytes})
 * @param flowControlWindow the HTTP/2 stream window granted to each Join client, fixed below
 *     8 MiB (default {@link ServerMemory#flowControlWindow(int)} of {@code minClients}: gRPC's
 *     tuning where {@code memory} holds 256 KiB a client, else 64 KiB), as a server's
 * @param memory what the default budgets and the workers are sized from (default the JVM's
 *     heap limit; less for a relay that shares its JVM)
 * @param backoff how the relay rejoins the server after losing it
 * @param tensorTypes the tensor types announced to the server, most preferred first
 * @param shutdownGrace how long clients have to confirm a disconnect
 * @param edgeRounds the edge rounds of each of the server's fit instructions (hierarchical
 *     FedAvg's k2, 1 to {@link HierarchicalFedAvg#MAX_EDGE_ROUNDS}): each one sends the edge's
 *     model to its clients and adds their mean update to the edge's
 * @param fleet the Fleet API served to SuperNodes, which join the edge beside the Join clients;
 *     empty for none
 * @param secureAggregation SecAgg+ among the Join clients in every edge round, so that the relay
 *     learns only its edge's sum (the relay finds the protocol on its class path as the server
 *     does, see {@link io.tributary.flower.server.SecureFitProtocol}; the clients must run
 *     {@code io.tributary.flower.secagg.SecAggClientAdapter}); empty for plain aggregation. Not
 *     with {@code fleet}: SuperNodes would need Flower's SecAgg+ workflow, which the relay does
 *     not run
 */
public record RelayConfig(String host, int port, String upstream, Optional<TlsFiles> tls,
    Set<String> tokens, Optional<TlsSettings> upstreamTls, Optional<String> upstreamToken,
    int minClients, Duration clientWait, Optional<Duration> roundTimeout,
    long maxExamplesPerClient, RuntimeOptions.WeightPolicy overMaxExamples,
    double minSuccessFraction, int maxConcurrentClients, int maxMessageSize,
    int readAheadBytes, int flowControlWindow, ServerMemory memory, Backoff backoff,
    List<String> tensorTypes, Duration shutdownGrace, int edgeRounds,
    Optional<FleetApi> fleet, Optional<SecureAggregation> secureAggregation) {
  /**
   * 1 s doubling to 30 s, 20 % jitter, and (nearly) no end: a relay keeps trying to reach its
   * server until it is closed.
   */
  public static final Backoff DEFAULT_BACKOFF = Backoff.DEFAULT.withMaxAttempts(Integer.MAX_VALUE);

  public RelayConfig {
    Objects.requireNonNull(host, "host");
    Objects.requireNonNull(upstream, "upstream");
    Objects.requireNonNull(tls, "tls");
    tokens = Set.copyOf(tokens);
    Objects.requireNonNull(upstreamTls, "upstreamTls");
    Objects.requireNonNull(upstreamToken, "upstreamToken");
    Objects.requireNonNull(clientWait, "clientWait");
    Objects.requireNonNull(roundTimeout, "roundTimeout");
    Objects.requireNonNull(overMaxExamples, "overMaxExamples");
    Objects.requireNonNull(backoff, "backoff");
    tensorTypes = List.copyOf(tensorTypes);
    Objects.requireNonNull(shutdownGrace, "shutdownGrace");
    Objects.requireNonNull(fleet, "fleet");
    Objects.requireNonNull(secureAggregation, "secureAggregation");
    check(secureAggregation.isEmpty() || fleet.isEmpty(), "secure aggregation on a relay runs "
        + "SecAgg+ among its Join clients; a relay that also serves the Fleet API would need "
        + "Flower's SecAgg+ workflow among its SuperNodes, which it does not run: serve one or "
        + "the other");
    check(!host.isBlank(), "the relay's host is empty");
    check(port >= 0 && port <= 65535, "the relay's port must be 0 to 65535, got " + port);
    check(!upstream.isBlank(), "the upstream server's address is empty");
    check(minClients >= 1, "a relay needs at least 1 client, got " + minClients);
    check(!clientWait.isNegative(), "the client wait is negative: " + clientWait);
    roundTimeout.ifPresent(t -> check(t.isPositive(), "the round timeout must be positive, got "
        + t));
    check(maxExamplesPerClient >= 1, "max examples per client must be at least 1, got "
        + maxExamplesPerClient);
    check(minSuccessFraction > 0 && minSuccessFraction <= 1, "the minimum success fraction must "
        + "be in (0, 1], got " + minSuccessFraction);
    check(maxConcurrentClients >= 1, "max concurrent clients must be at least 1, got "
        + maxConcurrentClients);
    check(maxMessageSize >= 1, "max message size must be positive, got " + maxMessageSize);
    MemoryBounds.check(readAheadBytes, flowControlWindow);
    Objects.requireNonNull(memory, "memory");
    check(!tensorTypes.isEmpty(), "announce at least one tensor type to the server");
    check(!shutdownGrace.isNegative(), "the shutdown grace is negative: " + shutdownGrace);
    check(edgeRounds >= 1 && edgeRounds <= HierarchicalFedAvg.MAX_EDGE_ROUNDS, "edge rounds "
        + "must be 1 to " + HierarchicalFedAvg.MAX_EDGE_ROUNDS + ", got " + edgeRounds);
    tokens.forEach(t -> check(!t.isBlank() && t.strip().equals(t),
        "a bearer token must be non-blank without surrounding spaces"));
  }

  private static void check(boolean ok, String message) {
    if (!ok) {
      throw new IllegalArgumentException(message);
    }
  }

  /** A builder with the defaults; set at least the upstream server. */
  public static Builder builder() {
    return new Builder();
  }

  /** Builds a {@link RelayConfig}. */
  public static final class Builder {
    private String host = "0.0.0.0";
    private int port = 9092;
    private String upstream = "";
    private Optional<TlsFiles> tls = Optional.empty();
    private Set<String> tokens = Set.of();
    private Optional<TlsSettings> upstreamTls = Optional.empty();
    private Optional<String> upstreamToken = Optional.empty();
    private int minClients = 1;
    private Duration clientWait = Duration.ofMinutes(5);
    private Optional<Duration> roundTimeout = Optional.empty();
    private long maxExamples = FederatedLearning.DEFAULT_MAX_EXAMPLES_PER_CLIENT;
    private RuntimeOptions.WeightPolicy overMax = RuntimeOptions.WeightPolicy.CLIP;
    private double minSuccessFraction = 1.0;
    private int maxConcurrentClients = Math.max(1, Runtime.getRuntime().availableProcessors());
    private int maxMessageSize = Integer.MAX_VALUE;
    private Integer readAheadBytes;
    private Integer flowControlWindow;
    private ServerMemory memory;
    private Backoff backoff = DEFAULT_BACKOFF;
    private List<String> tensorTypes = FlowerClientBuilder.DEFAULT_TENSOR_TYPES;
    private Duration shutdownGrace = Duration.ofSeconds(5);
    private int edgeRounds = 1;
    private Optional<FleetApi> fleet = Optional.empty();
    private Optional<SecureAggregation> secureAggregation = Optional.empty();

    private Builder() {}

    /** Where clients join (default {@code 0.0.0.0:9092}). */
    public Builder address(String h, int p) {
      this.host = h;
      this.port = p;
      return this;
    }

    /** The server to report to, {@code HOST:PORT}. */
    public Builder upstream(String hostPort) {
      this.upstream = hostPort;
      return this;
    }

    /** TLS on the clients' side. */
    public Builder tls(TlsFiles files) {
      this.tls = Optional.of(files);
      return this;
    }

    /** Bearer tokens accepted from clients. */
    public Builder tokens(Set<String> t) {
      this.tokens = t;
      return this;
    }

    /** TLS to the server. */
    public Builder upstreamTls(TlsSettings settings) {
      this.upstreamTls = Optional.of(settings);
      return this;
    }

    /** The bearer token presented to the server. */
    public Builder upstreamToken(String token) {
      this.upstreamToken = Optional.of(token);
      return this;
    }

    /** Clients to wait for before joining the server (default 1). */
    public Builder minClients(int n) {
      this.minClients = n;
      return this;
    }

    /** How long an edge round waits for the minimum of clients (default 5 minutes). */
    public Builder clientWait(Duration d) {
      this.clientWait = d;
      return this;
    }

    /** The time each client has to answer (default none). */
    public Builder roundTimeout(Duration t) {
      this.roundTimeout = Optional.of(t);
      return this;
    }

    /** The weight bound of one client, and what a larger claim gets (default clipped). */
    public Builder maxExamplesPerClient(long max, RuntimeOptions.WeightPolicy policy) {
      this.maxExamples = max;
      this.overMax = policy;
      return this;
    }

    /** The share of clients that must succeed (default 1: all). */
    public Builder minSuccessFraction(double f) {
      this.minSuccessFraction = f;
      return this;
    }

    /**
     * Clients' answers processed at once, at most (default the processors; fewer where the
     * relay's memory is too small for their partial sums).
     */
    public Builder maxConcurrentClients(int n) {
      this.maxConcurrentClients = n;
      return this;
    }

    /** The largest message, in bytes, on either side. */
    public Builder maxMessageSize(int bytes) {
      this.maxMessageSize = bytes;
      return this;
    }

    /**
     * Bytes of answers read ahead of the edge round, at least 64 KiB (default an eighth of the
     * memory, at most 256 MiB).
     */
    public Builder readAheadBytes(int bytes) {
      this.readAheadBytes = bytes;
      return this;
    }

    /**
     * The HTTP/2 stream window granted to each Join client, 64 KiB to 64 MiB, fixed below 8 MiB
     * (default {@link ServerMemory#flowControlWindow(int)} of the minimum of clients).
     */
    public Builder flowControlWindow(int bytes) {
      this.flowControlWindow = bytes;
      return this;
    }

    /** What the defaults and the workers are sized from (default the JVM's heap limit). */
    public Builder memory(ServerMemory m) {
      this.memory = Objects.requireNonNull(m, "memory");
      return this;
    }

    /** How to rejoin the server (default {@link #DEFAULT_BACKOFF}). */
    public Builder backoff(Backoff b) {
      this.backoff = b;
      return this;
    }

    /** The tensor types announced to the server. */
    public Builder tensorTypes(List<String> types) {
      this.tensorTypes = types;
      return this;
    }

    /** How long clients have to confirm a disconnect (default 5 s). */
    public Builder shutdownGrace(Duration d) {
      this.shutdownGrace = d;
      return this;
    }

    /** Edge rounds per fit instruction, hierarchical FedAvg's k2 (default 1). */
    public Builder edgeRounds(int k2) {
      this.edgeRounds = k2;
      return this;
    }

    /**
     * Serves the Fleet API as {@code api} says (its transport, address, TLS, node keys and the
     * App its SuperNodes run): SuperNodes join the edge there, beside the Join clients at
     * {@link #address}. The API's own Join setting is not used: the relay always serves Join.
     */
    public Builder fleet(FleetApi api) {
      this.fleet = Optional.of(api);
      return this;
    }

    /**
     * Aggregates every edge round with SecAgg+ among the Join clients, with the settings the
     * server takes for its own: the relay learns its edge's example-weighted sum of quantized
     * updates and total examples, not any client's update.
     */
    public Builder secureAggregation(SecureAggregation s) {
      this.secureAggregation = Optional.of(s);
      return this;
    }

    /**
     * The settings.
     *
     * @throws IllegalArgumentException naming the first setting out of range
     */
    public RelayConfig build() {
      ServerMemory m = memory != null ? memory : ServerMemory.ofThisJvm();
      return new RelayConfig(host, port, upstream, tls, tokens, upstreamTls, upstreamToken,
          minClients, clientWait, roundTimeout, maxExamples, overMax, minSuccessFraction,
          maxConcurrentClients, maxMessageSize,
          readAheadBytes != null ? readAheadBytes : m.readAheadBytes(),
          flowControlWindow != null ? flowControlWindow
              : m.flowControlWindow(Math.max(1, minClients)), m,
          backoff, tensorTypes, shutdownGrace, edgeRounds, fleet, secureAggregation);
    }
  }
}
