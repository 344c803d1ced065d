package io.tributary.tensor.serialization;

import io.tributary.tensor.Tensor;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.ServiceLoader;

/**
 * The serializers at hand, looked up by {@code tensor_type}.
 *
 * <p>{@link #load()} finds every {@link Serializer} on the class path through
 * {@link ServiceLoader}, so a third-party format needs no change to strategies or the server.
 * Each call makes a new, immutable registry; there is no global one.
 */
public final class SerializerRegistry {
  private final List<Serializer> serializers;

  private SerializerRegistry(List<Serializer> serializers) {
    Map<String, Serializer> byType = new LinkedHashMap<>();
    for (Serializer s : serializers) {
      Objects.requireNonNull(s, "serializer");
      Serializer previous = byType.putIfAbsent(s.tensorType(), s);
      if (previous != null) {
        throw new IllegalArgumentException("two serializers for tensor_type '" + s.tensorType()
            + "': " + previous.getClass().getName() + " and " + s.getClass().getName());
      }
    }
    this.serializers = List.copyOf(byType.values());
  }

  /**
   * Every serializer that {@link ServiceLoader} finds through the thread's context class loader
   * (the system class loader when there is none).
   *
   * @throws IllegalArgumentException if two serializers claim one tensor type
   * @throws java.util.ServiceConfigurationError if a listed serializer cannot be loaded
   */
  public static SerializerRegistry load() {
    ClassLoader loader = Thread.currentThread().getContextClassLoader();
    return load(loader != null ? loader : ClassLoader.getSystemClassLoader());
  }

  /** Every serializer that {@link ServiceLoader} finds through {@code loader}. */
  public static SerializerRegistry load(ClassLoader loader) {
    List<Serializer> found = new ArrayList<>();
    ServiceLoader.load(Serializer.class, loader).forEach(found::add);
    return new SerializerRegistry(found);
  }

  /**
   * Exactly these serializers, in this order.
   *
   * @throws IllegalArgumentException if two serializers claim one tensor type
   */
  public static SerializerRegistry of(Serializer... serializers) {
    return new SerializerRegistry(List.of(serializers));
  }

  /**
   * The first serializer that can handle {@code tensorType}.
   *
   * @throws UnsupportedTensorTypeException naming the type and the available ones
   */
  public Serializer forType(String tensorType) throws UnsupportedTensorTypeException {
    for (Serializer s : serializers) {
      if (s.canHandle(tensorType)) {
        return s;
      }
    }
    throw new UnsupportedTensorTypeException(tensorType, available());
  }

  /** Deserializes with the serializer for the Parameters' own {@code tensor_type}. */
  public List<Tensor> deserialize(Parameters parameters)
      throws SerializationException {
    return forType(parameters.tensorType()).deserialize(parameters);
  }

  /** The tensor types of the serializers, in registry order. */
  public List<String> available() {
    List<String> types = new ArrayList<>(serializers.size());
    for (Serializer s : serializers) {
      types.add(s.tensorType());
    }
    return Collections.unmodifiableList(types);
  }

  /** The serializers, in registry order. */
  public List<Serializer> serializers() {
    return serializers;
  }

  @Override
  public String toString() {
    return "SerializerRegistry" + available();
  }
}
