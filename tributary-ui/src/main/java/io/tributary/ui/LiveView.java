package io.tributary.ui;

import io.tributary.learning.rounds.RoundListener;
import io.tributary.learning.rounds.RoundRecord;
import io.tributary.learning.rounds.RoundRecord.EvaluationKind;
import io.tributary.learning.rounds.RunEnd;
import io.tributary.learning.rounds.RunStart;
import io.tributary.tensor.Tensor;
import io.tributary.ui.internal.Access;
import io.tributary.ui.internal.PageServer;
import io.tributary.ui.internal.RunState;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.SequencedMap;
import java.util.function.IntToDoubleFunction;

/**
 * A web page that shows a run as it goes: a {@link RoundListener} that serves the run's page
 * (the same page as its {@code report.html}, see {@code RunPage}) over HTTP and pushes each new
 * state to open pages with server-sent events. Give it to {@code Simulation.Builder.listener} or
 * {@code FlowerServer.run}, like any listener.
 *
 * <p>Safe by default: it binds 127.0.0.1 and answers only requests for a loopback host; binding
 * any other address needs a {@link Builder#token token}, which every request must then carry. The
 * page is read-only and fetches nothing from elsewhere. Its memory is bounded for any run length
 * (the plotted history is thinned out past {@link Builder#historyBound}), its viewers are bounded
 * ({@link Builder#maxViewers}), and a viewer that stops reading is dropped after {@link
 * Builder#writeTimeout}: the run's thread only records each round, so the page never slows or
 * stops the run.
 *
 * <p>While a round goes, the view also shows it from the {@link
 * io.tributary.learning.rounds.RoundProgress} events: its stages, the clients reporting and
 * failing in each (with their reasons), and the bytes so far. These may come from any thread;
 * each is O(1) under one lock, with at most 32 stages and 20 failure lines kept per round.
 */
public final class LiveView implements RoundListener {
  /** The port a view binds unless told otherwise. */
  public static final int DEFAULT_PORT = 8265;
  /** The least characters of a token. */
  public static final int MIN_TOKEN_LENGTH = 16;

  private final RunState state;
  private final PageServer server;
  private final Optional<IntToDoubleFunction> epsilon;
  private final boolean tokened;

  private LiveView(Builder b, RunState state, PageServer server) {
    this.state = state;
    this.server = server;
    this.epsilon = b.epsilon;
    this.tokened = b.token.isPresent();
  }

  /** A view bound to 127.0.0.1 on {@link #DEFAULT_PORT}, until told otherwise. */
  public static Builder builder() {
    return new Builder();
  }

  /** A new random token: 32 URL-safe characters from a secure generator. */
  public static String newToken() {
    byte[] b = new byte[24];
    new SecureRandom().nextBytes(b);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
  }

  /** The address the page is served on (with the port chosen, when 0 was asked for). */
  public InetSocketAddress address() {
    return server.address();
  }

  /**
   * The page's address, such as {@code http://127.0.0.1:8265/}; without the token, which a
   * browser gives once as {@code ?token=TOKEN}.
   */
  public URI uri() {
    return uri(address());
  }

  /** The address to open for a page bound to {@code a}. */
  static URI uri(InetSocketAddress a) {
    String host = a.getAddress().getHostAddress();
    if (a.getAddress().isAnyLocalAddress()) {
      host = "127.0.0.1";
    } else if (host.contains(":")) {
      host = "[" + host.replaceAll("%.*", "") + "]";
    }
    return URI.create("http://" + host + ":" + a.getPort() + "/");
  }

  /** Whether requests must carry a token. */
  public boolean needsToken() {
    return tokened;
  }

  /** Event streams open now. */
  public int viewers() {
    return server.viewers();
  }

  @Override
  public void started(RunStart start) {
    state.started(start.settingsDisplay(), start.previous().stream().map(this::withEpsilon)
        .toList());
    server.changed();
  }

  @Override
  public void roundEnded(RoundRecord metrics, SequencedMap<String, Tensor> parameters) {
    state.roundEnded(withEpsilon(metrics));
    server.changed();
  }

  @Override
  public void roundStarted(int round) {
    state.roundStarted(round);
    server.changed();
  }

  @Override
  public void stage(int round, String stage, int clients) {
    state.stage(round, stage, clients);
    server.changed();
  }

  @Override
  public void clientReported(int round, String client) {
    state.clientReported(round);
    server.changed();
  }

  @Override
  public void clientFailed(int round, String client, String reason) {
    state.clientFailed(round, client, reason);
    server.changed();
  }

  @Override
  public void traffic(int round, long bytesUp, long bytesDown) {
    state.traffic(round, bytesUp, bytesDown);
    server.changed();
  }

  @Override
  public void stageEnded(int round, String stage, int reported, List<String> failures) {
    state.stageEnded(round, stage, reported, failures);
    server.changed();
  }

  @Override
  public void finished(RunEnd end) {
    state.finished(end.outcome());
    server.finish();
  }

  /** Stops serving: open pages keep the state they last received. */
  @Override
  public void close() throws IOException {
    server.close();
  }

  private RoundRecord withEpsilon(RoundRecord r) {
    if (epsilon.isEmpty() || !Double.isNaN(r.algorithmMetric("epsilon"))) {
      return r;
    }
    SequencedMap<String, Double> m = new LinkedHashMap<>(r.algorithmMetrics());
    m.put("epsilon", epsilon.get().applyAsDouble(r.round()));
    return r.withAlgorithmMetrics(m);
  }

