package io.tributary.tensor.npy;

import java.util.Arrays;

/**
 * The shapes numpy itself can create, which every reader of tensors in numpy's terms accepts and
 * no other.
 *
 * <p>numpy allows at most {@value #MAX_RANK} dimensions, and refuses an array whose byte size,
 * {@code itemsize} times the product of its non-zero dimensions, exceeds the largest signed
 * 64-bit integer ({@code "array is too big"}); a zero dimension does not excuse the others. Both
 * the NPY reader and the {@code proto.ndarray} serializer check shapes here, so that the two
 * accept and refuse the same shapes. Item sizes of zero (string elements, whose size varies) count
 * as one byte.
 */
public final class NumpyShapes {
  /** numpy's {@code NPY_MAXDIMS}: the most dimensions an array may have. */
  public static final int MAX_RANK = 64;

  private NumpyShapes() {}

  /**
   * Why numpy could not create an array of {@code dims} with {@code itemSize}-byte elements, or
   * null when it could.
   *
   * @param dims the dimensions, each expected to be non-negative
   * @param itemSize bytes per element; 0 is counted as 1
   */
  public static String problem(long[] dims, long itemSize) {
    if (dims.length > MAX_RANK) {
      return "rank " + dims.length + " is over numpy's limit of " + MAX_RANK + " dimensions";
    }
    long bytes = Math.max(itemSize, 1);
    for (int i = 0; i < dims.length; i++) {
      long d = dims[i];
      if (d < 0) {
        return "negative dimension " + d + " at axis " + i + " of shape " + Arrays.toString(dims);
      }
      if (d == 0) {
        continue;
      }
      long hi = Math.multiplyHigh(bytes, d);
      bytes *= d;
      if (hi != 0 || bytes < 0) {
        return "shape " + Arrays.toString(dims) + " of " + Math.max(itemSize, 1)
            + "-byte items is larger than numpy allows (its non-zero dimensions times the item size"
            + " exceed 2^63 - 1 bytes)";
      }
    }
    return null;
  }
}
