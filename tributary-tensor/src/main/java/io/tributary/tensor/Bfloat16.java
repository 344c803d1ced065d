package io.tributary.tensor;

/** Conversions for bfloat16, the upper half of an IEEE float32. */
public final class Bfloat16 {
  private Bfloat16() {}

  /** Rounds a float to bfloat16 bits, to nearest even; NaNs stay quiet NaNs. */
  public static short fromFloat(float v) {
    int bits = Float.floatToRawIntBits(v);
    if (Float.isNaN(v)) {
      return (short) ((bits >>> 16) | 0x0040);
    }
    int rounding = 0x7FFF + ((bits >>> 16) & 1);
    return (short) ((bits + rounding) >>> 16);
  }

  /** Widens bfloat16 bits to a float exactly. */
  public static float toFloat(short bits) {
    return Float.intBitsToFloat((bits & 0xFFFF) << 16);
  }
}
