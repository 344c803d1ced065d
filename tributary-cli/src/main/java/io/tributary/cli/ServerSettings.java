package io.tributary.cli;

import io.tributary.flower.server.InitialParameters;
import io.tributary.flower.server.ServerConfig;
import io.tributary.flower.server.ServerRunFiles;
import io.tributary.learning.FederatedAlgorithm;
import io.tributary.simulation.SimulationSettings;
import io.tributary.flower.server.TlsFiles;
import io.tributary.learning.MetricAggregation;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** Parsing and checking of {@code tributary server}'s option values. */
final class ServerSettings {
  private ServerSettings() {}

  /** {@code HOST:PORT} or {@code [IPV6]:PORT}. */
  record Address(String host, int port) {}

  static Address address(String text) {
    return address("--address", text);
  }

  /** {@code option}'s value as {@code HOST:PORT}: a missing or bad port is a usage error. */
  static Address address(String option, String text) {
    int colon = text.lastIndexOf(':');
    if (colon <= 0 || colon == text.length() - 1 || text.endsWith("]")) {
      throw new IllegalArgumentException(option + " must be HOST:PORT, got '" + text + "'"
          + (colon < 0 || text.endsWith("]") ? ": no port" : ""));
    }
    String host = text.substring(0, colon);
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1);
    }
    int port;
    try {
      port = Integer.parseInt(text.substring(colon + 1));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(option + " port must be a number, got '"
          + text.substring(colon + 1) + "'");
    }
    if (port < 0 || port > 65535 || host.isEmpty()) {
      throw new IllegalArgumentException(option + " must be HOST:PORT with a port of 0 to "
          + "65535, got '" + text + "'");
    }
    return new Address(host, port);
  }

  /** Fails with a usage error naming {@code option} when {@code host} does not resolve. */
  static void requireKnownHost(String option, String host) {
    try {
      java.net.InetAddress.getByName(host);
    } catch (java.net.UnknownHostException e) {
      throw new IllegalArgumentException(option + ": unknown host '" + host + "'", e);
    }
  }

  /**
   * The algorithm of {@code --algorithm NAME} with its options and {@code --mu}, checked as
   * {@code simulate} checks them.
   */
  static FederatedAlgorithm algorithm(String name, Map<String, Double> options, Double mu) {
    FederatedAlgorithm a;
    try {
      a = SimulationSettings.namedAlgorithm(name, options);
    } catch (io.tributary.learning.SettingException e) {
      throw new IllegalArgumentException(SimulateFlags.render(e), e);
    }
    boolean proximal = SimulationSettings.proximal(a);
    if (mu != null && !proximal) {
      throw new IllegalArgumentException("--mu applies only to --algorithm fedprox ("
          + a.name() + " has no proximal term)");
    }
    if (proximal) {
      Map<String, Double> h = new java.util.LinkedHashMap<>(a.registration().orElseThrow()
          .hyperparameters());
      h.put("proximal_mu", mu == null ? SimulateCommand.DEFAULT_MU : mu);
      a = FederatedAlgorithm.named(a.registration().get().spec(), h);
    }
    return a;
  }

  /**
   * One {@code --client-metric NAME=HOW}.
   *
   * @throws IllegalArgumentException naming the option when the value is not NAME=HOW with HOW
   *     one of weighted_mean, mean, sum, min, max
   */
  static void clientMetric(ServerConfig.Builder b, String value) {
    clientMetric(value, b::clientMetric);
  }

  /** One {@code --client-metric NAME=HOW}, handed to {@code sink} (a server's or a simulation's). */
  static void clientMetric(String value,
      java.util.function.BiConsumer<String, MetricAggregation> sink) {
    int eq = value.indexOf('=');
    String how = eq < 0 ? "" : value.substring(eq + 1).strip().toUpperCase(Locale.ROOT);
    MetricAggregation m = null;
    for (MetricAggregation a : MetricAggregation.values()) {
      if (a.name().equals(how)) {
        m = a;
      }
    }
    if (eq <= 0 || m == null) {
      throw new IllegalArgumentException("--client-metric must be NAME=HOW with HOW one of "
          + "weighted_mean, mean, sum, min, max, got '" + value + "'");
    }
    sink.accept(value.substring(0, eq).strip(), m);
  }

  /** {@code --dp ...}: the algorithm with the DP mean for the server's remote clients. */
  static FederatedAlgorithm dp(FederatedAlgorithm algorithm,
      io.tributary.privacy.aggregation.DpSettings dp, int minClients, long seed) {
    try {
      return dp.forRemoteClients(algorithm, minClients,
          io.tributary.simulation.Seeds.dpNoise(seed));
    } catch (io.tributary.learning.SettingException e) {
      throw new IllegalArgumentException(SimulateFlags.render(e), e);
    }
  }

  /** {@code --read-ahead-mb} in bytes: 1 to 2047 MiB. */
  static int readAhead(int mb) {
    if (mb < 1 || mb > 2047) {
      throw new IllegalArgumentException("--read-ahead-mb must be 1 to 2047, got " + mb);
    }
    return mb << 20;
  }

  /** {@code --flow-control-window-kb} in bytes: ServerConfig's bounds, in KiB. */
  static int flowControlWindow(int kb) {
    int min = io.tributary.flower.server.ServerMemory.MIN_WINDOW_BYTES >> 10;
    int max = ServerConfig.MAX_FLOW_CONTROL_WINDOW >> 10;
    if (kb < min || kb > max) {
      throw new IllegalArgumentException("--flow-control-window-kb must be " + min + " to " + max
          + ", got " + kb);
    }
    return kb << 10;
  }

  /** {@code --max-concurrent-clients}: 1 to ServerConfig's bound. */
  static int maxConcurrentClients(int n) {
    if (n < 1 || n > ServerConfig.MAX_CONCURRENT_CLIENTS) {
      throw new IllegalArgumentException("--max-concurrent-clients must be 1 to "
          + ServerConfig.MAX_CONCURRENT_CLIENTS + ", got " + n);
    }
    return n;
  }

  static Duration seconds(String option, double s) {
    if (!(s > 0) || Double.isInfinite(s) || s > 1e9) {
      throw new IllegalArgumentException(option + " must be a positive number of seconds, got "
          + s);
    }
    return Duration.ofNanos((long) (s * 1e9));
  }

  static Optional<TlsFiles> tls(Path cert, Path key, Path clientCa) {
    if (cert == null && key == null) {
      if (clientCa != null) {
        throw new IllegalArgumentException("--tls-client-ca needs --tls-cert and --tls-key");
      }
      return Optional.empty();
    }
    if (cert == null || key == null) {
      throw new IllegalArgumentException("--tls-cert and --tls-key go together");
    }
    TlsFiles files = new TlsFiles(cert, key, Optional.ofNullable(clientCa));
    files.requireReadable();
    return Optional.of(files);
  }

  /**
   * The tokens of a file, one per line; blank lines and lines starting with {@code #} skipped.
   *
   * @throws IOException if the file cannot be read
   */
  static Set<String> tokens(Path file) throws IOException {
    Set<String> out = new LinkedHashSet<>();
    for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
      String t = line.strip();
      if (!t.isEmpty() && !t.startsWith("#")) {
        if (!t.chars().allMatch(c -> c > 0x20 && c < 0x7f)) {
          throw new IOException("a token holds a space or a non-ASCII character");
        }
        out.add(t);
      }
    }
    if (out.isEmpty()) {
      throw new IOException("holds no token");
    }
    return out;
  }

  /**
   * The run files of {@code tributary server} in {@code dir}: progress aside, each round's
   * {@code metrics.jsonl} line and {@code model.zip} tag, recording the algorithm and {@code
   * command}; with {@code --dp}, each round's record gets the epsilon spent so far, with q = 1
   * (the server does not know the population, so every round is taken to include every client:
   * an upper bound).
   */
  static ServerRunFiles.Builder runFiles(Path dir, int rounds, FederatedAlgorithm algorithm,
      String command, Optional<io.tributary.privacy.aggregation.DpSettings> dp) {
    ServerRunFiles.Builder b = ServerRunFiles.builder(dir, rounds).algorithm(algorithm)
        .command(command);
    dp.ifPresent(d -> b.epsilonAfterRound(epsilonAfterRound(d)));
    return b;
  }

  /**
   * The epsilon a server run with {@code dp} has spent after each round, with q = 1 (every round
   * taken to include every client: an upper bound), for the run files and the live page alike.
   */
  static java.util.function.IntToDoubleFunction epsilonAfterRound(
      io.tributary.privacy.aggregation.DpSettings dp) {
    return round -> dp.spent(1.0, round).epsilon();
  }

  /**
   * The settings on the server's report: the configuration's, the differential privacy, the
   * output directory and the command.
   */
  static java.util.SequencedMap<String, String> display(ServerConfig config, Path dir,
      String command, Optional<io.tributary.privacy.aggregation.DpSettings> dp) {
    java.util.SequencedMap<String, String> m = config.display();
    dp.ifPresent(d -> d.describe().forEach((k, v) -> m.put(k.replace('_', ' '), v)));
    m.put("output directory", dir.toString());
    m.put("command", "tributary " + command);
    return m;
  }

  static InitialParameters initial(Path npz) throws IOException {
    return npz == null ? InitialParameters.fromClient() : InitialParameters.fromNpz(npz);
  }

  /** The builder for the parsed values; {@link ServerConfig.Builder#build} checks the rest. */
  static ServerConfig.Builder builder(Address a, int rounds, int minClients, FederatedAlgorithm s,
      double fractionFit, double roundTimeout, double minSuccess, double clientWait, long seed) {
    ServerConfig.Builder b = ServerConfig.builder().address(a.host(), a.port()).rounds(rounds)
        .minClients(minClients).algorithm(s).fractionFit(fractionFit).minSuccessFraction(minSuccess)
        .clientWait(seconds("--client-wait", clientWait)).seed(seed);
    // 0 means no limit; anything else must be a positive number of seconds.
    b.roundTimeout(roundTimeout == 0 ? Duration.ZERO : seconds("--round-timeout", roundTimeout));
    return b;
  }

  /** {@code --max-examples-per-client}: at least 1. */
  static long maxExamples(long n) {
    if (n < 1) {
      throw new IllegalArgumentException("--max-examples-per-client must be at least 1, got "
          + n);
    }
    return n;
  }

  /** {@code --max-examples-over-median}: 0 (off) or 1 to 1e12. */
  static double examplesOverMedian(double f) {
    if (!(f == 0 || (f >= 1 && f <= 1e12))) {
      throw new IllegalArgumentException("--max-examples-over-median must be 0 (off) or 1 to "
          + "1e12, got " + f);
    }
    return f;
  }

  /** {@code --over-max-examples clip|exclude}. */
  static io.tributary.runtime.RuntimeOptions.WeightPolicy weightPolicy(String text) {
    return switch (text) {
      case "clip" -> io.tributary.runtime.RuntimeOptions.WeightPolicy.CLIP;
      case "exclude" -> io.tributary.runtime.RuntimeOptions.WeightPolicy.EXCLUDE;
      default -> throw new IllegalArgumentException("--over-max-examples must be clip or "
          + "exclude, got '" + text + "'");
    };
  }
}
