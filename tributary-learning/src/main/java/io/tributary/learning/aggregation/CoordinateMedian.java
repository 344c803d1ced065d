package io.tributary.learning.aggregation;

import io.tributary.tensor.Tensor;
import java.util.Arrays;
import java.util.List;

/**
 * The coordinate-wise median of the updates (Flower's FedMedian), unweighted; robust to a
 * minority of arbitrary updates. Each coordinate's median is the middle value, or the mean of the
 * two middle ones for an even count.
 *
 * <p>Memory: it needs the whole round, so it holds every update at once, n x the model (100
 * clients x 1M float32: 400 MB), plus a coordinate-major block of n x 1024 doubles (800 KB at
 * n = 100) and the result.
 */
public record CoordinateMedian() implements WholeRoundAggregator {
  @Override
  public String name() {
    return "median";
  }

  @Override
  public List<Tensor> aggregate(ClientUpdates updates) {
    return CoordinateBlocks.coordinatewise(updates, CoordinateMedian::median);
  }

  /**
   * The median of the sorted values {@code v[at..at + n)}: the middle one, or the mean of the
   * two middle ones.
   */
  static double medianOfSorted(double[] v, int at, int n) {
    return n % 2 == 1 ? v[at + n / 2] : (v[at + n / 2 - 1] + v[at + n / 2]) / 2;
  }

  /**
   * The median of {@code v[at..at + n)}, which it reorders: what {@link #medianOfSorted} gives
   * after a sort, found by selection. Selection orders by {@code <}, under which -0.0 and 0.0
   * are equal where the sort puts -0.0 first, so a median with a zero is taken after a sort.
   */
  private static double median(double[] v, int at, int n) {
    int k = at + n / 2;
    select(v, at, at + n - 1, k);
    double hi = v[k];
    double lo = hi;
    if (n % 2 == 0) {
      lo = v[at];
      for (int i = at + 1; i < k; i++) {
        lo = Math.max(lo, v[i]);
      }
    }
    if (lo == 0 || hi == 0) {
      Arrays.sort(v, at, at + n);
      return medianOfSorted(v, at, n);
    }
    return n % 2 == 1 ? hi : (lo + hi) / 2;
  }

  /**
   * Reorders {@code v[lo..hi]} (inclusive) so that {@code v[k]} holds the value a sort would put
   * there, with no greater value before it and no smaller one after (Hoare's selection).
   */
  private static void select(double[] v, int lo, int hi, int k) {
    while (hi - lo >= 16) {
      int mid = (lo + hi) >>> 1;
      double a = v[lo];
      double b = v[mid];
      double c = v[hi];
      double p = a < b ? (b < c ? b : Math.max(a, c)) : (a < c ? a : Math.max(b, c));
      int i = lo;
      int j = hi;
      while (i <= j) {
        while (v[i] < p) {
          i++;
        }
        while (v[j] > p) {
          j--;
        }
        if (i <= j) {
          double t = v[i];
          v[i] = v[j];
          v[j] = t;
          i++;
          j--;
        }
      }
      if (k <= j) {
        hi = j;
      } else if (k >= i) {
        lo = i;
      } else {
        return;
      }
    }
    for (int i = lo + 1; i <= hi; i++) {
      double x = v[i];
      int j = i - 1;
      while (j >= lo && v[j] > x) {
        v[j + 1] = v[j];
        j--;
      }
      v[j + 1] = x;
    }
  }
}
