package io.tributary.learning.aggregation;

import io.tributary.tensor.Tensor;
import io.tributary.tensor.TensorBuilder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.IntStream;

/**
 * How a round's client updates become one, by the formulas of Flower's strategies
 * ({@code flwr/server/strategy/aggregate.py}): the example-weighted mean (FedAvg), the
 * coordinate-wise median (FedMedian), the trimmed mean (FedTrimmedAvg), Krum and Multi-Krum, and
 * Bulyan. Arithmetic is in double; results take each layer's dtype.
 *
 * <p>Memory: the means' arithmetic streams over the clients (one block of accumulators), and
 * their federated aggregators ({@link WeightedMean}, {@link UnweightedMean}) use the runtime's
 * streaming intrinsics, so a round holds one model-sized accumulator whatever the number of
 * clients. The median, the trimmed mean, Krum, Multi-Krum and Bulyan need every update of the
 * round at once: n x the model (100 clients x 1M float32: 400 MB), plus a block of n x 1024
 * doubles (800 KB at n = 100) and the result; Krum, Multi-Krum and Bulyan add an n x n distance
 * matrix of doubles (80 KB at n = 100), computed once per round.
 */
public final class AggregationRules {
  private AggregationRules() {}

  /**
   * The example-weighted mean, {@code sum(n_i u_i) / sum(n_i)}.
   *
   * @throws IllegalArgumentException when every client reports 0 examples
   */
  public static List<Tensor> weightedMean(ClientUpdates u) {
    double total = 0;
    for (int c = 0; c < u.size(); c++) {
      total += u.examples(c);
    }
    if (total == 0) {
      throw new IllegalArgumentException("weighted mean: every client reports 0 examples");
    }
    double[] w = new double[u.size()];
    for (int c = 0; c < u.size(); c++) {
      w[c] = u.examples(c);
    }
    return weighted(u, w, total);
  }

  /** The unweighted mean. */
  public static List<Tensor> mean(ClientUpdates u) {
    double[] w = new double[u.size()];
    Arrays.fill(w, 1);
    return weighted(u, w, u.size());
  }

  /**
   * Elements per block: a block of every client's values (n x BLOCK doubles) stays in cache while
   * it is combined.
   */
  private static final int BLOCK = 1024;

  /**
   * {@code sum_c w[c] u_c / total}, element by element in client order, one block of elements
   * at a time: each client's block is read once, and the accumulator is one block.
   */
  private static List<Tensor> weighted(ClientUpdates u, double[] w, double total) {
    List<Tensor> out = new ArrayList<>();
    double[] acc = new double[BLOCK];
    double[] v = new double[BLOCK];
    for (int l = 0; l < u.layers(); l++) {
      TensorBuilder b = u.builder(l);
      long size = u.layerSize(l);
      for (long from = 0; from < size; from += BLOCK) {
        int len = (int) Math.min(BLOCK, size - from);
        Arrays.fill(acc, 0, len, 0);
        for (int c = 0; c < u.size(); c++) {
          u.read(c, l, from, v, 0, len);
          double wc = w[c];
          for (int j = 0; j < len; j++) {
            acc[j] += v[j] * wc;
          }
        }
        for (int j = 0; j < len; j++) {
          b.setFromDouble(from + j, acc[j] / total);
        }
      }
      out.add(b.build());
    }
    return out;
  }

  /** The coordinate-wise median (the mean of the two middle values for an even count). */
  public static List<Tensor> median(ClientUpdates u) {
    return coordinatewise(u, AggregationRules::median);
  }

  /**
   * The coordinate-wise trimmed mean: the mean of each coordinate's values after cutting
   * {@code floor(beta n)} from each end (scipy's {@code trim_mean}, as Flower uses it).
   *
   * @throws IllegalArgumentException when beta is not in [0, 0.5) or cuts every value
   */
  public static List<Tensor> trimmedMean(ClientUpdates u, double beta) {
    if (!(beta >= 0 && beta < 0.5)) {
      throw new IllegalArgumentException("trimmed mean: beta must be in [0, 0.5), got " + beta);
    }
    int cut = (int) (beta * u.size());
    if (cut >= u.size() - cut) {
      throw new InsufficientUpdatesException("trimmed mean (beta " + beta + ")",
          "more than 2 floor(beta n)", u.size());
    }
    return coordinatewise(u, (v, at, n) -> {
      Arrays.sort(v, at, at + n);
      double s = 0;
      for (int i = at + cut; i < at + n - cut; i++) {
        s += v[i];
      }
      return s / (n - 2 * cut);
    });
  }

  /**
   * Krum: the one update whose summed squared distance to its {@code n - f - 2} nearest others
   * is smallest.
   *
   * @throws InsufficientUpdatesException unless n > 2f + 2
   */
  public static List<Tensor> krum(ClientUpdates u, int f) {
    return u.client(krumOrder(u, f, "Krum")[0]);
  }

