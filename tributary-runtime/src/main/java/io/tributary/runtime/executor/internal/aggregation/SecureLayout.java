package io.tributary.runtime.executor.internal.aggregation;

import io.tributary.core.types.StructType;
import io.tributary.core.types.TensorType;
import io.tributary.core.types.Type;
import io.tributary.runtime.SecureSumException;
import io.tributary.runtime.executor.internal.local.LinearAccumulator;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.TensorMath;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A secure sum's value as a flat vector, known from its type alone: the leaves in order, each
 * element's largest value, and the way back from a summed vector to a value. Both sides of a
 * protocol that runs where the clients are derive it from the computation, so it needs every
 * leaf's shape in the type.
 */
final class SecureLayout {
  private final Type member;
  private final List<TensorType> leaves;
  private final int[] offsets;
  private final long[] maxInput;

  private SecureLayout(Type member, List<TensorType> leaves, int[] offsets, long[] maxInput) {
    this.member = member;
    this.leaves = leaves;
    this.offsets = offsets;
    this.maxInput = maxInput;
  }

  /**
   * The layout of {@code member}'s values with each leaf's elements bounded by its bound group's
   * largest value ({@code maxOfGroup[group of leaf]}).
   *
   * @throws SecureSumException when a leaf's shape is not fully known from the type
   */
  static SecureLayout of(String uri, Type member, int[] leafGroups, long[] maxOfGroup) {
    List<TensorType> leaves = new ArrayList<>();
    collect(uri, member, leaves);
    int[] offsets = new int[leaves.size() + 1];
    for (int i = 0; i < leaves.size(); i++) {
      long size = 1;
      for (long d : leaves.get(i).dims()) {
        size = Math.multiplyExact(size, d);
      }
      offsets[i + 1] = Math.toIntExact(offsets[i] + size);
    }
    long[] max = new long[offsets[leaves.size()]];
    for (int i = 0; i < leaves.size(); i++) {
      Arrays.fill(max, offsets[i], offsets[i + 1],
          maxOfGroup[Math.min(leafGroups[i], maxOfGroup.length - 1)]);
    }
    return new SecureLayout(member, List.copyOf(leaves), offsets, max);
  }

  private static void collect(String uri, Type t, List<TensorType> out) {
    if (t instanceof TensorType x) {
      if (!x.isFullyDefined()) {
        throw new SecureSumException(uri + ": a secure sum whose inputs leave the clients needs "
            + "every shape in its type, but " + x + " is not fully defined");
      }
      out.add(x);
    } else if (t instanceof StructType s) {
      for (int i = 0; i < s.size(); i++) {
        collect(uri, s.get(i), out);
      }
    } else {
      throw new SecureSumException(uri + ": cannot sum values of type " + t);
    }
  }

  /** The number of elements of a flattened value. */
  int length() {
    return maxInput.length;
  }

  /** Each element's largest value, a copy. */
  long[] maxInput() {
    return maxInput.clone();
  }

  /** The elements of {@code value} (a value of the member type, already checked) in order. */
  long[] flatten(Object value) {
    List<Tensor> ts = new ArrayList<>();
    LinearAccumulator.flatten(value, ts);
    long[] flat = new long[maxInput.length];
    for (int i = 0; i < ts.size(); i++) {
      long[] x = TensorMath.toLongs(ts.get(i));
      if (x.length != offsets[i + 1] - offsets[i]) {
        throw new IllegalArgumentException("tensor " + i + " has " + x.length + " elements, its "
            + "type " + leaves.get(i) + " says " + (offsets[i + 1] - offsets[i]));
      }
      System.arraycopy(x, 0, flat, offsets[i], x.length);
    }
    return flat;
  }

  /** The value of the member type whose elements are {@code sum[from, from + length())}. */
  Object rebuild(long[] sum, int from) {
    List<Object> out = new ArrayList<>();
    for (int i = 0; i < leaves.size(); i++) {
      TensorType t = leaves.get(i);
      long[] dims = t.dims().stream().mapToLong(Long::longValue).toArray();
      out.add(TensorMath.fromLongs(t.dtype(), Shape.of(dims),
          Arrays.copyOfRange(sum, from + offsets[i], from + offsets[i + 1])));
    }
    return LinearAccumulator.rebuild(member, out, new int[] {0});
  }
}
