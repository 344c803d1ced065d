package io.tributary.flower.secaggplus.internal;

import java.util.random.RandomGenerator;

/**
 * Flower's {@code quantize} / {@code dequantize}: values clipped to {@code [-c, c]}, shifted and
 * scaled to {@code [0, targetRange]} and rounded stochastically (up with the probability of the
 * fraction), so that the sum of many quantized vectors is unbiased.
 */
public final class Quantization {
  private Quantization() {}

  /** The quantized values of {@code values}. */
  public static long[] quantize(double[] values, double clippingRange, long targetRange,
      RandomGenerator random) {
    double quantizer = targetRange / (2 * clippingRange);
    long[] out = new long[values.length];
    for (int i = 0; i < values.length; i++) {
      double pre = (Math.clamp(values[i], -clippingRange, clippingRange) + clippingRange)
          * quantizer;
      double up = Math.ceil(pre);
      out[i] = (long) (random.nextDouble() < up - pre ? up - 1 : up);
    }
    return out;
  }

  /** Flower's {@code dequantize}: {@code q * 2c / targetRange - c}. */
  public static double[] dequantize(long[] values, double clippingRange, long targetRange) {
    double quantizer = 2 * clippingRange / targetRange;
    double[] out = new double[values.length];
    for (int i = 0; i < values.length; i++) {
      out[i] = values[i] * quantizer - clippingRange;
    }
    return out;
  }

  /** {@code v mod modRange}, by masking when it is a power of two as Flower does. */
  public static long mod(long v, long modRange) {
    return Long.bitCount(modRange) == 1 ? v & (modRange - 1) : Math.floorMod(v, modRange);
  }
}
