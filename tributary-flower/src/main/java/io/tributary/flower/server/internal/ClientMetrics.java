package io.tributary.flower.server.internal;

import io.tributary.flower.Scalar;
import io.tributary.flower.internal.MalformedMessageException;
import io.tributary.flower.internal.ScalarCodec;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.TreeMap;

/** A client's FitRes or EvaluateRes metrics read from the wire, a malformed one failing it. */
final class ClientMetrics {
  private ClientMetrics() {}

  /** The metrics but {@code left} (none left out when null). */
  static Map<String, Scalar> without(RemoteClient client,
      Map<String, io.tributary.flower.internal.proto.Scalar> metrics, String left) {
    try {
      Map<String, Scalar> m = new TreeMap<>(ScalarCodec.fromProto(metrics));
      if (left != null) {
        m.remove(left);
      }
      return m;
    } catch (MalformedMessageException e) {
      throw RemoteCall.fail(client, "metrics: " + e.getMessage(), e);
    }
  }

  /** The metric {@code key} as a number; empty when absent or not a number. */
  static OptionalDouble number(RemoteClient client,
      Map<String, io.tributary.flower.internal.proto.Scalar> metrics, String key) {
    try {
      Scalar s = ScalarCodec.fromProto(metrics).get(key);
      return s == null ? OptionalDouble.empty() : s.asDouble();
    } catch (MalformedMessageException e) {
      throw RemoteCall.fail(client, "metrics: " + e.getMessage(), e);
    }
  }
}
