package io.tributary.privacy.secagg;

import java.util.Objects;
import java.util.Random;

/**
 * Maps floating values to the integers SecAgg+ sums, and sums back to floating values.
 *
 * <p>A value is clipped to {@code [-c, c]} and scaled affinely onto {@code [0, 2^bits - 1]}:
 * {@code q = (x + c) / step} with {@code step = 2c / (2^bits - 1)}, then rounded as
 * {@link #rounding} says. The sum of {@code n} quantized vectors maps back as
 * {@code sum * step - n * c}; each element is then off by at most {@code n * step} (stochastic
 * rounding, zero in expectation) or {@code n * step / 2} (nearest), plus whatever clipping
 * removed.
 *
 * @param clippingRange c, positive and finite
 * @param bits the width of a quantized value, 1 to 62
 * @param rounding how a scaled value becomes an integer
 */
public record Quantizer(double clippingRange, int bits, Rounding rounding) {
  public Quantizer {
    if (!(clippingRange > 0.0) || !Double.isFinite(clippingRange)) {
      throw new IllegalArgumentException("the clipping range must be positive and finite, got "
          + clippingRange);
    }
    if (bits < 1 || bits > 62) {
      throw new IllegalArgumentException("bits must be 1 to 62, got " + bits);
    }
    Objects.requireNonNull(rounding, "rounding");
  }

  /** The quantizer that {@code settings} describe. */
  public static Quantizer of(SecAggSettings settings) {
    return new Quantizer(settings.clippingRange(), Math.min(62, settings.inputBits()),
        settings.rounding());
  }

  /** The distance between two adjacent quantized values. */
  public double step() {
    return 2 * clippingRange / (double) ((1L << bits) - 1);
  }

  /**
   * The quantized values of {@code x}, each in {@code [0, 2^bits)}; {@code random} decides
   * stochastic rounding (it is unused when rounding to nearest).
   *
   * @throws IllegalArgumentException when a value is NaN
   */
  public long[] quantize(double[] x, Random random) {
    long max = (1L << bits) - 1;
    double step = step();
    long[] q = new long[x.length];
    for (int i = 0; i < x.length; i++) {
      if (Double.isNaN(x[i])) {
        throw new IllegalArgumentException("element " + i + " is NaN");
      }
      double clipped = Math.max(-clippingRange, Math.min(clippingRange, x[i]));
      double scaled = (clipped + clippingRange) / step;
      long v = switch (rounding) {
        case NEAREST -> (long) Math.floor(scaled + 0.5);
        case STOCHASTIC -> {
          double floor = Math.floor(scaled);
          yield (long) floor + (random.nextDouble() < scaled - floor ? 1 : 0);
        }
      };
      q[i] = Math.max(0, Math.min(max, v));
    }
    return q;
  }

  /** The floating sum of {@code count} vectors whose quantized sum is {@code sum}. */
  public double[] dequantize(long[] sum, int count) {
    double step = step();
    double[] out = new double[sum.length];
    for (int i = 0; i < sum.length; i++) {
      out[i] = sum[i] * step - count * clippingRange;
    }
    return out;
  }
}
