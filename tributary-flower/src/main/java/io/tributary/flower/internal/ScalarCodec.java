package io.tributary.flower.internal;

import com.google.protobuf.ByteString;
import io.tributary.flower.Scalar;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/** Converts between {@link Scalar} maps and the {@code map<string, Scalar>} fields on the wire. */
public final class ScalarCodec {
  private ScalarCodec() {}

  /** The wire form of one scalar. */
  public static io.tributary.flower.internal.proto.Scalar toProto(Scalar s) {
    var b = io.tributary.flower.internal.proto.Scalar.newBuilder();
    switch (s) {
      case Scalar.Double d -> b.setDouble(d.value());
      case Scalar.Int i -> b.setSint64(i.value());
      case Scalar.UInt u -> b.setUint64(u.bits());
      case Scalar.Bool x -> b.setBool(x.value());
      case Scalar.Str x -> b.setString(x.value());
      case Scalar.Bytes x -> b.setBytes(ByteString.copyFrom(x.value()));
    }
    return b.build();
  }

  /**
   * The Java form of one wire scalar.
   *
   * @throws MalformedMessageException if no scalar kind is set
   */
  public static Scalar fromProto(String key, io.tributary.flower.internal.proto.Scalar s)
      throws MalformedMessageException {
    return switch (s.getScalarCase()) {
      case DOUBLE -> new Scalar.Double(s.getDouble());
      case SINT64 -> new Scalar.Int(s.getSint64());
      case UINT64 -> s.getUint64() >= 0 ? new Scalar.Int(s.getUint64())
          : new Scalar.UInt(s.getUint64());
      case BOOL -> new Scalar.Bool(s.getBool());
      case STRING -> new Scalar.Str(s.getString());
      case BYTES -> new Scalar.Bytes(s.getBytes().toByteArray());
      case SCALAR_NOT_SET -> throw new MalformedMessageException(
          "scalar '" + key + "' has no value set");
    };
  }

  /** The wire form of a map, keys sorted so that equal maps encode to equal bytes. */
  public static Map<String, io.tributary.flower.internal.proto.Scalar> toProto(
      Map<String, Scalar> map) {
    Map<String, io.tributary.flower.internal.proto.Scalar> out = new TreeMap<>();
    map.forEach((k, v) -> out.put(k, toProto(v)));
    return out;
  }

  /**
   * The Java form of a wire map, in key order.
   *
   * @throws MalformedMessageException naming the first entry without a value
   */
  public static Map<String, Scalar> fromProto(
      Map<String, io.tributary.flower.internal.proto.Scalar> map)
      throws MalformedMessageException {
    Map<String, Scalar> out = new LinkedHashMap<>();
    for (var e : new TreeMap<>(map).entrySet()) {
      out.put(e.getKey(), fromProto(e.getKey(), e.getValue()));
    }
    return java.util.Collections.unmodifiableMap(out);
  }
}
