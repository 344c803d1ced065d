package io.tributary.tensor;

/**
 * Consecutive rank-one differences of one start in a sum ({@link TensorMath#addScaled(
 * java.util.List, double[], double[], long)}), added in one sweep per tile: a batch of clients'
 * one-step updates of the same model, each {@link RankOneFactors#add}'s bits. Per element the
 * differences are added in their order, as the tiled sum adds them one after another, so the sums
 * are the same bits; what changes is that each vector of sums and of the start is read and
 * written once for the whole run instead of once per difference ({@link VectorRankOne#addRun}).
 */
final class RankOneRun {
  private final RankOneFactors[] factors;
  private final VectorRankOne[] kernels;
  private final float[] alpha;
  private final double[] w;

  /**
   * A run of {@code factors} (at least two, each {@link RankOneFactors#runsWith} the first) with
   * their weights.
   */
  RankOneRun(RankOneFactors[] factors, double[] w) {
    this.factors = factors;
    this.w = w;
    this.kernels = new VectorRankOne[factors.length];
    this.alpha = new float[factors.length];
    for (int c = 0; c < factors.length; c++) {
      kernels[c] = factors[c].vector();
      alpha[c] = factors[c].alpha();
    }
  }

  /** The differences in the run. */
  int size() {
    return factors.length;
  }

  /**
   * {@code acc[to + q] += w[c] * d_c[at + q]} for {@code q < len} and each difference {@code c}
   * in order; {@code scratch} holds at least {@code len} floats.
   */
  void add(int at, int len, double[] acc, int to, float[] scratch) {
    int done = VectorRankOne.addRun(kernels, factors[0].start(), alpha, at, len, w, acc, to);
    // What the vectors left (a few elements at the slice's or the rows' end), in order per element.
    for (int c = 0; c < factors.length; c++) {
      factors[c].addRest(at, len, done, w[c], acc, to, scratch);
    }
  }
}
