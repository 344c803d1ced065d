package io.tributary.tensor;

/**
 * Scans over the zeros of a float array: what a sparse product or step uses to visit only the
 * non-zero elements of a mostly zero example.
 */
public final class Zeros {
  private Zeros() {}

  /**
   * The index of the first element of {@code a[from, to)} that is not zero (+0 or -0), or
   * {@code to} when there is none. NaN is not zero.
   *
   * @throws IndexOutOfBoundsException if {@code [from, to)} is not within {@code a}
   */
  public static int nextNonZero(float[] a, int from, int to) {
    java.util.Objects.checkFromToIndex(from, to, a.length);
    int i = from;
    // Eight elements tested at once: their bits, sign dropped, are all 0 only for eight zeros.
    for (; i + 8 <= to; i += 8) {
      int any = Float.floatToRawIntBits(a[i]) | Float.floatToRawIntBits(a[i + 1])
          | Float.floatToRawIntBits(a[i + 2]) | Float.floatToRawIntBits(a[i + 3])
          | Float.floatToRawIntBits(a[i + 4]) | Float.floatToRawIntBits(a[i + 5])
          | Float.floatToRawIntBits(a[i + 6]) | Float.floatToRawIntBits(a[i + 7]);
      if ((any & 0x7fffffff) != 0) {
        break;
      }
    }
    for (; i < to; i++) {
      if (a[i] != 0f) {
        return i;
      }
    }
    return to;
  }
}
