package io.tributary.cli;

import io.tributary.tensor.DType;
import io.tributary.tensor.Tensor;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.nio.ByteBuffer;

/**
 * The minimum, maximum and mean of a tensor's values, computed in one streaming pass.
 *
 * <p>The pass reads the tensor's little-endian data buffers directly, so it allocates nothing per
 * element. Integer and bool minima, maxima and sums are exact ({@link Long}, or {@link BigInteger} for
 * uint64 values above {@code Long.MAX_VALUE}); floating minima, maxima and every mean are
 * {@link Double}. Booleans count as 0 and 1. Complex tensors are summarised by the magnitude
 * {@code |z|}. A NaN anywhere makes min, max and mean NaN, as in numpy. Strings and empty tensors
 * have no statistics: all three are {@code null}.
 *
 * @param min the smallest value, or {@code null}
 * @param max the largest value, or {@code null}
 * @param mean the arithmetic mean, or {@code null}
 */
record TensorStats(Number min, Number max, Double mean) {
  private static final TensorStats NONE = new TensorStats(null, null, null);
  // More digits than a double carries, so the one rounding that matters is the one to double.
  private static final MathContext MEAN_PRECISION = new MathContext(25);

  /** True when the tensor had values to summarise. */
  boolean present() {
    return mean != null;
  }

  /** Summarises {@code tensor}; see the class comment for what each dtype reports. */
  static TensorStats of(Tensor tensor) {
    DType dtype = tensor.dtype();
    if (dtype == DType.STRING || tensor.size() == 0) {
      return NONE;
    }
    return switch (dtype.kind()) {
      case BOOL, SIGNED -> signed(tensor);
      case UNSIGNED -> unsigned(tensor);
      case FLOAT -> reals(tensor);
      case COMPLEX -> magnitudes(tensor);
      case STRING -> NONE;
    };
  }

  private static TensorStats signed(Tensor tensor) {
    DType dtype = tensor.dtype();
    int width = dtype.itemSize();
    long min = Long.MAX_VALUE;
    long max = Long.MIN_VALUE;
    IntegerSum sum = new IntegerSum();
    for (ByteBuffer b : tensor.dataBuffers()) {
      for (int p = b.position(), end = elementsEnd(b, width); p < end; p += width) {
        long v = switch (dtype) {
          case BOOL -> b.get(p) != 0 ? 1 : 0;
          case INT8 -> b.get(p);
          case INT16 -> b.getShort(p);
          case INT32 -> b.getInt(p);
          default -> b.getLong(p);
        };
        min = Math.min(min, v);
        max = Math.max(max, v);
        sum.add(v);
      }
    }
    return new TensorStats(min, max, sum.mean());
  }

  private static TensorStats unsigned(Tensor tensor) {
    DType dtype = tensor.dtype();
    int width = dtype.itemSize();
    long min = -1L; // the largest unsigned 64-bit value
    long max = 0L;
    IntegerSum sum = new IntegerSum();
    for (ByteBuffer b : tensor.dataBuffers()) {
      for (int p = b.position(), end = elementsEnd(b, width); p < end; p += width) {
        long v = switch (dtype) {
          case UINT8 -> b.get(p) & 0xFFL;
          case UINT16 -> b.getShort(p) & 0xFFFFL;
          case UINT32 -> b.getInt(p) & 0xFFFF_FFFFL;
          default -> b.getLong(p);
        };
        if (Long.compareUnsigned(v, min) < 0) {
          min = v;
        }
        if (Long.compareUnsigned(v, max) > 0) {
          max = v;
        }
        sum.addUnsigned(v);
      }
    }
    return new TensorStats(unsignedNumber(min), unsignedNumber(max), sum.mean());
  }

  private static TensorStats reals(Tensor tensor) {
    DType dtype = tensor.dtype();
    int width = dtype.itemSize();
    double min = Double.POSITIVE_INFINITY;
    double max = Double.NEGATIVE_INFINITY;
    MeanSum sum = new MeanSum();
    for (ByteBuffer b : tensor.dataBuffers()) {
      for (int p = b.position(), end = elementsEnd(b, width); p < end; p += width) {
        double v = switch (dtype) {
          case FLOAT16 -> Float.float16ToFloat(b.getShort(p));
          case BFLOAT16 -> Float.intBitsToFloat((b.getShort(p) & 0xFFFF) << 16);
          case FLOAT32 -> b.getFloat(p);
          default -> b.getDouble(p);
        };
        // Math.min and Math.max return NaN when either argument is NaN, as numpy's min and max do.
        min = Math.min(min, v);
        max = Math.max(max, v);
        sum.add(v);
      }
    }
    return new TensorStats(min, max, sum.mean());
  }

  private static TensorStats magnitudes(Tensor tensor) {
    boolean single = tensor.dtype() == DType.COMPLEX64;
    int width = tensor.dtype().itemSize();
    int half = width / 2;
    double min = Double.POSITIVE_INFINITY;
    double max = Double.NEGATIVE_INFINITY;
    MeanSum sum = new MeanSum();
    for (ByteBuffer b : tensor.dataBuffers()) {
      for (int p = b.position(), end = elementsEnd(b, width); p < end; p += width) {
        double re = single ? b.getFloat(p) : b.getDouble(p);
        double im = single ? b.getFloat(p + half) : b.getDouble(p + half);
        double v = Math.hypot(re, im);
        min = Math.min(min, v);
        max = Math.max(max, v);
        sum.add(v);
      }
    }
    return new TensorStats(min, max, sum.mean());
  }

  /**
   * The end of the last whole element in {@code b}. Storage chunks are powers of two of at least
   * 16 bytes, so an element never straddles two buffers; a remainder would mean a broken tensor.
   */
  private static int elementsEnd(ByteBuffer b, int width) {
    if (b.remaining() % width != 0) {
      throw new IllegalStateException(
          "tensor data buffer of " + b.remaining() + " bytes is not a whole number of " + width + "-byte elements");
    }
    return b.limit();
  }

  private static Number unsignedNumber(long v) {
    return v >= 0 ? Long.valueOf(v) : new BigInteger(Long.toUnsignedString(v));
  }

  /**
   * An exact 128-bit running sum of 64-bit integers: no count of int64 or uint64 values a tensor
   * can hold overflows it, so integer means are exact up to the final rounding to double.
   */
  private static final class IntegerSum {
    private long high;
    private long low;
    private long count;

    void add(long v) {
      addUnsigned(v);
      high += v >> 63; // sign extension of a negative v into the high word
    }

    void addUnsigned(long v) {
      long sum = low + v;
      if (Long.compareUnsigned(sum, low) < 0) {
        high++;
      }
      low = sum;
      count++;
    }

    double mean() {
      BigInteger total = BigInteger.valueOf(high).shiftLeft(64).add(new BigInteger(Long.toUnsignedString(low)));
      return new BigDecimal(total).divide(BigDecimal.valueOf(count), MEAN_PRECISION).doubleValue();
    }
  }

  /**
   * A running sum with Neumaier's compensation, so that the mean of millions of values keeps
   * its precision; once the sum is not finite the compensation is meaningless and is dropped.
   */
  private static final class MeanSum {
    private double sum;
    private double compensation;
    private long count;

    void add(double v) {
      double t = sum + v;
      if (Math.abs(sum) >= Math.abs(v)) {
        compensation += (sum - t) + v;
      } else {
        compensation += (v - t) + sum;
      }
      sum = t;
      count++;
    }

    double mean() {
      double total = Double.isFinite(sum) ? sum + compensation : sum;
      return total / count;
    }
  }
}
