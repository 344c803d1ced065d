package io.tributary.tensor.serialization;

import io.tributary.tensor.Tensor;
import io.tributary.tensor.serialization.internal.ValueCodec;
import io.tributary.tensor.serialization.internal.WireException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * FEP-0002's {@code proto.ndarray}: one protobuf {@code Value} message per tensor in
 * {@link Parameters#values()}, with dtype, shape and an optional name.
 *
 * <p>Every Tributary dtype is supported; docs/serialization.md has the mapping. Values are
 * written and read by a hand-written codec that copies fixed-width data in bulk. Field 1
 * ({@code tensors}) is ignored on read, so a sender may also fill it for peers that predate
 * FEP-0002.
 */
public final class ProtoNdarraySerializer implements Serializer {
  /** The tensor type this serializer writes and reads. */
  public static final String TENSOR_TYPE = "proto.ndarray";

  /** Public for {@link java.util.ServiceLoader}. */
  public ProtoNdarraySerializer() {}

  @Override
  public String tensorType() {
    return TENSOR_TYPE;
  }

  @Override
  public Parameters serialize(List<Tensor> tensors) throws SerializationException {
    List<byte[]> values = new ArrayList<>(tensors.size());
    for (int i = 0; i < tensors.size(); i++) {
      values.add(encode(i, tensors.get(i), ""));
    }
    return Parameters.ofValues(TENSOR_TYPE, values);
  }

  /**
   * Serializes tensors in the order {@link Serializer#serializeNamed} describes, each {@code
   * Value} carrying its name.
   */
  @Override
  public Parameters serializeNamed(Map<String, Tensor> tensors)
      throws SerializationException {
    List<byte[]> values = new ArrayList<>(tensors.size());
    int i = 0;
    for (Map.Entry<String, Tensor> e : Serializer.inOrder(tensors).entrySet()) {
      values.add(encode(i++, e.getValue(), Objects.requireNonNull(e.getKey(), "tensor name")));
    }
    return Parameters.ofValues(TENSOR_TYPE, values);
  }

  private static byte[] encode(int index, Tensor tensor, String name) throws SerializationException {
    try {
      return ValueCodec.encode(Objects.requireNonNull(tensor, "tensor"), name);
    } catch (WireException e) {
      throw new SerializationException(index, e.getMessage(), e);
    }
  }

  @Override
  public List<Tensor> deserialize(Parameters parameters) throws SerializationException {
    List<ValueCodec.Decoded> decoded = decodeAll(parameters);
    List<Tensor> tensors = new ArrayList<>(decoded.size());
    for (ValueCodec.Decoded d : decoded) {
      tensors.add(d.tensor());
    }
    return tensors;
  }

  /**
   * Deserializes tensors with the names their {@code Value}s carry; a value without a name is
   * called {@code arr_<index>}.
   *
   * @throws SerializationException also when two values end up with the same name
   */
  @Override
  public LinkedHashMap<String, Tensor> deserializeNamed(Parameters parameters)
      throws SerializationException {
    List<ValueCodec.Decoded> decoded = decodeAll(parameters);
    LinkedHashMap<String, Tensor> named = LinkedHashMap.newLinkedHashMap(decoded.size());
    for (int i = 0; i < decoded.size(); i++) {
      String name = decoded.get(i).name().isEmpty() ? Serializer.defaultName(i) : decoded.get(i).name();
      if (named.putIfAbsent(name, decoded.get(i).tensor()) != null) {
        throw new SerializationException(i, "duplicate tensor name '" + name + "'", null);
      }
    }
    return named;
  }

  private List<ValueCodec.Decoded> decodeAll(Parameters parameters) throws SerializationException {
    if (!canHandle(parameters.tensorType())) {
      throw new UnsupportedTensorTypeException(parameters.tensorType(), List.of(TENSOR_TYPE));
    }
    List<ValueCodec.Decoded> out = new ArrayList<>(parameters.values().size());
    for (int i = 0; i < parameters.values().size(); i++) {
      byte[] value = parameters.values().get(i);
      try {
        out.add(ValueCodec.decode(value, 0, value.length));
      } catch (WireException e) {
        throw new SerializationException(i, "malformed " + TENSOR_TYPE + " Value: " + e.getMessage(), e);
      }
    }
    return out;
  }
}
