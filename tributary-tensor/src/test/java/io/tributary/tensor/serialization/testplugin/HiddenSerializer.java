package io.tributary.tensor.serialization.testplugin;

import io.tributary.tensor.Tensor;
import io.tributary.tensor.serialization.Parameters;
import io.tributary.tensor.serialization.Serializer;
import io.tributary.tensor.serialization.UnsupportedTensorTypeException;
import java.util.List;

/**
 * A serializer listed in no service file on the class path: tests list it in a class loader of
 * their own to show that {@code SerializerRegistry.load(ClassLoader)} uses that loader. It holds
 * only empty tensor lists.
 */
public final class HiddenSerializer implements Serializer {
  @Override
  public String tensorType() {
    return "test.hidden";
  }

  @Override
  public Parameters serialize(List<Tensor> tensors) {
    if (!tensors.isEmpty()) {
      throw new IllegalArgumentException("test.hidden holds no tensors");
    }
    return Parameters.ofTensors(tensorType(), List.of());
  }

  @Override
  public List<Tensor> deserialize(Parameters parameters) throws UnsupportedTensorTypeException {
    if (!canHandle(parameters.tensorType())) {
      throw new UnsupportedTensorTypeException(parameters.tensorType(), List.of(tensorType()));
    }
    return List.of();
  }
}
