package io.tributary.flower.server.internal;

import io.tributary.core.values.StructValue;
import io.tributary.flower.internal.ParametersWire;
import io.tributary.flower.internal.proto.Parameters;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.serialization.SerializationException;
import io.tributary.tensor.serialization.SerializerRegistry;
import java.util.List;

/**
 * The model on the wire for one run's clients: encoded in each client's tensor type (once per
 * type and model, {@link ModelEncoder}), and a client's parameters decoded and checked against
 * the model's shapes. A failure names the client ({@link RemoteCall#fail}).
 */
public final class ParameterCodec {
  private final SerializerRegistry registry;
  private final ModelSpec spec;
  private final ModelEncoder encoder;

  public ParameterCodec(SerializerRegistry registry, ModelSpec spec) {
    this.registry = registry;
    this.spec = spec;
    this.encoder = new ModelEncoder(registry);
  }

  /** The model's type and values. */
  public ModelSpec spec() {
    return spec;
  }

  /** {@code model} as {@code client}'s tensor type reads it. */
  Parameters encode(RemoteClient client, StructValue model) {
    try {
      return encoder.encode(model, client.tensorType());
    } catch (SerializationException e) {
      throw RemoteCall.fail(client, "the model cannot be written as " + client.tensorType()
          + ": " + e.getMessage(), e);
    }
  }

  /** {@code client}'s parameters as tensors of the model's shapes and types. */
  List<Tensor> decode(RemoteClient client, Parameters p) {
    List<Tensor> got;
    try {
      got = ParametersWire.decode(registry, p);
    } catch (SerializationException e) {
      throw RemoteCall.fail(client, "parameters (tensor_type '" + p.getTensorType()
          + "') do not decode: " + e.getMessage(), e);
    }
    String mismatch = spec.mismatch(got);
    if (mismatch != null) {
      throw RemoteCall.fail(client, "parameters do not fit the model: " + mismatch, null);
    }
    return got;
  }
}
