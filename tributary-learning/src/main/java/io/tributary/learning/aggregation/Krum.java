package io.tributary.learning.aggregation;

import io.tributary.tensor.Tensor;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.IntStream;

/**
 * Krum and Multi-Krum (Blanchard et al. 2017, as Flower's Krum strategy computes them): each
 * update's score is its summed squared distance to its {@code n - f - 2} nearest others; Krum
 * takes the best update, Multi-Krum the example-weighted mean of the best {@code m}. Needs
 * {@code n > 2f + 2}.
 *
 * <p>Memory: it needs the whole round, so it holds every update at once, n x the model (100
 * clients x 1M float32: 400 MB), plus an n x n matrix of double distances (80 KB at n = 100),
 * computed once per round, and while computing it a block of n x 1024 doubles (800 KB).
 *
 * @param f the number of Byzantine clients tolerated (Flower's {@code num_malicious_clients})
 * @param m how many updates Multi-Krum averages (Flower's {@code num_clients_to_keep}); 0 is
 *     Krum
 */
public record Krum(int f, int m) implements WholeRoundAggregator {
  /** @throws IllegalArgumentException when f or m is negative */
  public Krum {
    if (f < 0 || m < 0) {
      throw new IllegalArgumentException("Krum: num_malicious_clients and num_clients_to_keep "
          + "must be >= 0, got " + f + " and " + m);
    }
  }

  @Override
  public String name() {
    return m == 0 ? "krum" : "multikrum";
  }

  /**
   * {@inheritDoc}
   *
   * @throws InsufficientUpdatesException unless {@code n > 2f + 2} and, for Multi-Krum,
   *     {@code m <= n}
   */
  @Override
  public List<Tensor> aggregate(ClientUpdates updates) {
    int n = updates.size();
    if (m > n) {
      throw new InsufficientUpdatesException("Multi-Krum (m " + m + ")", "m in [1, n]", n);
    }
    String rule = m == 0 ? "Krum" : "Multi-Krum";
    if (n <= 2 * f + 2) {
      throw new InsufficientUpdatesException(rule + " (f " + f + ")", "n > 2f + 2", n);
    }
    int[] order = order(squaredDistances(updates), IntStream.range(0, n).toArray(), f);
    if (m == 0) {
      return updates.client(order[0]);
    }
    return WeightedMean.of(updates.select(Arrays.copyOf(order, m)));
  }

  /**
   * Clients {@code among} (ascending indices into d) by ascending Krum score, ties by position;
   * the result holds positions in {@code among}.
   */
  static int[] order(double[][] d, int[] among, int f) {
    int n = among.length;
    int closest = Math.max(1, n - f - 2);
    double[] score = new double[n];
    double[] others = new double[n - 1];
    for (int a = 0; a < n; a++) {
      int k = 0;
      for (int b = 0; b < n; b++) {
        if (b != a) {
          others[k++] = d[among[a]][among[b]];
        }
      }
      Arrays.sort(others);
      for (int j = 0; j < Math.min(closest, others.length); j++) {
        score[a] += others[j];
      }
    }
    return IntStream.range(0, n).boxed()
        .sorted(Comparator.comparingDouble((Integer a) -> score[a]).thenComparing(a -> a))
        .mapToInt(Integer::intValue).toArray();
  }

  /**
   * The n x n squared distances between updates, each the sum over layers and elements, in
   * order, of the squared difference. Read a block of elements of every update at a time, and
   * four pairs at once, each pair with its own running sum (so each sum is added in the same
   * order as one pair alone would be).
   */
  static double[][] squaredDistances(ClientUpdates u) {
    int n = u.size();
    double[] s = new double[n * n];
    double[][] blk = new double[n][CoordinateBlocks.BLOCK];
    for (int l = 0; l < u.layers(); l++) {
      long size = u.layerSize(l);
      for (long from = 0; from < size; from += CoordinateBlocks.BLOCK) {
        int len = (int) Math.min(CoordinateBlocks.BLOCK, size - from);
        for (int c = 0; c < n; c++) {
          u.read(c, l, from, blk[c], 0, len);
        }
        for (int a = 0; a < n; a++) {
          double[] x = blk[a];
          int b = a + 1;
          for (; b + 3 < n; b += 4) {
            double[] y0 = blk[b];
            double[] y1 = blk[b + 1];
            double[] y2 = blk[b + 2];
            double[] y3 = blk[b + 3];
            double s0 = s[a * n + b];
            double s1 = s[a * n + b + 1];
            double s2 = s[a * n + b + 2];
            double s3 = s[a * n + b + 3];
            for (int j = 0; j < len; j++) {
              double xj = x[j];
              double e0 = xj - y0[j];
              double e1 = xj - y1[j];
              double e2 = xj - y2[j];
              double e3 = xj - y3[j];
              s0 += e0 * e0;
              s1 += e1 * e1;
              s2 += e2 * e2;
              s3 += e3 * e3;
            }
            s[a * n + b] = s0;
            s[a * n + b + 1] = s1;
            s[a * n + b + 2] = s2;
            s[a * n + b + 3] = s3;
          }
          for (; b < n; b++) {
            double[] y = blk[b];
            double s0 = s[a * n + b];
            for (int j = 0; j < len; j++) {
              double e = x[j] - y[j];
              s0 += e * e;
            }
            s[a * n + b] = s0;
          }
        }
      }
    }
    double[][] d = new double[n][n];
    for (int a = 0; a < n; a++) {
      for (int b = a + 1; b < n; b++) {
        d[a][b] = s[a * n + b];
        d[b][a] = s[a * n + b];
      }
    }
    return d;
  }
}
