package io.tributary.flower.fleet.server;

import io.tributary.flower.fleet.NodeKeyException;
import io.tributary.flower.fleet.internal.OpenSshKeys;
import io.tributary.flower.secaggplus.SecAggPlusSettings;
import io.tributary.flower.server.TlsFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PublicKey;
import java.security.spec.InvalidKeySpecException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SequencedMap;

/**
 * How a {@link FleetServer} serves Flower's Fleet API: where, over which transport, which App
 * the SuperNodes run, the run config they get on top of the App's, which nodes may join and the
 * bounds they are held to.
 *
 * <pre>{@code
 * FleetApi fleet = FleetApi.builder(FlowerApp.load(Path.of("quickstart-numpy")))
 *     .address("0.0.0.0", 9092).transport(FleetTransport.GRPC_RERE)
 *     .runConfig(Map.of("num-server-rounds", 5L)).build();
 * }</pre>
 *
 * @param authorizedKeys with SuperNode authentication, the public keys of the nodes allowed to
 *     join (registered on the server, as {@code flwr supernode register} does for Flower's
 *     SuperLink); empty without. Every call must then be signed: gRPC metadata
 *     ({@code flwr-public-key-bin}, {@code flwr-timestamp}, {@code flwr-signature-bin}) or HTTP
 *     headers ({@code flwr-public-key}, {@code flwr-timestamp}, {@code flwr-signature}), so
 *     Flower 1.27's REST nodes, which do not sign, cannot join such a server
 * @param tls the server's certificate for either transport (grpc-rere over TLS, or HTTPS)
 * @param serveJoin whether the server's legacy {@code FlowerService.Join} endpoint (at the
 *     {@code ServerConfig}'s address) is served too
 * @param secAggPlus with it, every fit round runs Flower's {@code SecAggPlusWorkflow} with these
 *     settings over the round's nodes, which must wear Flower's {@code secaggplus_mod} (Python)
 *     or {@link io.tributary.flower.app.mod.SecAggPlusMod} (Java); the server learns only the
 *     example-weighted mean of the survivors' parameters. Every message then takes the layout
 *     of Flower's {@code DefaultWorkflow} ({@code fitins.*}, {@code evaluateins.*} and their
 *     {@code fitres.*}, {@code evaluateres.*} replies), which such a ClientApp reads; legacy Join
 *     clients, which speak another protocol, cannot take part, so Join is not served
 * @param securePasses the neighbours and threshold of the SecAgg+ round that runs a secure pass
 *     on the nodes, when the algorithm's computation sums securely (such as {@code
 *     DpAggregator.withSecureSum}): each node computes its own client and masks its input (see
 *     {@code io.tributary.flower.passes.NodePasses}); {@link
 *     io.tributary.flower.server.SecureAggregation#defaults()} unless set. Its other fields are
 *     unused: the computation quantizes, and the input width follows from it
 */