  /**
   * Multi-Krum: the example-weighted mean of the {@code m} updates with the smallest Krum scores.
   *
   * @throws InsufficientUpdatesException unless n > 2f + 2 and 1 <= m <= n
   */
  public static List<Tensor> multiKrum(ClientUpdates u, int f, int m) {
    if (m < 1 || m > u.size()) {
      throw new InsufficientUpdatesException("Multi-Krum (m " + m + ")", "m in [1, n]",
          u.size());
    }
    int[] order = krumOrder(u, f, "Multi-Krum");
    return weightedMean(u.select(Arrays.copyOf(order, m)));
  }

  /**
   * Bulyan (El Mhamdi et al. 2018) with Krum as its selection rule: Krum picks
   * {@code theta = n - 2f} updates one by one, each from those left; each coordinate of the
   * result is the mean of the {@code beta = theta - 2f} picked values closest to the picked
   * updates' median.
   *
   * @throws InsufficientUpdatesException unless n > 4f + 2
   */
  public static List<Tensor> bulyan(ClientUpdates u, int f) {
    if (f < 0 || u.size() <= 4 * f + 2) {
      throw new InsufficientUpdatesException("Bulyan (f " + f + ")", "n > 4f + 2", u.size());
    }
    int theta = u.size() - 2 * f;
    int beta = theta - 2 * f;
    // The distance between two updates does not change as others are picked: computed once.
    double[][] d = squaredDistances(u);
    List<Integer> left = new ArrayList<>(IntStream.range(0, u.size()).boxed().toList());
    int[] picked = new int[theta];
    for (int k = 0; k < theta; k++) {
      int best = krumOrder(d, left.stream().mapToInt(Integer::intValue).toArray(), f)[0];
      picked[k] = left.remove(best);
    }
    ClientUpdates chosen = u.select(picked);
    int m = chosen.size();
    List<Tensor> out = new ArrayList<>();
    double[] t = new double[m * BLOCK];
    double[] row = new double[BLOCK];
    double[] v = new double[m];
    double[] sorted = new double[m];
    for (int l = 0; l < chosen.layers(); l++) {
      TensorBuilder b = chosen.builder(l);
      long size = chosen.layerSize(l);
      for (long from = 0; from < size; from += BLOCK) {
        int len = (int) Math.min(BLOCK, size - from);
        transpose(chosen, l, from, len, row, t);
        for (int j = 0; j < len; j++) {
          System.arraycopy(t, j * m, v, 0, m);
          System.arraycopy(v, 0, sorted, 0, m);
          Arrays.sort(sorted);
          double med = medianOfSorted(sorted, 0, m);
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

  /**
   * The median of the sorted values {@code v[at..at + n)}: the middle one, or the mean of the
   * two middle ones.
   */
  private static double medianOfSorted(double[] v, int at, int n) {
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

  private static int[] krumOrder(ClientUpdates u, int f, String rule) {
    if (f < 0 || u.size() <= 2 * f + 2) {
      throw new InsufficientUpdatesException(rule + " (f " + f + ")", "n > 2f + 2", u.size());
    }
    return krumOrder(squaredDistances(u), IntStream.range(0, u.size()).toArray(), f);
  }

  /**
   * Clients {@code among} (ascending indices into d) by ascending Krum score, ties by position;
   * the result holds positions in {@code among}.
   */
  private static int[] krumOrder(double[][] d, int[] among, int f) {
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
  private static double[][] squaredDistances(ClientUpdates u) {
    int n = u.size();
    double[] s = new double[n * n];
    double[][] blk = new double[n][BLOCK];
    for (int l = 0; l < u.layers(); l++) {
      long size = u.layerSize(l);
      for (long from = 0; from < size; from += BLOCK) {
        int len = (int) Math.min(BLOCK, size - from);
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

  /** Values of one coordinate across clients: the rule of {@link #coordinatewise}. */
  private interface Coordinate {
    /** The result from the values {@code v[at..at + n)}, in client order; may reorder them. */
    double apply(double[] v, int at, int n);
  }

  /**
   * Applies {@code f} to each coordinate's values across clients, one block of
   * coordinates at a time: each client's block is read once into a coordinate-major block.
   */
  private static List<Tensor> coordinatewise(ClientUpdates u, Coordinate f) {
    List<Tensor> out = new ArrayList<>();
    int n = u.size();
    double[] t = new double[n * BLOCK];
    double[] row = new double[BLOCK];
    for (int l = 0; l < u.layers(); l++) {
      TensorBuilder b = u.builder(l);
      long size = u.layerSize(l);
      for (long from = 0; from < size; from += BLOCK) {
        int len = (int) Math.min(BLOCK, size - from);
        transpose(u, l, from, len, row, t);
        for (int j = 0; j < len; j++) {
          b.setFromDouble(from + j, f.apply(t, j * n, n));
        }
      }
      out.add(b.build());
    }
    return out;
  }

  /**
   * Elements {@code [from, from + len)} of layer {@code l} of every client into {@code t},
   * coordinate-major: {@code t[j * n + c]} is client c's element {@code from + j}.
   */
  private static void transpose(ClientUpdates u, int l, long from, int len, double[] row,
      double[] t) {
    int n = u.size();
    for (int c = 0; c < n; c++) {
      u.read(c, l, from, row, 0, len);
      for (int j = 0; j < len; j++) {
        t[j * n + c] = row[j];
      }
    }
  }
}
