package io.tributary.spark;

import io.tributary.core.values.StructValue;
import io.tributary.runtime.PassEngine;
import io.tributary.tensor.DType;
import io.tributary.tensor.Tensor;
import java.util.Optional;

/**
 * A pass's server argument (the state for {@code next}, the model for {@code evaluate}) as bytes
 * for the workers: a tree of named structs whose leaves are numeric tensors, in the runtime's own
 * value format ({@link PassEngine#encodeValue}), so the worker's argument has the driver's bits.
 * Nothing else crosses the wire: Tributary objects are never Java-serialized.
 */
final class ValueCodec {
  private ValueCodec() {}

  /**
   * Encodes {@code value}, a {@link StructValue} or a {@link Tensor}.
   *
   * @throws IllegalArgumentException naming a value that cannot be sent (a string tensor, or
   *     anything but structs and tensors)
   */
  static byte[] encode(Object value) {
    check(value, "the server argument");
    return PassEngine.encodeValue(value);
  }

  /**
   * Decodes what {@link #encode} wrote.
   *
   * @throws io.tributary.runtime.PassEngineException when the bytes are not such an encoding
   */
  static Object decode(byte[] encoded) {
    return PassEngine.decodeValue(encoded);
  }

  /** A server argument is numeric tensors in structs: what a simulation's state is. */
  private static void check(Object value, String where) {
    switch (value) {
      case Tensor t -> {
        if (t.dtype() == DType.STRING) {
          throw new IllegalArgumentException(where + " is a string tensor, which a cluster "
              + "engine does not send");
        }
      }
      case StructValue s -> {
        for (int i = 0; i < s.size(); i++) {
          Optional<String> name = s.names().get(i);
          check(s.values().get(i), where + "." + name.orElse(Integer.toString(i)));
        }
      }
      default -> throw new IllegalArgumentException(where + " is a "
          + value.getClass().getSimpleName() + ", which a cluster engine does not send");
    }
  }
}
