package io.tributary.tensor.serialization;

import io.tributary.tensor.Tensor;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SequencedMap;
import java.util.TreeMap;

/**
 * Turns a list of tensors into {@link Parameters} of one {@code tensor_type} and back (FEP-0002).
 *
 * <p>Strategies and servers hold a Serializer, or a {@link SerializerRegistry} of them, and never
 * look at the bytes. Implementations are found with {@link java.util.ServiceLoader}: a third-party
 * format plugs in by shipping a class with a public no-argument constructor, listed in
 * {@code META-INF/services/io.tributary.tensor.serialization.Serializer}. Implementations must be
 * stateless or thread-safe, since one instance serves every connection.
 */
public interface Serializer {
  /** The {@code tensor_type} this serializer writes, such as {@code numpy.ndarray}. */
  String tensorType();

  /** True when this serializer can read Parameters of {@code type}; by default, its own type. */
  default boolean canHandle(String type) {
    return tensorType().equals(type);
  }

  /**
   * Serializes tensors, in order.
   *
   * @throws SerializationException naming the tensor that this format cannot hold
   */
  Parameters serialize(List<Tensor> tensors) throws SerializationException;

  /**
   * Deserializes every tensor, in order.
   *
   * @throws UnsupportedTensorTypeException if {@link #canHandle} refuses the tensor type
   * @throws SerializationException naming the index of a tensor that is malformed
   */
  List<Tensor> deserialize(Parameters parameters) throws SerializationException;

  /**
   * Serializes named tensors in the map's order when it is a {@link SequencedMap} (a {@code
   * LinkedHashMap}, say), and sorted by name for any other map (such as {@code Map.of(...)}), whose
   * order is unspecified. Formats that can hold names (such as {@code proto.ndarray}) keep them;
   * this default, for formats that cannot, drops them.
   */
  default Parameters serializeNamed(Map<String, Tensor> tensors)
      throws SerializationException {
    SequencedMap<String, Tensor> ordered = inOrder(tensors);
    for (String name : ordered.keySet()) {
      Objects.requireNonNull(name, "tensor name");
    }
    return serialize(new ArrayList<>(ordered.values()));
  }

  /**
   * {@code tensors} in the order {@link #serializeNamed} takes them: a {@link SequencedMap}'s own
   * order, names sorted for any other map.
   *
   * @throws NullPointerException if an unordered map has a null name
   */
  static SequencedMap<String, Tensor> inOrder(Map<String, Tensor> tensors) {
    return tensors instanceof SequencedMap<String, Tensor> s ? s : new TreeMap<>(tensors);
  }

  /**
   * Deserializes tensors with their names. Tensors without a name get numpy's {@code savez}
   * names {@code arr_0}, {@code arr_1}, ... by position; this default, for formats that hold no
   * names, names every tensor that way.
   *
   * @throws SerializationException as {@link #deserialize}, or when two tensors have one name
   */
  default LinkedHashMap<String, Tensor> deserializeNamed(Parameters parameters)
      throws SerializationException {
    List<Tensor> list = deserialize(parameters);
    LinkedHashMap<String, Tensor> named = LinkedHashMap.newLinkedHashMap(list.size());
    for (int i = 0; i < list.size(); i++) {
      named.put(defaultName(i), list.get(i));
    }
    return named;
  }

  /** numpy's name for the unnamed tensor at {@code index}: {@code arr_<index>}. */
  static String defaultName(int index) {
    return "arr_" + index;
  }
}
