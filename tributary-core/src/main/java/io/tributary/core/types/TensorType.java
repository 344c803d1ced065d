package io.tributary.core.types;

import io.tributary.tensor.DType;
import java.util.List;
import java.util.Objects;

/**
 * The type of a tensor: a dtype and a shape whose dimensions, or whose rank, may be unknown.
 *
 * <p>An unknown dimension is {@link #UNKNOWN_DIM} ({@code ?} in compact notation); an unknown rank
 * is printed {@code dtype[...]}. A scalar has rank 0 and is printed as the bare dtype.
 *
 * @param dtype the element type
 * @param dims the dimensions, each {@code >= 0} or {@link #UNKNOWN_DIM}; empty when the rank is
 *     unknown
 * @param unknownRank true when even the number of dimensions is unknown
 */
public record TensorType(DType dtype, List<Long> dims, boolean unknownRank) implements Type {
  /** The value of a dimension whose size is not known. */
  public static final long UNKNOWN_DIM = -1;

  public TensorType {
    Objects.requireNonNull(dtype, "dtype");
    dims = List.copyOf(dims);
    for (int i = 0; i < dims.size(); i++) {
      if (dims.get(i) < UNKNOWN_DIM) {
        throw new IllegalArgumentException(
            "dimension " + i + " of a " + dtype + " tensor type is " + dims.get(i)
                + "; dimensions are >= 0, or -1 for unknown");
      }
    }
    if (unknownRank && !dims.isEmpty()) {
      throw new IllegalArgumentException("a tensor type of unknown rank cannot list dimensions");
    }
  }

  /** A tensor type of known rank; {@code -1} marks an unknown dimension. */
  public static TensorType of(DType dtype, long... dims) {
    Long[] boxed = new Long[dims.length];
    for (int i = 0; i < dims.length; i++) {
      boxed[i] = dims[i];
    }
    return new TensorType(dtype, List.of(boxed), false);
  }

  /** A tensor type whose rank is unknown. */
  public static TensorType unknownRank(DType dtype) {
    return new TensorType(dtype, List.of(), true);
  }

  /** The number of dimensions; only meaningful when the rank is known. */
  public int rank() {
    return dims.size();
  }

  /** True when the rank and every dimension are known. */
  public boolean isFullyDefined() {
    return !unknownRank && !dims.contains(UNKNOWN_DIM);
  }

  /** True for a known rank of zero. */
  public boolean isScalar() {
    return !unknownRank && dims.isEmpty();
  }

  @Override
  public String toString() {
    return compact();
  }
}
