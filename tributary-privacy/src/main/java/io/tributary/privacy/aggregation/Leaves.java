package io.tributary.privacy.aggregation;

import io.tributary.core.types.StructType;
import io.tributary.core.types.TensorType;
import io.tributary.core.types.Type;
import io.tributary.core.values.StructValue;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.TensorBuilder;
import java.util.ArrayList;
import java.util.List;

/** A model value's tensors in depth-first order, and back. */
final class Leaves {
  private Leaves() {}

  static List<Tensor> of(Object value) {
    List<Tensor> out = new ArrayList<>();
    collect(value, out);
    return out;
  }

  private static void collect(Object value, List<Tensor> out) {
    if (value instanceof StructValue s) {
      for (Object v : s.values()) {
        collect(v, out);
      }
    } else if (value instanceof Tensor t) {
      out.add(t);
    } else {
      throw new IllegalArgumentException("a model holds structs and tensors, not "
          + (value == null ? "null" : value.getClass().getSimpleName()));
    }
  }

  static StructValue rebuild(StructType type, List<Tensor> leaves) {
    int[] next = {0};
    StructValue v = (StructValue) build(type, leaves, next);
    if (next[0] != leaves.size()) {
      throw new IllegalArgumentException(type + " has " + next[0] + " tensors, got "
          + leaves.size());
    }
    return v;
  }

  private static Object build(Type t, List<Tensor> leaves, int[] next) {
    if (t instanceof StructType s) {
      List<Object> values = new ArrayList<>();
      for (int i = 0; i < s.size(); i++) {
        values.add(build(s.get(i), leaves, next));
      }
      return StructValue.of(s.elements().stream().map(StructType.Element::name).toList(), values);
    }
    if (!(t instanceof TensorType) || next[0] >= leaves.size()) {
      throw new IllegalArgumentException("cannot build " + t + " from " + leaves.size()
          + " tensors");
    }
    return leaves.get(next[0]++);
  }

  static Tensor scale(Tensor t, double factor) {
    TensorBuilder b = TensorBuilder.allocate(t.dtype(), t.shape());
    for (long i = 0; i < t.size(); i++) {
      b.setFromDouble(i, t.getAsDouble(i) * factor);
    }
    return b.build();
  }

  /** A hash of the values' bits, the same on every platform. */
  static long hash(List<Tensor> leaves) {
    long h = 0x9E3779B97F4A7C15L;
    for (Tensor t : leaves) {
      for (long i = 0; i < t.size(); i++) {
        h = (h ^ Double.doubleToLongBits(t.getAsDouble(i))) * 0x100000001B3L;
      }
    }
    return h;
  }
}
