package io.tributary.privacy;

import org.apache.commons.numbers.gamma.LogGamma;

/**
 * The Rényi differential privacy of one step of the sampled Gaussian mechanism: each record (a
 * client) is sampled, the sampled records' contributions, each of L2 sensitivity 1, are summed,
 * and Gaussian noise of standard deviation {@code sigma} (the noise multiplier) is added.
 *
 * <ul>
 *   <li><b>Poisson sampling</b> (each record independently with probability q; add-or-remove-one
 *       neighbours): the exact RDP of Mironov, Talwar and Zhang, "Rényi Differential Privacy of
 *       the Sampled Gaussian Mechanism" (2019): a finite binomial sum for integer orders, and for
 *       fractional orders the two series of their Section 3.3, split where the two components
 *       of the mixture are equal.
 *   <li><b>Fixed-size sampling</b> (a uniformly random subset of m of n records, q = m/n;
 *       replace-one neighbours): the general upper bound of Wang, Balle and Kasiviswanathan,
 *       "Subsampled Rényi Differential Privacy and Analytical Moments Accountant" (2019,
 *       Theorem 9) with the Gaussian's RDP {@code j / (2 sigma^2)}, never above the unsampled
 *       mechanism's RDP; a fractional order takes the bound of the next integer order, which
 *       is larger (RDP does not decrease with the order).
 * </ul>
 */
public final class SampledGaussian {
  /** Terms this far (in log space) below the running sum no longer change it. */
  private static final double NEGLIGIBLE = -40;
  /** The most series terms for one fractional order. */
  private static final int MAX_TERMS = 100_000;

  private SampledGaussian() {}

  /**
   * The RDP at {@code order} of one Poisson-sampled Gaussian step.
   *
   * @param q the sampling probability, in [0, 1]
   * @param sigma the noise multiplier, >= 0 (0: no privacy, infinite RDP)
   * @param order the Rényi order, > 1
   * @throws IllegalArgumentException when an argument is out of range or not finite
   */
  public static double poissonRdp(double q, double sigma, double order) {
    check(q, sigma, order);
    if (q == 0) {
      return 0;
    }
    if (sigma == 0) {
      return Double.POSITIVE_INFINITY;
    }
    if (q == 1) {
      return order / (2 * sigma * sigma);
    }
    if (Double.isInfinite(order)) {
      return Double.POSITIVE_INFINITY;
    }
    double logA = order == Math.rint(order) ? logAInteger(q, sigma, (long) order)
        : logAFractional(q, sigma, order);
    return logA / (order - 1);
  }

  /**
   * The RDP at {@code order} of one fixed-size-sampled Gaussian step (an upper bound).
   *
   * @param q the sampled fraction m/n, in [0, 1]
   * @param sigma the noise multiplier, >= 0
   * @param order the Rényi order, > 1
   * @throws IllegalArgumentException when an argument is out of range or not finite
   */
  public static double fixedSizeRdp(double q, double sigma, double order) {
    check(q, sigma, order);
    if (q == 0) {
      return 0;
    }
    if (sigma == 0 || Double.isInfinite(order)) {
      return Double.POSITIVE_INFINITY;
    }
    long alpha = (long) Math.ceil(order);
    double unsampled = alpha / (2 * sigma * sigma);
    double logQ = Math.log(q);
    double eps2 = 2 / (2 * sigma * sigma);
    double logA = 0; // the 1 of the bound
    double second = Math.min(Math.log(4) + Math.log(Math.expm1(eps2)), eps2 + Math.log(2));
    logA = LogMath.add(logA, 2 * logQ + logBinomial(alpha, 2) + second);
    for (long j = 3; j <= alpha; j++) {
      double epsJ = j / (2 * sigma * sigma);
      logA = LogMath.add(logA, Math.log(2) + j * logQ + logBinomial(alpha, j) + (j - 1) * epsJ);
    }
    return Math.min(logA / (alpha - 1), unsampled);
  }

  private static void check(double q, double sigma, double order) {
    if (!(q >= 0 && q <= 1)) {
      throw new IllegalArgumentException("sampling rate must be in [0, 1], got " + q);
    }
    if (!(sigma >= 0) || Double.isInfinite(sigma)) {
      throw new IllegalArgumentException("noise multiplier must be finite and >= 0, got "
          + sigma);
    }
    if (!(order > 1)) {
      throw new IllegalArgumentException("Rényi order must be > 1, got " + order);
    }
  }

  /** log A_alpha for an integer order: a binomial sum over the number of sampled copies. */
  private static double logAInteger(double q, double sigma, long alpha) {
    double logA = Double.NEGATIVE_INFINITY;
    double logQ = Math.log(q);
    double log1mQ = Math.log1p(-q);
    for (long k = 0; k <= alpha; k++) {
      double term = logBinomial(alpha, k) + k * logQ + (alpha - k) * log1mQ
          + (k * (double) k - k) / (2 * sigma * sigma);
      logA = LogMath.add(logA, term);
    }
    return logA;
  }

  /**
   * log A_alpha for a fractional order: the integral of the mixture ratio's alpha-th power split
   * at z0, where both components are equal; on each side the power expands into a convergent
   * binomial series whose terms carry erfc of the distance to z0.
   */
  private static double logAFractional(double q, double sigma, double alpha) {
    double s2 = 2 * sigma * sigma;
    double z0 = sigma * sigma * Math.log(1 / q - 1) + 0.5;
    double logQ = Math.log(q);
    double log1mQ = Math.log1p(-q);
    double sqrt2Sigma = Math.sqrt(2) * sigma;
    double positive = Double.NEGATIVE_INFINITY;
    double negative = Double.NEGATIVE_INFINITY;
    double logCoef = 0; // log |C(alpha, i)|
    boolean coefPositive = true;
    for (int i = 0; i < MAX_TERMS; i++) {
      double j = alpha - i;
      double t0 = logCoef + i * logQ + j * log1mQ;
      double t1 = logCoef + j * logQ + i * log1mQ;
      double e0 = Math.log(0.5) + LogMath.logErfc((i - z0) / sqrt2Sigma);
      double e1 = Math.log(0.5) + LogMath.logErfc((z0 - j) / sqrt2Sigma);
      double s0 = t0 + (i * (double) i - i) / s2 + e0;
      double s1 = t1 + (j * j - j) / s2 + e1;
      double both = LogMath.add(s0, s1);
      if (coefPositive) {
        positive = LogMath.add(positive, both);
      } else {
        negative = LogMath.add(negative, both);
      }
      double sum = LogMath.add(positive, negative);
      if (i > alpha && both - sum < NEGLIGIBLE) {
        return LogMath.sub(positive, negative);
      }
      // C(alpha, i+1) = C(alpha, i) * (alpha - i) / (i + 1)
      double factor = (alpha - i) / (i + 1);
      if (factor < 0) {
        coefPositive = !coefPositive;
      }
      logCoef += Math.log(Math.abs(factor));
    }
    throw new ArithmeticException("the RDP series for order " + alpha + ", q " + q + ", sigma "
        + sigma + " did not converge in " + MAX_TERMS + " terms");
  }

  /** log C(n, k) for integers 0 <= k <= n. */
  static double logBinomial(long n, long k) {
    return LogGamma.value(n + 1.0) - LogGamma.value(k + 1.0) - LogGamma.value(n - k + 1.0);
  }
}
