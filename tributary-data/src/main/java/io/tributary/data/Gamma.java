package io.tributary.data;

import java.util.SplittableRandom;

/** Gamma and Dirichlet draws (Marsaglia and Tsang's method), worked in log space. */
final class Gamma {
  private Gamma() {}

  /**
   * The log of a Gamma(shape, 1) draw. Shapes below 1 use Gamma(shape + 1) * U^(1/shape); the log
   * form keeps tiny shapes, whose draws underflow a double, distinguishable.
   */
  static double logGamma(double shape, SplittableRandom random) {
    if (shape < 1) {
      double u = 1.0 - random.nextDouble(); // in (0, 1], so log(u) is finite
      return logGamma(shape + 1, random) + Math.log(u) / shape;
    }
    double d = shape - 1.0 / 3.0;
    double c = 1.0 / Math.sqrt(9.0 * d);
    while (true) {
      double x = random.nextGaussian();
      double v = 1.0 + c * x;
      if (v <= 0) {
        continue;
      }
      v = v * v * v;
      double u = 1.0 - random.nextDouble();
      if (Math.log(u) < 0.5 * x * x + d - d * v + d * Math.log(v)) {
        return Math.log(d * v);
      }
    }
  }

  /** A draw from the symmetric Dirichlet distribution Dir(alpha, ..., alpha) of dimension k. */
  static double[] symmetricDirichlet(double alpha, int k, SplittableRandom random) {
    double[] logs = new double[k];
    double max = Double.NEGATIVE_INFINITY;
    for (int i = 0; i < k; i++) {
      logs[i] = logGamma(alpha, random);
      max = Math.max(max, logs[i]);
    }
    double sum = 0;
    double[] p = new double[k];
    for (int i = 0; i < k; i++) {
      p[i] = Math.exp(logs[i] - max);
      sum += p[i];
    }
    for (int i = 0; i < k; i++) {
      p[i] /= sum;
    }
    return p;
  }
}
