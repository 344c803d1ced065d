package io.tributary.tensor;

import java.util.Arrays;

/**
 * The dimensions of a {@link Tensor}: rank 0 is a scalar, and any dimension may be zero.
 *
 * <p>Immutable. The element count is computed with overflow checks, so a shape whose product
 * does not fit in a {@code long} is rejected at construction; a shape with a zero dimension has
 * zero elements, however large the others.
 */
public final class Shape {
  private static final Shape SCALAR = new Shape(new long[0]);

  private final long[] dims;
  private final long size;

  private Shape(long[] dims) {
    this.dims = dims;
    boolean empty = false;
    for (int i = 0; i < dims.length; i++) {
      if (dims[i] < 0) {
        throw new IllegalArgumentException(
            "negative dimension " + dims[i] + " at axis " + i + " in " + Arrays.toString(dims));
      }
      empty |= dims[i] == 0;
    }
    // A zero dimension makes zero elements whatever the others: their product need not fit.
    long n = empty ? 0 : 1;
    for (int i = 0; i < dims.length && !empty; i++) {
      try {
        n = Math.multiplyExact(n, dims[i]);
      } catch (ArithmeticException e) {
        throw new IllegalArgumentException(
            "shape " + Arrays.toString(dims) + " has more elements than a long can count", e);
      }
    }
    this.size = n;
  }

  /** A shape with the given dimensions (copied). */
  public static Shape of(long... dims) {
    return dims.length == 0 ? SCALAR : new Shape(dims.clone());
  }

  /** The rank-0 shape of a scalar. */
  public static Shape scalar() {
    return SCALAR;
  }

  public int rank() {
    return dims.length;
  }

  public long dim(int axis) {
    return dims[axis];
  }

  /** A copy of the dimensions. */
  public long[] dims() {
    return dims.clone();
  }

  /** The number of elements: the product of the dimensions, 1 for a scalar. */
  public long size() {
    return size;
  }

  public boolean isScalar() {
    return dims.length == 0;
  }

  /** Row-major (C-order) element strides for this shape. */
  long[] contiguousStrides() {
    long[] strides = new long[dims.length];
    long s = 1;
    for (int i = dims.length - 1; i >= 0; i--) {
      strides[i] = s;
      s *= Math.max(dims[i], 1);
    }
    return strides;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Shape other && Arrays.equals(dims, other.dims);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(dims);
  }

  /** Compact form such as {@code [10,5]}; {@code []} for a scalar. */
  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder("[");
    for (int i = 0; i < dims.length; i++) {
      sb.append(i == 0 ? "" : ",").append(dims[i]);
    }
    return sb.append(']').toString();
  }
}
