package io.tributary.flower.server.internal;

import io.tributary.core.types.StructType;
import io.tributary.core.types.TensorType;
import io.tributary.core.types.Type;
import io.tributary.core.values.StructValue;
import io.tributary.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;

/**
 * The model M of a server run: Flower's ordered list of parameter tensors as an unnamed struct
 * type {@code <float32[60,10],float32[10]>}, fixed by the initial parameters. Every client result
 * must match it tensor by tensor.
 *
 * @param type M
 */
public record ModelSpec(StructType type) {
  /**
   * The spec of these initial parameters.
   *
   * @throws IllegalArgumentException if there are none or one is not floating point (FedAvg
   *     averages, which integer parameters cannot take part in)
   */
  public static ModelSpec of(List<Tensor> initial) {
    if (initial.isEmpty()) {
      throw new IllegalArgumentException("the initial parameters hold no tensors");
    }
    List<Type> types = new ArrayList<>(initial.size());
    for (int i = 0; i < initial.size(); i++) {
      Tensor t = initial.get(i);
      if (!t.dtype().isFloating()) {
        throw new IllegalArgumentException("initial parameter " + i + " is " + t.dtype()
            + t.shape() + "; FedAvg averages parameters, so every one must be floating point");
      }
      types.add(TensorType.of(t.dtype(), t.shape().dims()));
    }
    return new ModelSpec(StructType.of(types.toArray(Type[]::new)));
  }

  /** The number of tensors. */
  public int size() {
    return type.size();
  }

  /** The value of M holding these tensors. */
  public StructValue value(List<Tensor> tensors) {
    return StructValue.of(tensors.toArray());
  }

  /** The tensors of a value of M, in order. */
  public static List<Tensor> tensors(StructValue model) {
    List<Tensor> out = new ArrayList<>(model.size());
    for (Object o : model.values()) {
      out.add((Tensor) o);
    }
    return out;
  }

  /**
   * Null when {@code tensors} fit M exactly (count, dtype and shape), else what is wrong.
   */
  public String mismatch(List<Tensor> tensors) {
    if (tensors.size() != type.size()) {
      return tensors.size() + " tensors where the model has " + type.size();
    }
    for (int i = 0; i < tensors.size(); i++) {
      Tensor t = tensors.get(i);
      TensorType want = (TensorType) type.get(i);
      if (t.dtype() != want.dtype() || !List.of(box(t.shape().dims())).equals(want.dims())) {
        return "tensor " + i + " is " + t.dtype() + t.shape() + " where the model has " + want;
      }
    }
    return null;
  }

  private static Long[] box(long[] dims) {
    Long[] out = new Long[dims.length];
    for (int i = 0; i < dims.length; i++) {
      out[i] = dims[i];
    }
    return out;
  }
}
