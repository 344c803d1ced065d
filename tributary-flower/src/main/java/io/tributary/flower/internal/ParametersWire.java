package io.tributary.flower.internal;

import com.google.protobuf.ByteString;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.serialization.Parameters;
import io.tributary.tensor.serialization.SerializationException;
import io.tributary.tensor.serialization.Serializer;
import io.tributary.tensor.serialization.SerializerRegistry;
import java.util.ArrayList;
import java.util.List;

/**
 * Moves FEP-0002 {@link Parameters} on and off the wire, and tensors through a serializer chosen
 * by {@code tensor_type} alone: no code here looks inside the bytes.
 */
public final class ParametersWire {
  private ParametersWire() {}

  /** The wire message for serialized parameters. */
  public static io.tributary.tensor.serialization.internal.proto.Parameters toProto(
      Parameters p) {
    var b = io.tributary.tensor.serialization.internal.proto.Parameters.newBuilder()
        .setTensorType(p.tensorType());
    for (byte[] t : p.tensors()) {
      b.addTensors(ByteString.copyFrom(t));
    }
    // Values are whole encoded Value messages; they are re-parsed into the repeated field.
    for (byte[] v : p.values()) {
      try {
        b.addValues(io.tributary.tensor.serialization.internal.proto.Value.parseFrom(v));
      } catch (com.google.protobuf.InvalidProtocolBufferException e) {
        throw new IllegalStateException("a serializer produced an invalid Value message", e);
      }
    }
    return b.build();
  }

  /** The serialized parameters of a wire message. */
  public static Parameters fromProto(
      io.tributary.tensor.serialization.internal.proto.Parameters p) {
    List<byte[]> tensors = new ArrayList<>(p.getTensorsCount());
    for (ByteString t : p.getTensorsList()) {
      tensors.add(t.toByteArray());
    }
    List<byte[]> values = new ArrayList<>(p.getValuesCount());
    for (var v : p.getValuesList()) {
      values.add(v.toByteArray());
    }
    return new Parameters(tensors, p.getTensorType(), values);
  }

  /** Serializes tensors with {@code serializer} and wraps them for the wire. */
  public static io.tributary.tensor.serialization.internal.proto.Parameters encode(
      Serializer serializer, List<Tensor> tensors) throws SerializationException {
    return toProto(serializer.serialize(tensors));
  }

  /**
   * Decodes wire parameters with whichever serializer handles their {@code tensor_type}.
   *
   * @throws SerializationException if the type is unknown or a tensor is malformed
   */
  public static List<Tensor> decode(SerializerRegistry registry,
      io.tributary.tensor.serialization.internal.proto.Parameters p)
      throws SerializationException {
    return registry.deserialize(fromProto(p));
  }
}
