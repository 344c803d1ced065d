package io.tributary.tensor;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.util.List;
import java.util.Optional;

/**
 * Finds NaN and infinite elements in tensors, the check every value from an untrusted party
 * (a client's update, a server's model) passes before it is used. Integer, bool and string
 * tensors are always finite; complex elements are finite when both parts are.
 */
public final class Finite {
  /** Elements read into an array at a time: a few KiB, so the array stays in cache. */
  private static final int CHUNK = 2048;

  private Finite() {}

  /** The row-major index of the first NaN or infinite element of {@code t}, or -1 if none. */
  public static long firstNonFinite(Tensor t) {
    DType d = t.dtype();
    if (!d.isFloating() && !d.isComplex()) {
      return -1;
    }
    Difference lent = t.pinnedDifference();
    if (lent != null) {
      try {
        int n = (int) t.size();
        RankOneFactors factors = lent.factors();
        if (factors != null) {
          return factors.boundedFinite(lent.subtrahendWithinHalfRange()) ? -1
              : firstNonFinite(factors, n);
        }
        boolean f32 = lent.minuendFloats() != null;
        // Both operands below half the largest power of two: no difference can overflow, so
        // the minuend alone is read (the subtrahend, every client's start, was checked once).
        if (lent.subtrahendWithinHalfRange() && (f32
            ? withinHalfRange(lent.minuendFloats(), n)
            : withinHalfRange(lent.minuendDoubles(), n))) {
          return -1;
        }
        return f32
            ? firstNonFinite(lent.minuendFloats(), lent.subtrahendFloats(), n)
            : firstNonFinite(lent.minuendDoubles(), lent.subtrahendDoubles(), n);
      } finally {
        lent.unpin();
      }
    }
    if (d == DType.FLOAT32 || d == DType.FLOAT64 || d == DType.COMPLEX64
        || d == DType.COMPLEX128) {
      // Complex tensors are interleaved pairs of float32 or float64: element = pair index.
      int pairs = d.isComplex() ? 2 : 1;
      long pos = 0;
      // Read a chunk at a time into an array: a buffer's bulk get is a copy, its get(i) an
      // access through the buffer's memory session per element, several times slower. The raw
      // bits are read, so that a chunk is first tested with one loop C2 vectorizes (an OR over
      // the elements, no early exit); only a chunk that holds a non-finite element is searched.
      // The array is no larger than the first buffer: every client update of a small model is
      // checked, and a fixed 8 KiB array for each was a tenth of what a simulation allocated.
      int[] ints = null;
      long[] longs = null;
      for (ByteBuffer raw : t.dataBuffers()) {
        ByteBuffer b = raw.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        if (d == DType.FLOAT32 || d == DType.COMPLEX64) {
          IntBuffer ib = b.asIntBuffer();
          int n = ib.remaining();
          ints = ints != null ? ints : new int[Math.min(CHUNK, n)];
          for (int from = 0; from < n; from += ints.length) {
            int len = Math.min(ints.length, n - from);
            ib.get(from, ints, 0, len);
            if (anyNonFinite(ints, len)) {
              for (int j = 0; j < len; j++) {
                if (!Float.isFinite(Float.intBitsToFloat(ints[j]))) {
                  return (pos + from + j) / pairs;
                }
              }
            }
          }
          pos += n;
        } else {
          LongBuffer lb = b.asLongBuffer();
          int n = lb.remaining();
          longs = longs != null ? longs : new long[Math.min(CHUNK, n)];
          for (int from = 0; from < n; from += longs.length) {
            int len = Math.min(longs.length, n - from);
            lb.get(from, longs, 0, len);
            if (anyNonFinite(longs, len)) {
              for (int j = 0; j < len; j++) {
                if (!Double.isFinite(Double.longBitsToDouble(longs[j]))) {
                  return (pos + from + j) / pairs;
                }
              }
            }
          }
          pos += n;
        }
      }
      return -1;
    }
    for (long i = 0; i < t.size(); i++) {
      if (!Double.isFinite(t.getAsDouble(i))) {
        return i;
      }
    }
    return -1;
  }

  /** The first non-finite element of a rank-one difference, computed a chunk at a time. */
  private static long firstNonFinite(RankOneFactors d, int n) {
    float[] chunk = new float[Math.min(CHUNK, n)];
    for (int from = 0; from < n; from += CHUNK) {
      int len = Math.min(CHUNK, n - from);
      d.elements(from, len, chunk);
      for (int j = 0; j < len; j++) {
        if (!Float.isFinite(chunk[j])) {
          return from + j;
        }
      }
    }
    return -1;
  }

