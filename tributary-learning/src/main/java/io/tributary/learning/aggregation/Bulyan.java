package io.tributary.learning.aggregation;

import io.tributary.tensor.Tensor;
import io.tributary.tensor.TensorBuilder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.IntStream;

/**
 * Bulyan (El Mhamdi et al. 2018) with Krum selecting, as Flower's Bulyan strategy computes it:
 * Krum picks {@code theta = n - 2f} updates one by one, each from those left; each coordinate of
 * the result is the mean of the {@code beta = theta - 2f} picked values closest to the picked
 * updates' median. Needs {@code n > 4f + 2}.
 *
 * <p>Memory: it needs the whole round, so it holds every update at once, n x the model (100
 * clients x 1M float32: 400 MB), plus an n x n matrix of double distances (80 KB at n = 100),
 * computed once for all of Krum's picks, a coordinate-major block of n x 1024 doubles (800 KB)
 * and the result.
 *
 * @param f the number of Byzantine clients tolerated (Flower's {@code num_malicious_clients})
 */
public record Bulyan(int f) implements WholeRoundAggregator {
  /** @throws IllegalArgumentException when f is negative */
  public Bulyan {
    if (f < 0) {
      throw new IllegalArgumentException("Bulyan: num_malicious_clients must be >= 0, got " + f);
    }
  }

  @Override
  public String name() {
    return "bulyan";
  }

  /**
   * {@inheritDoc}
   *
   * @throws InsufficientUpdatesException unless n > 4f + 2
   */
  @Override
  public List<Tensor> aggregate(ClientUpdates updates) {
    if (updates.size() <= 4 * f + 2) {
      throw new InsufficientUpdatesException("Bulyan (f " + f + ")", "n > 4f + 2",
          updates.size());
    }
    int theta = updates.size() - 2 * f;
    int beta = theta - 2 * f;
    // The distance between two updates does not change as others are picked: computed once.
    double[][] d = Krum.squaredDistances(updates);
    List<Integer> left = new ArrayList<>(IntStream.range(0, updates.size()).boxed().toList());
    int[] picked = new int[theta];
    for (int k = 0; k < theta; k++) {
      int best = Krum.order(d, left.stream().mapToInt(Integer::intValue).toArray(), f)[0];
      picked[k] = left.remove(best);
    }
    ClientUpdates chosen = updates.select(picked);
    int m = chosen.size();
    List<Tensor> out = new ArrayList<>();
    double[] t = new double[m * CoordinateBlocks.BLOCK];
    double[] row = new double[CoordinateBlocks.BLOCK];
    double[] v = new double[m];
    double[] sorted = new double[m];
    for (int l = 0; l < chosen.layers(); l++) {
      TensorBuilder b = chosen.builder(l);
      long size = chosen.layerSize(l);
      for (long from = 0; from < size; from += CoordinateBlocks.BLOCK) {
        int len = (int) Math.min(CoordinateBlocks.BLOCK, size - from);
        CoordinateBlocks.transpose(chosen, l, from, len, row, t);
        for (int j = 0; j < len; j++) {
          System.arraycopy(t, j * m, v, 0, m);
          System.arraycopy(v, 0, sorted, 0, m);
          Arrays.sort(sorted);
          double med = CoordinateMedian.medianOfSorted(sorted, 0, m);
          b.setFromDouble(from + j, closestMean(v, sorted, med, beta));
        }
      }
      out.add(b.build());
    }
    return out;
  }

  /**
   * The mean of the {@code beta} values of {@code v} closest to {@code med}, summed in the order
   * of (distance to med, index in v), as a stable sort of the indices by distance gives them.
   * {@code sorted} is v sorted. The closest values are a window of {@code sorted} around med,
   * taken outwards from med; only when distinct values tie in distance does the order depend on
   * the indices, and then (but for two at the start, whose sum does not depend on the order)
   * the indices are sorted as that stable sort does.
   */
  private static double closestMean(double[] v, double[] sorted, double med, int beta) {
    int m = sorted.length;
    int r = 0;
    while (r < m && sorted[r] < med) {
      r++;
    }
    int l = r - 1;
    double s = 0;
    int k = 0;
    while (k < beta) {
      double dl = l >= 0 ? Math.abs(sorted[l] - med) : Double.POSITIVE_INFINITY;
      double dr = r < m ? Math.abs(sorted[r] - med) : Double.POSITIVE_INFINITY;
      double dmin = Math.min(dl, dr);
      // The values at distance dmin: a run going left from l and one going right from r.
      int nl = 0;
      while (l - nl >= 0 && Math.abs(sorted[l - nl] - med) == dmin) {
        nl++;
      }
      int nr = 0;
      while (r + nr < m && Math.abs(sorted[r + nr] - med) == dmin) {
        nr++;
      }
      double first = nl > 0 ? sorted[l] : sorted[r];
      boolean same = (nl == 0 || sorted[l - nl + 1] == first)
          && (nr == 0 || (sorted[r] == first && sorted[r + nr - 1] == first));
      if (same) {
        s += first;
        if (nl > 0) {
          l--;
        } else {
          r++;
        }
        k++;
      } else if (nl + nr == 2 && k == 0 && beta >= 2) {
        // 0 + x + y == 0 + y + x: both, in either order.
        double x = nl > 0 ? sorted[l] : sorted[r];
        double y = nl == 2 ? sorted[l - 1] : nr == 2 ? sorted[r + 1] : sorted[r];
        s = s + x + y;
        l -= nl;
        r += nr;
        k += 2;
      } else {
        return closestMeanByIndex(v, med, beta);
      }
    }
    return s / beta;
  }

  /** {@link #closestMean} by a stable sort of the indices by distance to med. */
  private static double closestMeanByIndex(double[] v, double med, int beta) {
    Integer[] idx = new Integer[v.length];
    for (int c = 0; c < v.length; c++) {
      idx[c] = c;
    }
    Arrays.sort(idx, Comparator.comparingDouble(c -> Math.abs(v[c] - med)));
    double s = 0;
    for (int k = 0; k < beta; k++) {
      s += v[idx[k]];
    }
    return s / beta;
  }
}
