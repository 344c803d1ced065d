package io.tributary.flower.server.internal;

import io.tributary.core.values.StructValue;
import io.tributary.flower.internal.ParametersWire;
import io.tributary.tensor.serialization.Parameters;
import io.tributary.tensor.serialization.SerializationException;
import io.tributary.tensor.serialization.SerializerRegistry;
import java.util.HashMap;
import java.util.Map;

/**
 * Encodes the round's model once per {@code tensor_type}: every client of a round is sent the
 * same broadcast value, so the bytes (and their memory) are shared by all of its messages.
 */
final class ModelEncoder {
  private final SerializerRegistry registry;
  private final Object lock = new Object();
  private StructValue model;
  private final Map<String, io.tributary.flower.internal.proto.Parameters> byType =
      new HashMap<>();

  ModelEncoder(SerializerRegistry registry) {
    this.registry = registry;
  }

  /** The wire parameters of {@code m} in {@code tensorType}. */
  io.tributary.flower.internal.proto.Parameters encode(StructValue m,
      String tensorType) throws SerializationException {
    synchronized (lock) {
      if (model != m) {
        model = m;
        byType.clear();
      }
      var cached = byType.get(tensorType);
      if (cached == null) {
        Parameters p = registry.forType(tensorType).serialize(ModelSpec.tensors(m));
        cached = ParametersWire.toProto(p);
        byType.put(tensorType, cached);
      }
      return cached;
    }
  }
}
