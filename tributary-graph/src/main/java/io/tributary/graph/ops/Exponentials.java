package io.tributary.graph.ops;

/**
 * The exponential of a non-positive float64, as a softmax needs it (a logit minus its row's
 * maximum), in about half the time of {@code Math.exp}.
 *
 * <p>The exponentials were a fifth of a small model's training step. This form shortens the chain
 * of dependent operations, so the processor overlaps consecutive calls: x = (64m + j) ln2 / 64 + r
 * with |r| <= ln2 / 128, and e^x = 2^m * 2^(j/64) * e^r, where 2^(j/64) comes from a 64-entry
 * table, 2^m from its bits, and e^r from its degree-5 Taylor polynomial evaluated in Estrin's
 * order. Within 3 ulp of {@code StrictMath.exp} on [-708, 0] (ExponentialsTest). The table is
 * filled with {@code StrictMath.pow}, and everything else is IEEE addition and multiplication, so
 * the result is the same on every JVM and processor, which {@code Math.exp} does not promise.
 *
 * <p>Arguments below {@value #LOWEST} are taken as {@value #LOWEST} (e^-708 is about 3e-308): next
 * to a row's largest term, e^0 = 1, the difference vanishes in any sum, and a float32 probability
 * rounds to 0 either way. NaN gives NaN. Positive arguments are outside the contract.
 */
final class Exponentials {
  /** The smallest argument used; lower ones are raised to it. */
  static final double LOWEST = -708.0;
  private static final int TABLE_BITS = 6;
  private static final int TABLE_SIZE = 1 << TABLE_BITS;
  /** 2^(j/64) for j = 0 .. 63. */
  private static final double[] TABLE = new double[TABLE_SIZE];
  private static final double SCALE = TABLE_SIZE * 1.4426950408889634;
  /** ln2 / 64 in two parts: the high part has trailing zero bits, so k * HI is exact. */
  private static final double HI = 6.93147180369123816490e-01 / TABLE_SIZE;
  private static final double LO = 1.90821492927058770002e-10 / TABLE_SIZE;
  /** 1.5 * 2^52: adding it rounds to an integer, which then sits in the low bits. */
  private static final double SHIFTER = 0x1.8p52;

  static {
    for (int j = 0; j < TABLE_SIZE; j++) {
      TABLE[j] = StrictMath.pow(2, j / (double) TABLE_SIZE);
    }
  }

  private Exponentials() {}

  /** The exponential of {@code x}, which is at most 0 or NaN. */
  static double of(double x) {
    // A comparison, not Math.max: NaN passes through, and it is shorter on the critical path.
    double v = x < LOWEST ? LOWEST : x;
    double t = v * SCALE + SHIFTER;
    double k = t - SHIFTER;
    double r = v - k * HI - k * LO;
    // t's low bits hold k = 64m + j: j indexes the table, m (bias added) is 2^m's exponent field.
    long bits = Double.doubleToRawLongBits(t);
    double scale = TABLE[(int) bits & (TABLE_SIZE - 1)]
        * Double.longBitsToDouble(((bits >> TABLE_BITS) + 1023) << 52);
    double r2 = r * r;
    double p = (1.0 + r) + r2 * ((0.5 + r * (1.0 / 6)) + r2 * (1.0 / 24 + r * (1.0 / 120)));
    return scale * p;
  }
}
