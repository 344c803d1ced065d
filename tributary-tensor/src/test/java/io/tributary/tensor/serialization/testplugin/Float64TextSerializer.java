package io.tributary.tensor.serialization.testplugin;

import io.tributary.tensor.DType;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.TensorBuilder;
import io.tributary.tensor.serialization.Parameters;
import io.tributary.tensor.serialization.SerializationException;
import io.tributary.tensor.serialization.Serializer;
import io.tributary.tensor.serialization.UnsupportedTensorTypeException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A third-party format, as a plugin author would ship it: float64 tensors as UTF-8 text
 * {@code "2,3|1.0,2.5,..."}. Registered only in the test resources' service file, it proves that
 * {@link io.tributary.tensor.serialization.SerializerRegistry#load()} finds formats it was never
 * told about.
 */
public final class Float64TextSerializer implements Serializer {
  public static final String TENSOR_TYPE = "text.float64";

  @Override
  public String tensorType() {
    return TENSOR_TYPE;
  }

  @Override
  public Parameters serialize(List<Tensor> tensors) throws SerializationException {
    List<byte[]> out = new ArrayList<>();
    for (int i = 0; i < tensors.size(); i++) {
      Tensor t = tensors.get(i);
      if (t.dtype() != DType.FLOAT64) {
        throw new SerializationException(i, TENSOR_TYPE + " holds float64 only, got " + t.dtype(), null);
      }
      StringBuilder sb = new StringBuilder();
      long[] dims = t.shape().dims();
      for (int d = 0; d < dims.length; d++) {
        sb.append(d == 0 ? "" : ",").append(dims[d]);
      }
      sb.append('|');
      for (long e = 0; e < t.size(); e++) {
        sb.append(e == 0 ? "" : ",").append(t.getDouble(e));
      }
      out.add(sb.toString().getBytes(StandardCharsets.UTF_8));
    }
    return Parameters.ofTensors(TENSOR_TYPE, out);
  }

  @Override
  public List<Tensor> deserialize(Parameters parameters) throws SerializationException {
    if (!canHandle(parameters.tensorType())) {
      throw new UnsupportedTensorTypeException(parameters.tensorType(), List.of(TENSOR_TYPE));
    }
    List<Tensor> out = new ArrayList<>();
    for (int i = 0; i < parameters.tensors().size(); i++) {
      String text = new String(parameters.tensors().get(i), StandardCharsets.UTF_8);
      int bar = text.indexOf('|');
      if (bar < 0) {
        throw new SerializationException(i, "no '|' between shape and values", null);
      }
      try {
        long[] dims = parse(text.substring(0, bar)).stream().mapToLong(Long::parseLong).toArray();
        List<String> values = parse(text.substring(bar + 1));
        TensorBuilder b = TensorBuilder.allocate(DType.FLOAT64, Shape.of(dims));
        if (values.size() != Shape.of(dims).size()) {
          throw new SerializationException(i, values.size() + " values for shape " + Shape.of(dims), null);
        }
        for (int e = 0; e < values.size(); e++) {
          b.setDouble(e, Double.parseDouble(values.get(e)));
        }
        out.add(b.build());
      } catch (IllegalArgumentException e) {
        throw new SerializationException(i, "malformed text tensor: " + e.getMessage(), e);
      }
    }
    return out;
  }

  private static List<String> parse(String csv) {
    return csv.isEmpty() ? List.of() : List.of(csv.split(",", -1));
  }
}
