package io.tributary.graph;

import io.tributary.tensor.Shape;
import java.util.Arrays;

/**
 * A shape whose dimensions may be unknown until run time, marked {@link #UNKNOWN} (-1).
 *
 * <p>Graph variables use it so that one graph serves any batch size. Immutable.
 */
public final class PartialShape {
  /** The marker for a dimension known only at run time. */
  public static final long UNKNOWN = -1;

  private final long[] dims;

  private PartialShape(long[] dims) {
    for (int i = 0; i < dims.length; i++) {
      if (dims[i] < UNKNOWN) {
        throw new IllegalArgumentException(
            "dimension " + dims[i] + " at axis " + i + " in " + Arrays.toString(dims)
                + ": must be >= 0, or -1 for unknown");
      }
    }
    this.dims = dims;
  }

  /** A shape with the given dimensions (copied); -1 marks an unknown dimension. */
  public static PartialShape of(long... dims) {
    return new PartialShape(dims.clone());
  }

  /** The fully known shape of a tensor. */
  public static PartialShape of(Shape shape) {
    return new PartialShape(shape.dims());
  }

  public int rank() {
    return dims.length;
  }

  /** The dimension at {@code axis}, or {@link #UNKNOWN}. */
  public long dim(int axis) {
    return dims[axis];
  }

  /** A copy of the dimensions. */
  public long[] dims() {
    return dims.clone();
  }

  /** True when every dimension is known. */
  public boolean isFullyKnown() {
    for (long d : dims) {
      if (d == UNKNOWN) {
        return false;
      }
    }
    return true;
  }

  /** The element count when fully known, else {@link #UNKNOWN}; overflow is rejected. */
  public long knownSize() {
    long n = 1;
    for (long d : dims) {
      if (d == UNKNOWN) {
        return UNKNOWN;
      }
      n = Math.multiplyExact(n, d);
    }
    return n;
  }

  /** The tensor shape, when every dimension is known. */
  public Shape toShape() {
    if (!isFullyKnown()) {
      throw new IllegalStateException("shape " + this + " has unknown dimensions");
    }
    return Shape.of(dims);
  }

  /** True when a tensor of shape {@code actual} fits: same rank, and equal wherever this is known. */
  public boolean accepts(Shape actual) {
    if (actual.rank() != dims.length) {
      return false;
    }
    for (int i = 0; i < dims.length; i++) {
      if (dims[i] != UNKNOWN && dims[i] != actual.dim(i)) {
        return false;
      }
    }
    return true;
  }

  /** True when the two shapes could describe the same tensor: same rank and no known dims differ. */
  public boolean compatibleWith(PartialShape other) {
    if (other.dims.length != dims.length) {
      return false;
    }
    for (int i = 0; i < dims.length; i++) {
      if (dims[i] != UNKNOWN && other.dims[i] != UNKNOWN && dims[i] != other.dims[i]) {
        return false;
      }
    }
    return true;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof PartialShape p && Arrays.equals(dims, p.dims);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(dims);
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder("(");
    for (int i = 0; i < dims.length; i++) {
      if (i > 0) {
        sb.append(", ");
      }
      sb.append(dims[i] == UNKNOWN ? "?" : Long.toString(dims[i]));
    }
    return sb.append(dims.length == 1 ? ",)" : ")").toString();
  }
}
