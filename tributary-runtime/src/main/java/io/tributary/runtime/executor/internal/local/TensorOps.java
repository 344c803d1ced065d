package io.tributary.runtime.executor.internal.local;

import io.tributary.core.types.StructType;
import io.tributary.core.types.TensorType;
import io.tributary.core.types.Type;
import io.tributary.core.values.StructValue;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.TensorMath;
import java.util.ArrayList;
import java.util.List;

/**
 * Element-wise arithmetic on structs of tensors, leaf by leaf through {@link TensorMath} (whose
 * numerics it has: floating values computed in double precision and rounded once to the dtype,
 * integers modulo 2^bits), with errors that say where in the struct the leaves disagree.
 */
public final class TensorOps {
  private TensorOps() {}

  /** The zero value of a struct of numeric tensors of fully defined shape. */
  static Object zeros(Type type) {
    if (type instanceof TensorType t) {
      if (!t.isFullyDefined()) {
        throw new IllegalArgumentException("no zero value for " + t + ": its shape is not known");
      }
      long[] dims = new long[t.dims().size()];
      for (int i = 0; i < dims.length; i++) {
        dims[i] = t.dims().get(i);
      }
      return Tensor.zeros(t.dtype(), Shape.of(dims));
    }
    if (type instanceof StructType s) {
      List<Object> values = new ArrayList<>();
      for (int i = 0; i < s.size(); i++) {
        values.add(zeros(s.get(i)));
      }
      return StructValue.of(LinearAccumulator.names(s), values);
    }
    throw new IllegalArgumentException("no zero value for " + type);
  }

  /** Element-wise {@code a + b} of two equally shaped structs of tensors. */
  static Object plus(Object a, Object b) {
    return combine(a, b, false, "");
  }

  /** Element-wise {@code a * b} of two equally shaped structs of tensors. */
  static Object multiply(Object a, Object b) {
    return combine(a, b, true, "");
  }

  private static Object combine(Object a, Object b, boolean times, String path) {
    if (a instanceof StructValue sa && b instanceof StructValue sb && sa.size() == sb.size()) {
      List<Object> out = new ArrayList<>();
      for (int i = 0; i < sa.size(); i++) {
        out.add(combine(sa.get(i), sb.get(i), times, path + "[" + i + "]"));
      }
      return StructValue.of(sa.names(), out);
    }
    if (!(a instanceof Tensor x && b instanceof Tensor y)) {
      throw new IllegalArgumentException("cannot combine " + describe(a) + " and " + describe(b)
          + (path.isEmpty() ? "" : " at " + path));
    }
    if (x.dtype() != y.dtype() || !x.shape().equals(y.shape()) || !x.dtype().isNumeric()) {
      throw new IllegalArgumentException("cannot combine a " + x.dtype() + x.shape()
          + " tensor with a " + y.dtype() + y.shape() + " tensor element-wise"
          + (path.isEmpty() ? "" : " at " + path));
    }
    return times ? TensorMath.multiply(x, y) : TensorMath.add(x, y);
  }

  /**
   * Element-wise true division {@code a / b} of two equally shaped structs of numeric tensors,
   * rounded once to the dtypes of {@code result}, as numpy's {@code true_divide} followed by
   * {@code astype}: integers are divided as doubles (a zero divisor gives an infinity or NaN),
   * complex numbers by Smith's algorithm.
   */
  static Object divide(Object a, Object b, Type result) {
    return divide(a, b, result, "");
  }

  private static Object divide(Object a, Object b, Type result, String path) {
    if (a instanceof StructValue sa && b instanceof StructValue sb && sa.size() == sb.size()
        && result instanceof StructType rs && rs.size() == sa.size()) {
      List<Object> out = new ArrayList<>();
      for (int i = 0; i < sa.size(); i++) {
        out.add(divide(sa.get(i), sb.get(i), rs.get(i), path + "[" + i + "]"));
      }
      return StructValue.of(sa.names(), out);
    }
    if (!(a instanceof Tensor x && b instanceof Tensor y && result instanceof TensorType r)) {
      throw new IllegalArgumentException("cannot divide " + describe(a) + " by " + describe(b)
          + (path.isEmpty() ? "" : " at " + path));
    }
    if (x.dtype() != y.dtype() || !x.shape().equals(y.shape()) || !x.dtype().isNumeric()) {
      throw new IllegalArgumentException("cannot divide a " + x.dtype() + x.shape()
          + " tensor by a " + y.dtype() + y.shape() + " tensor element-wise"
          + (path.isEmpty() ? "" : " at " + path));
    }
    return TensorMath.divide(x, y, r.dtype());
  }

  private static String describe(Object v) {
    return io.tributary.runtime.ValueChecker.describe(v);
  }
}
