package io.tributary.flower.passes;

import io.tributary.flower.Scalar;
import io.tributary.flower.app.NodeCapabilities;
import java.math.BigInteger;
import java.util.Map;

/**
 * The node capability "runs client passes": a node that can rebuild the server's computation
 * ({@link NodeComputation}) states {@value #CLIENT_PASSES} = {@value #PROTOCOL_VERSION}, the
 * client-pass protocol version it speaks, in its answer to the server's capability query
 * ({@link NodeCapabilities}: a {@code query} message, a {@code GetPropertiesIns} on the legacy
 * protocol). The server asks before its first round and reads each answer with {@link #read}:
 * a node that states another version, states nothing, answers with an error (a Flower Python
 * ClientApp without a query handler) or does not answer in time cannot run passes.
 */
public final class ClientPasses {
  /** The client-pass protocol version this Tributary speaks. */
  public static final long PROTOCOL_VERSION = 1;
  /** The property stating the client-pass protocol version a node speaks. */
  public static final String CLIENT_PASSES = "tributary.client_passes";

  private ClientPasses() {}

  /** The config of the capability query, for a {@code GetPropertiesIns} or a query message. */
  public static Map<String, Scalar> query() {
    return Map.of(NodeCapabilities.QUERY_KEY, Scalar.of(NodeCapabilities.QUERY_VALUE));
  }

  /** What a node that runs client passes states. */
  public static NodeCapabilities capabilities() {
    return NodeCapabilities.of(Map.of(CLIENT_PASSES, PROTOCOL_VERSION));
  }

  /** Whether a node can run the server's client passes, and why not. */
  public sealed interface Support {
    /** The node speaks this Tributary's client-pass protocol. */
    record Capable(long version) implements Support {}

    /** The node cannot run client passes, for {@code reason}. */
    record NotCapable(String reason) implements Support {}
  }

  /**
   * Whether the properties a node answered the capability query with say it runs client passes
   * of {@link #PROTOCOL_VERSION}: Flower {@link Scalar}s or config-record values.
   */
  public static Support read(Map<String, ?> properties) {
    Object v = properties.get(CLIENT_PASSES);
    if (v == null) {
      return new Support.NotCapable("states no " + CLIENT_PASSES);
    }
    java.util.OptionalLong version = switch (v) {
      case Long l -> java.util.OptionalLong.of(l);
      case Scalar.Int i -> java.util.OptionalLong.of(i.value());
      case Scalar.UInt u when u.bits() >= 0 -> java.util.OptionalLong.of(u.bits());
      case BigInteger b when b.bitLength() < 64 -> java.util.OptionalLong.of(b.longValue());
      default -> java.util.OptionalLong.empty();
    };
    if (version.isEmpty()) {
      return new Support.NotCapable(CLIENT_PASSES + " is not an integer");
    }
    if (version.getAsLong() != PROTOCOL_VERSION) {
      return new Support.NotCapable("speaks client-pass protocol version "
          + version.getAsLong() + ", the server " + PROTOCOL_VERSION);
    }
    return new Support.Capable(version.getAsLong());
  }
}
