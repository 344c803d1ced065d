package io.tributary.privacy;

import java.util.Arrays;

/**
 * Tracks the privacy a run spends, in Rényi differential privacy: each round of the sampled
 * Gaussian mechanism adds its RDP at every order (RDP composes by addition, Mironov 2017), and
 * {@link #epsilon} converts the total to an (epsilon, delta) guarantee at the best order.
 *
 * <p>The conversion is Proposition 12 of Canonne, Kamath and Steinke, "The Discrete Gaussian for
 * Differential Privacy" (2020), as the accounting libraries of TensorFlow Privacy and Opacus use
 * it: {@code epsilon = rdp(a) + log1p(-1/a) - (log(delta) + log(a)) / (a - 1)}, minimised over
 * the orders a, never below 0.
 *
 * <p>Not thread-safe; one accountant per run.
 */
public final class RdpAccountant {

  private final double[] orders;
  private final double[] rdp;
  private long steps;

  /** An accountant at {@link #defaultOrders()}. */
  public RdpAccountant() {
    this(defaultOrders());
  }

  /**
   * An accountant at {@code orders}.
   *
   * @throws IllegalArgumentException when there is no order or one is not above 1
   */
  public RdpAccountant(double... orders) {
    if (orders.length == 0) {
      throw new IllegalArgumentException("an RDP accountant needs at least one order");
    }
    for (double a : orders) {
      if (!(a > 1)) {
        throw new IllegalArgumentException("Rényi orders must be > 1, got " + a);
      }
    }
    this.orders = orders.clone();
    this.rdp = new double[orders.length];
  }

  /**
   * Adds {@code count} steps of the sampled Gaussian mechanism.
   *
   * @param sampling how each step's participants are drawn
   * @param q the sampling rate (Poisson) or the sampled fraction m/n (fixed size), in [0, 1]
   * @param noiseMultiplier the noise's standard deviation over the sensitivity, >= 0
   * @param count the number of steps, >= 0
   * @throws IllegalArgumentException when an argument is out of range
   */
  public void compose(Sampling sampling, double q, double noiseMultiplier, long count) {
    if (count < 0) {
      throw new IllegalArgumentException("step count must be >= 0, got " + count);
    }
    double[] step = new double[orders.length];
    for (int i = 0; i < orders.length; i++) {
      step[i] = switch (sampling) {
        case POISSON -> SampledGaussian.poissonRdp(q, noiseMultiplier, orders[i]);
        case FIXED_SIZE -> SampledGaussian.fixedSizeRdp(q, noiseMultiplier, orders[i]);
      };
    }
    for (int i = 0; i < orders.length; i++) {
      rdp[i] += step[i] == 0 ? 0 : step[i] * count;
    }
    steps += count;
  }

  /** The steps composed so far. */
  public long steps() {
    return steps;
  }

  /** The orders. */
  public double[] orders() {
    return orders.clone();
  }

  /** The total RDP at each order, in the order of {@link #orders()}. */
  public double[] rdp() {
    return rdp.clone();
  }

  /**
   * The (epsilon, delta) guarantee of everything composed so far.
   *
   * @param delta in (0, 1)
   * @throws IllegalArgumentException when delta is out of range
   */
  public PrivacySpent epsilon(double delta) {
    return epsilon(orders, rdp, delta);
  }

  /**
   * The (epsilon, delta) guarantee of RDP values {@code rdp} at {@code orders}.
   *
   * @throws IllegalArgumentException when delta is not in (0, 1) or the arrays differ in length
   */
  public static PrivacySpent epsilon(double[] orders, double[] rdp, double delta) {
    if (!(delta > 0 && delta < 1)) {
      throw new IllegalArgumentException("delta must be in (0, 1), got " + delta);
    }
    if (orders.length != rdp.length) {
      throw new IllegalArgumentException(orders.length + " orders but " + rdp.length
          + " RDP values");
    }
    double best = Double.POSITIVE_INFINITY;
    double at = Double.NaN;
    for (int i = 0; i < orders.length; i++) {
      double a = orders[i];
      if (Double.isInfinite(rdp[i]) || Double.isInfinite(a)) {
        continue;
      }
      double eps = rdp[i] + Math.log1p(-1 / a) - (Math.log(delta) + Math.log(a)) / (a - 1);
      if (eps < best) {
        best = eps;
        at = a;
      }
    }
    return new PrivacySpent(Math.max(0, best), delta, at);
  }

  /** The largest noise multiplier {@link #noiseMultiplierFor} tries. */
  public static final double MAX_NOISE_MULTIPLIER = 1e6;

  /**
   * The smallest noise multiplier (to a relative 1e-9) at which {@code steps} steps of the
   * sampled Gaussian mechanism at sampling rate {@code q} spend at most {@code targetEpsilon} at
   * {@code delta}, found by bisection at the default orders: epsilon falls as the noise grows.
   *
   * @throws IllegalArgumentException when an argument is out of range, or when no noise
   *     multiplier up to {@link #MAX_NOISE_MULTIPLIER} reaches the target
   */
  public static double noiseMultiplierFor(Sampling sampling, double q, long steps, double delta,
      double targetEpsilon) {
    if (!(targetEpsilon > 0) || Double.isInfinite(targetEpsilon)) {
      throw new IllegalArgumentException("the target epsilon must be positive and finite, got "
          + targetEpsilon);
    }
    if (!(q > 0 && q <= 1)) {
      throw new IllegalArgumentException("the sampling rate must be in (0, 1], got " + q);
    }
    if (steps < 1) {
      throw new IllegalArgumentException("the steps must be at least 1, got " + steps);
    }
    double hi = 1;
    while (spent(sampling, q, steps, delta, hi) > targetEpsilon) {
      hi *= 2;
      if (hi > MAX_NOISE_MULTIPLIER) {
        throw new IllegalArgumentException("no noise multiplier up to " + MAX_NOISE_MULTIPLIER
            + " spends at most epsilon " + targetEpsilon + " in " + steps + " steps at q = " + q
            + " and delta " + delta);
      }
    }
    double lo = hi == 1 ? 0 : hi / 2;
    while (hi - lo > 1e-9 * hi) {
      double mid = (lo + hi) / 2;
      if (spent(sampling, q, steps, delta, mid) > targetEpsilon) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    return hi;
  }

  private static double spent(Sampling sampling, double q, long steps, double delta, double z) {
    RdpAccountant a = new RdpAccountant();
    a.compose(sampling, q, z, steps);
    return a.epsilon(delta).epsilon();
  }

  /**
   * The default orders: 1.1 to 10.9 in steps of 0.1, where small epsilons are read, the integers
   * 12 to 63, and 128, 256, 512 and 1024.
   */
  public static double[] defaultOrders() {
    double[] out = new double[99 + 52 + 4];
    int n = 0;
    for (int x = 1; x <= 99; x++) {
      out[n++] = 1 + x / 10.0;
    }
    for (int a = 12; a <= 63; a++) {
      out[n++] = a;
    }
    for (int a : new int[] {128, 256, 512, 1024}) {
      out[n++] = a;
    }
    return Arrays.copyOf(out, n);
  }
}
