package io.tributary.learning.serveropt;

import io.tributary.tensor.Tensor;
import io.tributary.tensor.TensorBuilder;
import java.util.ArrayList;
import java.util.List;

/** Elementwise arithmetic over layer lists, in double, written back in each layer's dtype. */
final class Elementwise {
  private Elementwise() {}

  /** One function of the elements at the same place in every argument layer list. */
  @FunctionalInterface
  interface Op {
    double apply(double[] values);
  }

  /**
   * {@code op} applied at every element; the result of layer l has layer l of {@code like}'s
   * dtype and shape.
   *
   * @throws IllegalArgumentException when the lists or layers differ in size
   */
  static List<Tensor> map(List<Tensor> like, Op op, List<List<Tensor>> args) {
    List<Tensor> out = new ArrayList<>(like.size());
    double[] v = new double[args.size()];
    for (int l = 0; l < like.size(); l++) {
      Tensor shape = like.get(l);
      for (List<Tensor> a : args) {
        if (a.size() != like.size() || a.get(l).size() != shape.size()) {
          throw new IllegalArgumentException("layer " + l + ": " + a.get(l).shape()
              + " does not match the model's " + shape.shape());
        }
      }
      TensorBuilder b = TensorBuilder.allocate(shape.dtype(), shape.shape());
      for (long i = 0; i < shape.size(); i++) {
        for (int k = 0; k < v.length; k++) {
          v[k] = args.get(k).get(l).getAsDouble(i);
        }
        b.setFromDouble(i, op.apply(v));
      }
      out.add(b.build());
    }
    return out;
  }

  /** Zeros shaped like {@code model}. */
  static List<Tensor> zeros(List<Tensor> model) {
    return model.stream().map(t -> Tensor.zeros(t.dtype(), t.shape())).toList();
  }
}
