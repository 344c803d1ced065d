package io.tributary.graph.ops;

/**
 * A float32 exponential for whole arrays, as Cephes' {@code expf} computes it: {@code exp(x) =
 * 2^n exp(g)} with {@code n = round(x / ln 2)}, g reduced in two FMA steps (Cody and Waite) and a
 * degree-7 polynomial for {@code exp(g)}. Within 2 ulp of the exact value over the whole float
 * range (checked against {@link Math#exp} in the tests); 0 below {@link #UNDERFLOW}, infinity
 * above {@link #OVERFLOW}, NaN for NaN.
 *
 * <p>Why not {@link Math#exp}: a softmax spends most of its time in exponentials, and
 * {@code Math.exp} takes one double at a time. This form is a fixed sequence of IEEE operations, so
 * {@link VectorExp} computes it eight lanes at a time on the Vector API and gets the same bits as
 * the scalar loop here; results do not depend on which of the two ran.
 */
final class FloatExp {
  static final float LOG2E = 1.44269504088896341f;
  /** ln 2 split so that n * LN2_HI is exact for the n that occur. */
  static final float LN2_HI = 0.693359375f;
  static final float LN2_LO = -2.12194440e-4f;
  /** 1.5 * 2^23: adding and subtracting it rounds a float of magnitude below 2^22 to an integer. */
  static final float ROUND = 12582912f;
  /** Below this exp(x) is under the smallest normal float; the result is 0. */
  static final float UNDERFLOW = -87.33654f;
  /** Above this exp(x) overflows; the result is infinity. */
  static final float OVERFLOW = 88.72284f;
  static final float P0 = 1.9875691500e-4f;
  static final float P1 = 1.3981999507e-3f;
  static final float P2 = 8.3334519073e-3f;
  static final float P3 = 4.1665795894e-2f;
  static final float P4 = 1.6666665459e-1f;
  static final float P5 = 5.0000001201e-1f;

  private static final boolean VECTOR = Gemm.isAvailable(Gemm.Kernel.VECTOR);

  private FloatExp() {}

  /** Replaces {@code a[from .. to)} with their exponentials. */
  static void expInPlace(float[] a, int from, int to) {
    java.util.Objects.checkFromToIndex(from, to, a.length);
    int i = from;
    if (VECTOR) {
      i = VectorExp.expInPlace(a, from, to);
    }
    for (; i < to; i++) {
      a[i] = exp(a[i]);
    }
  }

  /** exp(x) for one float; the same bits as {@link #expInPlace} gives for it. */
  static float exp(float x) {
    float c = Math.min(Math.max(x, UNDERFLOW), OVERFLOW);
    float n = (c * LOG2E + ROUND) - ROUND;
    float g = Math.fma(n, -LN2_HI, c);
    g = Math.fma(n, -LN2_LO, g);
    float p = Math.fma(P0, g, P1);
    p = Math.fma(p, g, P2);
    p = Math.fma(p, g, P3);
    p = Math.fma(p, g, P4);
    p = Math.fma(p, g, P5);
    float y = Math.fma(p, g * g, g) + 1f;
    // n lies in [-126, 128]; 2^128 is not a float, so n = 128 becomes 2^127 with y doubled.
    float k = Math.min(n, 127f);
    y = y * ((n - k) + 1f);
    float scale = Float.intBitsToFloat(((int) k + 127) << 23);
    float r = y * scale;
    return x < UNDERFLOW ? 0f : r;
  }
}
