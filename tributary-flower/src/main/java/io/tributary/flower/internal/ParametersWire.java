package io.tributary.flower.internal;

import com.google.protobuf.ByteString;
import com.google.protobuf.UnsafeByteOperations;
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
  public static io.tributary.flower.internal.proto.Parameters toProto(Parameters p) {
    var b = io.tributary.flower.internal.proto.Parameters.newBuilder()
        .setTensorType(p.tensorType());
    // A serializer's arrays are fresh and never written again, so the message may share them.
    for (byte[] t : p.tensors()) {
      b.addTensors(UnsafeByteOperations.unsafeWrap(t));
    }
    // Values are whole encoded Value messages, carried as bytes (the same on the wire).
    for (byte[] v : p.values()) {
      b.addValues(UnsafeByteOperations.unsafeWrap(v));
    }
    return b.build();
  }

  /**
   * The serialized parameters of a wire message. Tensor blobs and values share the message's
   * arrays where it has them whole (see {@link WholeArray}): the message must not be written
   * afterwards.
   */
  public static Parameters fromProto(io.tributary.flower.internal.proto.Parameters p) {
    List<byte[]> tensors = new ArrayList<>(p.getTensorsCount());
    for (ByteString t : p.getTensorsList()) {
      tensors.add(WholeArray.of(t));
    }
    List<byte[]> values = new ArrayList<>(p.getValuesCount());
    for (ByteString v : p.getValuesList()) {
      values.add(WholeArray.of(v));
    }
    return new Parameters(tensors, p.getTensorType(), values);
  }

  /** Serializes tensors with {@code serializer} and wraps them for the wire. */
  public static io.tributary.flower.internal.proto.Parameters encode(Serializer serializer,
      List<Tensor> tensors) throws SerializationException {
    return toProto(serializer.serialize(tensors));
  }

  /**
   * Decodes wire parameters with whichever serializer handles their {@code tensor_type}.
   *
   * @throws SerializationException if the type is unknown or a tensor is malformed
   */
  public static List<Tensor> decode(SerializerRegistry registry,
      io.tributary.flower.internal.proto.Parameters p)
      throws SerializationException {
    return registry.deserialize(fromProto(p));
  }
}
