package io.tributary.flower;

import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.tributary.flower.client.internal.Channels;
import io.tributary.tensor.serialization.SerializerRegistry;
import java.io.IOException;
import java.util.List;
import java.util.Objects;

/**
 * Settings of a {@link FlowerClientRunner}: where the server is, how to secure and authenticate
 * the connection, which tensor types to announce, and how to retry.
 *
 * <p>Defaults: plaintext, no token, announce {@code numpy.ndarray} then {@code proto.ndarray}
 * (numpy first because every Flower server reads it), the serializers on the class path, a
 * maximum message of {@code Integer.MAX_VALUE} bytes (2 GiB - 1, as Flower) and
 * {@link Backoff#DEFAULT}.
 */
public final class FlowerClientBuilder {
  /** The types announced unless told otherwise, most preferred first. */
  public static final List<String> DEFAULT_TENSOR_TYPES = List.of("numpy.ndarray",
      "proto.ndarray");
  private static final Metadata.Key<String> AUTHORIZATION =
      Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER);

  private final FlowerClient client;
  private String target;
  private ManagedChannel channel;
  private TlsSettings tls;
  private String authToken;
  private List<String> tensorTypes = DEFAULT_TENSOR_TYPES;
  private SerializerRegistry serializers;
  private int maxMessageSize = Integer.MAX_VALUE;
  private Backoff backoff = Backoff.DEFAULT;
  private ConnectionListener listener = ConnectionListener.NONE;
  private boolean relay;

  FlowerClientBuilder(FlowerClient client) {
    this.client = Objects.requireNonNull(client, "client");
  }

  /** Connect to {@code hostPort} (or any gRPC target) on a channel the runner owns. */
  public FlowerClientBuilder target(String hostPort) {
    this.target = Objects.requireNonNull(hostPort, "hostPort");
    this.channel = null;
    return this;
  }

  /** Use this channel, which the caller owns and shuts down; TLS settings are then ignored. */
  public FlowerClientBuilder channel(ManagedChannel c) {
    this.channel = Objects.requireNonNull(c, "channel");
    this.target = null;
    return this;
  }

  /** Use TLS on the runner's own channel. */
  public FlowerClientBuilder tls(TlsSettings settings) {
    this.tls = Objects.requireNonNull(settings, "settings");
    return this;
  }

  /** Send {@code authorization: Bearer token} with every stream. */
  public FlowerClientBuilder authToken(String token) {
    if (token.isEmpty() || !token.chars().allMatch(c -> c > 0x20 && c < 0x7f)) {
      throw new IllegalArgumentException(
          "an auth token must be non-empty printable ASCII without spaces");
    }
    this.authToken = token;
    return this;
  }

  /** The tensor types to announce, most preferred first; each must have a serializer here. */
  public FlowerClientBuilder tensorTypes(List<String> types) {
    if (types.isEmpty()) {
      throw new IllegalArgumentException("announce at least one tensor type");
    }
    TensorTypes.format(types);
    this.tensorTypes = List.copyOf(types);
    return this;
  }

  /** Use these serializers instead of the ones on the class path. */
  public FlowerClientBuilder serializers(SerializerRegistry registry) {
    this.serializers = Objects.requireNonNull(registry, "registry");
    return this;
  }

  /** The largest message accepted or sent, in bytes. */
  public FlowerClientBuilder maxMessageSize(int bytes) {
    if (bytes < 1) {
      throw new IllegalArgumentException("max message size must be positive, got " + bytes);
    }
    this.maxMessageSize = bytes;
    return this;
  }

  /** Tell {@code l} when the connection is lost and when the runner retries. */
  public FlowerClientBuilder connectionListener(ConnectionListener l) {
    this.listener = Objects.requireNonNull(l, "listener");
    return this;
  }

  /**
   * Announce a relay: the client's {@code FitRes} carry its edge's aggregate update (the
   * example-weighted mean of its clients' updates), which a Tributary server takes as the update
   * as it is. {@link io.tributary.flower.relay.Relay} sets it; an ordinary client must not.
   */
  public FlowerClientBuilder relay(boolean announce) {
    this.relay = announce;
    return this;
  }

  /** How to retry when the server is unavailable. */
  public FlowerClientBuilder backoff(Backoff b) {
    this.backoff = Objects.requireNonNull(b, "backoff");
    return this;
  }

  /**
   * The runner.
   *
   * @throws IOException if a TLS file cannot be read
   * @throws IllegalStateException if neither a target nor a channel was given, or an announced
   *     tensor type has no serializer
   */
  public FlowerClientRunner build() throws IOException {
    if (serializers == null) {
      serializers = SerializerRegistry.load();
    }
    for (String t : tensorTypes) {
      if (!serializers.available().contains(t)) {
        throw new IllegalStateException("cannot announce tensor type '" + t
            + "': no serializer for it (available: " + serializers.available() + ")");
      }
    }
    if (channel != null) {
      return new FlowerClientRunner(this, channel, false);
    }
    if (target == null) {
      throw new IllegalStateException("give the server's address (target) or a channel");
    }
    return new FlowerClientRunner(this, Channels.open(target, tls, maxMessageSize), true);
  }

  FlowerClient client() {
    return client;
  }

  SerializerRegistry serializers() {
    return serializers;
  }

  int maxMessageSize() {
    return maxMessageSize;
  }

  Backoff backoff() {
    return backoff;
  }

  ConnectionListener listener() {
    return listener;
  }

  Metadata headers() {
    Metadata h = new Metadata();
    if (relay) {
      h.put(io.tributary.flower.internal.EdgeHeader.KEY,
          io.tributary.flower.internal.EdgeHeader.PARTIAL);
    }
    h.put(TensorTypes.HEADER, TensorTypes.format(tensorTypes));
    if (authToken != null) {
      h.put(AUTHORIZATION, "Bearer " + authToken);
    }
    return h;
  }
}
