package io.tributary.privacy;

import org.apache.commons.numbers.gamma.Erfc;

/** Sums, differences and special functions in log space, where the RDP terms live. */
final class LogMath {
  private LogMath() {}

  /** log(e^a + e^b), exact at infinities. */
  static double add(double a, double b) {
    double hi = Math.max(a, b);
    double lo = Math.min(a, b);
    if (hi == Double.NEGATIVE_INFINITY) {
      return hi;
    }
    if (hi == Double.POSITIVE_INFINITY) {
      return hi;
    }
    return hi + Math.log1p(Math.exp(lo - hi));
  }

  /**
   * log(e^a - e^b) for a >= b.
   *
   * @throws IllegalArgumentException when {@code a < b} (a negative result)
   */
  static double sub(double a, double b) {
    if (b == Double.NEGATIVE_INFINITY) {
      return a;
    }
    if (a < b) {
      throw new IllegalArgumentException("log of a negative difference");
    }
    if (a == b) {
      return Double.NEGATIVE_INFINITY;
    }
    return a + Math.log(-Math.expm1(b - a));
  }

  /**
   * log(erfc(x)), accurate where erfc itself underflows (x beyond about 26): there the
   * asymptotic series of erfc is used.
   */
  static double logErfc(double x) {
    if (x < 20) {
      return Math.log(Erfc.value(x));
    }
    // erfc(x) = e^{-x^2} / (x sqrt(pi)) * (1 - 1/(2x^2) + 3/(4x^4) - 15/(8x^6) + ...)
    double r = 1 / (x * x);
    double series = 1 - r / 2 + 3 * r * r / 4 - 15 * r * r * r / 8 + 105 * r * r * r * r / 16;
    return -x * x - Math.log(x) - 0.5 * Math.log(Math.PI) + Math.log(series);
  }
}