public record FleetApi(FleetTransport transport, String host, int port, FlowerApp app,
    SequencedMap<String, Object> runConfig, Optional<List<PublicKey>> authorizedKeys,
    Optional<TlsFiles> tls, FleetLimits limits, boolean serveJoin,
    Optional<SecAggPlusSettings> secAggPlus,
    io.tributary.flower.server.SecureAggregation securePasses) {
  public FleetApi {
    Objects.requireNonNull(securePasses, "securePasses");
    Objects.requireNonNull(transport, "transport");
    Objects.requireNonNull(host, "host");
    Objects.requireNonNull(app, "app");
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("Fleet API port " + port + " is not a port");
    }
    runConfig = Collections.unmodifiableSequencedMap(new LinkedHashMap<>(runConfig));
    for (Map.Entry<String, Object> e : runConfig.entrySet()) {
      if (!(e.getValue() instanceof Long || e.getValue() instanceof Double
          || e.getValue() instanceof Boolean || e.getValue() instanceof String)) {
        throw new IllegalArgumentException("run config '" + e.getKey() + "' is "
            + e.getValue() + ": a run config value is an integer, float, bool or string");
      }
    }
    authorizedKeys = authorizedKeys.map(List::copyOf);
    Objects.requireNonNull(tls, "tls");
    Objects.requireNonNull(limits, "limits");
    Objects.requireNonNull(secAggPlus, "secAggPlus");
    if (secAggPlus.isPresent() && serveJoin) {
      throw new IllegalArgumentException("Flower's SecAgg+ runs over the Fleet API only: legacy "
          + "Join clients speak another protocol, so serve Join off (serveJoin(false))");
    }
  }

  /** A builder for serving {@code app}: grpc-rere on 0.0.0.0:9092, no auth, default limits. */
  public static Builder builder(FlowerApp app) {
    return new Builder(app);
  }

  /**
   * The ECDSA public keys of an OpenSSH public key file (one {@code ecdsa-sha2-nistp*} key per
   * line, as {@code ssh-keygen -t ecdsa} writes; blank lines and {@code #} comments skipped).
   *
   * @throws IOException if the file cannot be read ({@link NodeKeyException} if a line is not
   *     such a key)
   */
  public static List<PublicKey> readAuthorizedKeys(Path file) throws IOException {
    if (Files.size(file) > 16L * OpenSshKeys.MAX_BYTES) {
      throw new NodeKeyException(file, "is too large for a public key file", null);
    }
    List<PublicKey> keys = new ArrayList<>();
    int n = 0;
    for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
      n++;
      String s = line.strip();
      if (s.isEmpty() || s.startsWith("#")) {
        continue;
      }
      try {
        keys.add(OpenSshKeys.publicKey(s));
      } catch (InvalidKeySpecException e) {
        throw new NodeKeyException(file, "line " + n + ": " + e.getMessage(), e);
      }
    }
    if (keys.isEmpty()) {
      throw new NodeKeyException(file, "holds no public key", null);
    }
    return keys;
  }

  /** Builds a {@link FleetApi}. */
  public static final class Builder {
    private final FlowerApp app;
    private FleetTransport transport = FleetTransport.GRPC_RERE;
    private String host = "0.0.0.0";
    private int port = 9092;
    private final SequencedMap<String, Object> runConfig = new LinkedHashMap<>();
    private Optional<List<PublicKey>> authorizedKeys = Optional.empty();
    private Optional<TlsFiles> tls = Optional.empty();
    private FleetLimits limits = FleetLimits.defaults();
    private boolean serveJoin = true;
    private Optional<SecAggPlusSettings> secAggPlus = Optional.empty();
    private io.tributary.flower.server.SecureAggregation securePasses =
        io.tributary.flower.server.SecureAggregation.defaults();

    private Builder(FlowerApp app) {
      this.app = Objects.requireNonNull(app, "app");
    }

    public Builder transport(FleetTransport t) {
      this.transport = t;
      return this;
    }

    public Builder address(String h, int p) {
      this.host = h;
      this.port = p;
      return this;
    }

    /** Run config entries the nodes get on top of the App's defaults (later calls win). */
    public Builder runConfig(Map<String, ?> entries) {
      this.runConfig.putAll(entries);
      return this;
    }

    /**
     * One run config entry written as Flower's {@code --run-config} writes it: a TOML value
     * ({@code 5}, {@code 0.1}, {@code true}, {@code "text"}); a bare word is taken as a string.
     *
     * @throws IllegalArgumentException if the key is empty or the value is a malformed number
     *     or string
     */
    public Builder runConfig(String key, String tomlValue) {
      if (key.isBlank()) {
        throw new IllegalArgumentException("a run config key is empty");
      }
      this.runConfig.put(key.strip(), value(tomlValue.strip()));
      return this;
    }

    private static Object value(String v) {
      if (v.equals("true") || v.equals("false")) {
        return Boolean.parseBoolean(v);
      }
      if (v.length() >= 2 && (v.startsWith("\"") && v.endsWith("\"")
          || v.startsWith("'") && v.endsWith("'"))) {
        return v.substring(1, v.length() - 1);
      }
      String n = v.replace("_", "");
      if (n.matches("[+-]?\\d+")) {
        try {
          return Long.parseLong(n);
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException("run config value " + v + " is out of range");
        }
      }
      if (n.matches("[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?")) {
        return Double.parseDouble(n);
      }
      if (v.startsWith("\"") || v.startsWith("'")) {
        throw new IllegalArgumentException("run config value " + v + " is an unclosed string");
      }
      return v;
    }

    /** Turns SuperNode authentication on: only nodes with these keys may join. */
    public Builder authorizedKeys(List<PublicKey> keys) {
      if (keys.isEmpty()) {
        throw new IllegalArgumentException("SuperNode authentication needs at least one key");
      }
      this.authorizedKeys = Optional.of(keys);
      return this;
    }

    public Builder tls(TlsFiles files) {
      this.tls = Optional.of(files);
      return this;
    }

    public Builder limits(FleetLimits l) {
      this.limits = l;
      return this;
    }

    /** Whether the legacy Join endpoint is served too (default true). */
    public Builder serveJoin(boolean b) {
      this.serveJoin = b;
      return this;
    }

    /**
     * Runs every fit round as Flower's SecAgg+ with {@code settings} (see {@link
     * FleetApi#secAggPlus}); needs {@code serveJoin(false)}.
     */
    public Builder secAggPlus(SecAggPlusSettings settings) {
      this.secAggPlus = Optional.of(settings);
      return this;
    }

    /**
     * The neighbours and threshold of a secure pass's SecAgg+ round (see {@link
     * FleetApi#securePasses}). In a cohort of at most {@code neighbours + 1} nodes every node
     * is every other's neighbour and the threshold drops to at most {@code cohort - 1}, staying
     * above half of it: a threshold below the cohort lets a round survive a node that drops out.
     */
    public Builder securePasses(io.tributary.flower.server.SecureAggregation settings) {
      this.securePasses = Objects.requireNonNull(settings, "settings");
      return this;
    }

    public FleetApi build() {
      return new FleetApi(transport, host, port, app, runConfig, authorizedKeys, tls, limits,
          serveJoin, secAggPlus, securePasses);
    }
  }
}
