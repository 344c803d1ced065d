package io.tributary.guide;

import io.tributary.tensor.DType;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.serialization.Parameters;
import io.tributary.tensor.serialization.SerializationException;
import io.tributary.tensor.serialization.Serializer;
import io.tributary.tensor.serialization.SerializerRegistry;
import io.tributary.tensor.serialization.UnsupportedTensorTypeException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** A FEP-0002 tensor type of one's own: float32 tensors as text, {@code "2,3|1.0 2.5 ..."}. */
public final class TextSerializer implements Serializer {
  /** The {@code tensor_type} this serializer writes and reads. */
  public static final String TENSOR_TYPE = "text.float32";

  @Override
  public String tensorType() {
    return TENSOR_TYPE;
  }

  @Override
  public Parameters serialize(List<Tensor> tensors) throws SerializationException {
    List<byte[]> blobs = new ArrayList<>();
    for (int i = 0; i < tensors.size(); i++) {
      Tensor t = tensors.get(i);
      if (t.dtype() != DType.FLOAT32) {
        throw new SerializationException(i, TENSOR_TYPE + " holds float32 only, not "
            + t.dtype(), null);
      }
      String dims = Arrays.toString(t.shape().dims()).replaceAll("[\\[\\] ]", "");
      String values = Arrays.toString(t.toFloatArray()).replaceAll("[\\[\\],]", "");
      blobs.add((dims + "|" + values).getBytes(StandardCharsets.UTF_8));
    }
    return Parameters.ofTensors(TENSOR_TYPE, blobs);
  }

  @Override
  public List<Tensor> deserialize(Parameters parameters) throws SerializationException {
    if (!canHandle(parameters.tensorType())) {
      throw new UnsupportedTensorTypeException(parameters.tensorType(), List.of(TENSOR_TYPE));
    }
    List<Tensor> tensors = new ArrayList<>();
    for (int i = 0; i < parameters.tensors().size(); i++) {
      String[] parts = new String(parameters.tensors().get(i), StandardCharsets.UTF_8)
          .split("\\|", -1);
      try {
        long[] dims = parts[0].isEmpty() ? new long[0]
            : Arrays.stream(parts[0].split(",")).mapToLong(Long::parseLong).toArray();
        String[] words = parts[1].isEmpty() ? new String[0] : parts[1].split(" ");
        float[] values = new float[words.length];
        for (int v = 0; v < words.length; v++) {
          values[v] = Float.parseFloat(words[v]);
        }
        tensors.add(Tensor.ofFloats(Shape.of(dims), values));
      } catch (IllegalArgumentException | ArrayIndexOutOfBoundsException e) {
        throw new SerializationException(i, "not a " + TENSOR_TYPE + " tensor: "
            + e.getMessage(), e);
      }
    }
    return tensors;
  }

  public static void main(String[] args) throws Exception {
    SerializerRegistry registry = SerializerRegistry.load();   // finds TextSerializer too
    System.out.println("tensor types: " + registry.available());

    List<Tensor> model = List.of(Tensor.ofFloats(Shape.of(2, 2), 1f, 2.5f, -3f, 0.125f),
        Tensor.scalar(0.5f));
    Parameters sent = registry.forType(TENSOR_TYPE).serialize(model);
    System.out.println("first tensor: "
        + new String(sent.tensors().getFirst(), StandardCharsets.UTF_8));
    List<Tensor> received = registry.deserialize(sent);
    System.out.println("read back equal: " + received.equals(model));
  }
}