  /** A view's address, access and bounds; {@link #start} binds it. */
  public static final class Builder {
    String host = "127.0.0.1";
    int port = DEFAULT_PORT;
    Optional<String> token = Optional.empty();
    private String title = "Tributary run";
    private EvaluationKind evaluation = EvaluationKind.CENTRAL;
    int maxViewers = 16;
    private int historyBound = 500;
    Duration writeTimeout = Duration.ofSeconds(10);
    private Optional<IntToDoubleFunction> epsilon = Optional.empty();

    private Builder() {}

    /**
     * Where to listen, as {@code PORT}, {@code HOST:PORT} or {@code [IPV6]:PORT}; a port alone
     * binds 127.0.0.1.
     *
     * @throws IllegalArgumentException naming what is wrong with {@code spec}
     */
    public Builder listen(String spec) {
      String s = Objects.requireNonNull(spec, "spec").strip();
      String h = "127.0.0.1";
      String p = s;
      if (s.startsWith("[")) {
        int end = s.indexOf("]:");
        if (end < 0) {
          throw new IllegalArgumentException("'" + spec + "' is not [IPV6]:PORT");
        }
        h = s.substring(1, end);
        p = s.substring(end + 2);
      } else if (s.contains(":")) {
        int colon = s.lastIndexOf(':');
        h = s.substring(0, colon);
        p = s.substring(colon + 1);
        if (h.contains(":")) {
          throw new IllegalArgumentException("'" + spec + "': write an IPv6 host in brackets, "
              + "[::1]:PORT");
        }
      }
      if (!p.matches("[0-9]{1,5}") || Integer.parseInt(p) > 65535) {
        throw new IllegalArgumentException("'" + spec + "' has no port 0..65535");
      }
      if (h.isEmpty()) {
        throw new IllegalArgumentException("'" + spec + "' has an empty host");
      }
      return address(h, Integer.parseInt(p));
    }

    /** Listens on {@code host} (a name or an address) and {@code port} (0: any free port). */
    public Builder address(String host, int port) {
      if (port < 0 || port > 65535) {
        throw new IllegalArgumentException("port " + port + " is outside 0..65535");
      }
      this.host = Objects.requireNonNull(host, "host");
      this.port = port;
      return this;
    }

    /**
     * Requires {@code token} of every request (a bearer token, or once {@code ?token=} in a
     * browser, which then keeps it as a cookie); needed to bind a non-loopback address.
     *
     * @throws IllegalArgumentException for a token under {@link #MIN_TOKEN_LENGTH} characters,
     *     over 256, or with characters other than letters, digits and {@code - . _ ~}
     */
    public Builder token(String token) {
      if (token == null || !token.matches("[A-Za-z0-9._~-]{" + MIN_TOKEN_LENGTH + ",256}")) {
        throw new IllegalArgumentException("a token has " + MIN_TOKEN_LENGTH + " to 256 letters,"
            + " digits, '-', '.', '_' or '~' (LiveView.newToken() makes one)");
      }
      this.token = Optional.of(token);
      return this;
    }

    /** The page's heading, such as {@code fedavg on digits}. */
    public Builder title(String title) {
      this.title = Objects.requireNonNull(title, "title");
      return this;
    }

    /**
     * How the run evaluates its rounds, for the charts shown before the first round ends:
     * {@code CENTRAL} for a simulation (the default), {@code FEDERATED} for a server.
     */
    public Builder evaluation(EvaluationKind kind) {
      this.evaluation = Objects.requireNonNull(kind, "kind");
      return this;
    }

    /** Open event streams at most, 1..1024 (default 16); more are answered 503. */
    public Builder maxViewers(int n) {
      if (n < 1 || n > 1024) {
        throw new IllegalArgumentException("max viewers " + n + " is outside 1..1024");
      }
      this.maxViewers = n;
      return this;
    }

    /** Rounds the charts and table keep at most, 2..100,000 (default 500). */
    public Builder historyBound(int rounds) {
      if (rounds < 2 || rounds > 100_000) {
        throw new IllegalArgumentException("history bound " + rounds + " is outside 2..100000");
      }
      this.historyBound = rounds;
      return this;
    }

    /** How long one write to a viewer may take before the viewer is dropped (default 10 s). */
    public Builder writeTimeout(Duration d) {
      if (d.isNegative() || d.isZero()) {
        throw new IllegalArgumentException("write timeout must be positive, got " + d);
      }
      this.writeTimeout = d;
      return this;
    }

    /**
     * Adds the privacy spent to each round that lacks an {@code epsilon} algorithm metric, as
     * {@code epsilonAfterRound} gives it for the rounds up to it: a server's rounds, whose
     * caller does the accounting (a simulation's rounds carry it already).
     */
    public Builder epsilonAfterRound(IntToDoubleFunction epsilonAfterRound) {
      this.epsilon = Optional.of(epsilonAfterRound);
      return this;
    }

    /**
     * Binds the address and starts serving the page (empty until the run starts).
     *
     * @throws IllegalArgumentException when the address is not a loopback one and no token is
     *     set
     * @throws UnknownHostException when the host name does not resolve
     * @throws IOException when the address cannot be bound (in use, not this machine's)
     */
    public LiveView start() throws IOException {
      RunState state = new RunState(title, historyBound, evaluation);
      return new LiveView(this, state, serve(state));
    }

    /** Binds the address and serves {@code source}, once the address passed the checks. */
    PageServer serve(io.tributary.ui.internal.PageSource source) throws IOException {
      InetAddress a = InetAddress.getByName(host);
      if (!a.isLoopbackAddress() && token.isEmpty()) {
        throw new IllegalArgumentException("binding " + host + " (not a loopback address) needs"
            + " a token; or bind 127.0.0.1 and reach the page through an SSH tunnel");
      }
      return new PageServer(new InetSocketAddress(a, port), source, new Access(token),
          maxViewers, writeTimeout);
    }
  }
}