  /**
   * Whether the first {@code n} elements of {@code a} are finite and below 2^127 in magnitude
   * (half the largest power of two a float32 holds): the difference of two such values is
   * finite, since it is at most {@code Float.MAX_VALUE} in magnitude before rounding.
   */
  public static boolean withinHalfRange(float[] a, int n) {
    for (int from = 0; from < n; from += CHUNK) {
      int end = Math.min(n, from + CHUNK);
      // An exponent of 254 (2^127 and up) or 255 (not finite) plus two exponent steps carries
      // into the sign bit; any smaller one does not.
      int any = 0;
      for (int j = from; j < end; j++) {
        any |= (Float.floatToRawIntBits(a[j]) & 0x7f800000) + 0x01000000;
      }
      if (any < 0) {
        return false;
      }
    }
    return true;
  }

  /** As {@link #withinHalfRange(float[], int)} for float64: below 2^1023 in magnitude. */
  public static boolean withinHalfRange(double[] a, int n) {
    for (int from = 0; from < n; from += CHUNK) {
      int end = Math.min(n, from + CHUNK);
      long any = 0;
      for (int j = from; j < end; j++) {
        any |= (Double.doubleToRawLongBits(a[j]) & 0x7ff0000000000000L) + 0x0020000000000000L;
      }
      if (any < 0) {
        return false;
      }
    }
    return true;
  }

  /**
   * The first index below {@code n} where the float difference {@code a[i] - b[i]} is not
   * finite, or -1: a deferred difference's check, from its two arrays, a chunk at a time as the
   * stored elements are.
   */
  private static long firstNonFinite(float[] a, float[] b, int n) {
    for (int from = 0; from < n; from += CHUNK) {
      int len = Math.min(CHUNK, n - from);
      int any = 0;
      for (int j = from; j < from + len; j++) {
        any |= (Float.floatToRawIntBits(a[j] - b[j]) & 0x7f800000) + 0x00800000;
      }
      if (any < 0) {
        for (int j = from; j < from + len; j++) {
          if (!Float.isFinite(a[j] - b[j])) {
            return j;
          }
        }
      }
    }
    return -1;
  }

  /** As {@link #firstNonFinite(float[], float[], int)}, for doubles. */
  private static long firstNonFinite(double[] a, double[] b, int n) {
    for (int from = 0; from < n; from += CHUNK) {
      int len = Math.min(CHUNK, n - from);
      long any = 0;
      for (int j = from; j < from + len; j++) {
        any |= (Double.doubleToRawLongBits(a[j] - b[j]) & 0x7ff0000000000000L)
            + 0x0010000000000000L;
      }
      if (any < 0) {
        for (int j = from; j < from + len; j++) {
          if (!Double.isFinite(a[j] - b[j])) {
            return j;
          }
        }
      }
    }
    return -1;
  }

  /**
   * Whether one of the first {@code len} float32 bit patterns has an all-ones exponent (NaN or
   * infinite): that exponent plus one exponent step carries into the sign bit, any other does not.
   */
  private static boolean anyNonFinite(int[] bits, int len) {
    int any = 0;
    for (int j = 0; j < len; j++) {
      any |= (bits[j] & 0x7f800000) + 0x00800000;
    }
    return any < 0;
  }

  /** As {@link #anyNonFinite(int[], int)} for float64 bit patterns. */
  private static boolean anyNonFinite(long[] bits, int len) {
    long any = 0;
    for (int j = 0; j < len; j++) {
      any |= (bits[j] & 0x7ff0000000000000L) + 0x0010000000000000L;
    }
    return any < 0;
  }

  /** Whether every element of {@code t} is finite. */
  public static boolean isFinite(Tensor t) {
    return firstNonFinite(t) < 0;
  }

  /**
   * What is wrong with a list of tensors, such as {@code "tensor 2 (float32[3, 4]) holds NaN at
   * element 7"}, or empty when every element is finite.
   *
   * @param names the tensors' names for the message, or null to number them
   */
  public static Optional<String> problem(List<Tensor> tensors, List<String> names) {
    for (int i = 0; i < tensors.size(); i++) {
      Tensor t = tensors.get(i);
      long at = firstNonFinite(t);
      if (at >= 0) {
        String name = names == null ? "tensor " + i : "tensor '" + names.get(i) + "'";
        return Optional.of(name + " (" + t.dtype().name().toLowerCase(java.util.Locale.ROOT)
            + t.shape() + ") holds " + describe(t, at) + " at element " + at);
      }
    }
    return Optional.empty();
  }

  private static String describe(Tensor t, long i) {
    double v = t.dtype().isComplex()
        ? (Double.isFinite(t.getReal(i)) ? t.getImag(i) : t.getReal(i))
        : t.getAsDouble(i);
    return Double.isNaN(v) ? "NaN" : v > 0 ? "+Inf" : "-Inf";
  }
}
