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
 * <p>Memory: the mean streams (one accumulator per element); the others need every update of
 * the round at once, n x the model, plus for Krum and Bulyan an n x n distance matrix.
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

  private static List<Tensor> weighted(ClientUpdates u, double[] w, double total) {
    List<Tensor> out = new ArrayList<>();
    for (int l = 0; l < u.layers(); l++) {
      TensorBuilder b = u.builder(l);
      for (long i = 0; i < u.layerSize(l); i++) {
        double s = 0;
        for (int c = 0; c < u.size(); c++) {
          s += u.value(c, l, i) * w[c];
        }
        b.setFromDouble(i, s / total);
      }
      out.add(b.build());
    }
    return out;
  }

  /** The coordinate-wise median (the mean of the two middle values for an even count). */
  public static List<Tensor> median(ClientUpdates u) {
    return coordinatewise(u, AggregationRules::medianOfSorted);
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
    return coordinatewise(u, v -> {
      double s = 0;
      for (int i = cut; i < v.length - cut; i++) {
        s += v[i];
      }
      return s / (v.length - 2 * cut);
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
    List<Integer> left = new ArrayList<>(IntStream.range(0, u.size()).boxed().toList());
    int[] picked = new int[theta];
    for (int k = 0; k < theta; k++) {
      ClientUpdates rest = u.select(left.stream().mapToInt(Integer::intValue).toArray());
      int best = krumOrderUnchecked(rest, f)[0];
      picked[k] = left.remove(best);
    }
    ClientUpdates chosen = u.select(picked);
    List<Tensor> out = new ArrayList<>();
    for (int l = 0; l < chosen.layers(); l++) {
      TensorBuilder b = chosen.builder(l);
      double[] v = new double[chosen.size()];
      Integer[] idx = new Integer[chosen.size()];
      for (long i = 0; i < chosen.layerSize(l); i++) {
        for (int c = 0; c < v.length; c++) {
          v[c] = chosen.value(c, l, i);
          idx[c] = c;
        }
        double[] sorted = v.clone();
        Arrays.sort(sorted);
        double med = medianOfSorted(sorted);
        Arrays.sort(idx, Comparator.comparingDouble(c -> Math.abs(v[c] - med)));
        double s = 0;
        for (int k = 0; k < beta; k++) {
          s += v[idx[k]];
        }
        b.setFromDouble(i, s / beta);
      }
      out.add(b.build());
    }
    return out;
  }

  /** The median of sorted values: the middle one, or the mean of the two middle ones. */
  private static double medianOfSorted(double[] v) {
    int n = v.length;
    return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  }

  private static int[] krumOrder(ClientUpdates u, int f, String rule) {
    if (f < 0 || u.size() <= 2 * f + 2) {
      throw new InsufficientUpdatesException(rule + " (f " + f + ")", "n > 2f + 2", u.size());
    }
    return krumOrderUnchecked(u, f);
  }

  /** Clients by ascending Krum score (ties by index). */
  private static int[] krumOrderUnchecked(ClientUpdates u, int f) {
    int n = u.size();
    double[][] d = new double[n][n];
    for (int a = 0; a < n; a++) {
      for (int b = a + 1; b < n; b++) {
        double s = 0;
        for (int l = 0; l < u.layers(); l++) {
          for (long i = 0; i < u.layerSize(l); i++) {
            double x = u.value(a, l, i) - u.value(b, l, i);
            s += x * x;
          }
        }
        d[a][b] = s;
        d[b][a] = s;
      }
    }
    int closest = Math.max(1, n - f - 2);
    double[] score = new double[n];
    for (int a = 0; a < n; a++) {
      double[] others = new double[n - 1];
      int k = 0;
      for (int b = 0; b < n; b++) {
        if (b != a) {
          others[k++] = d[a][b];
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

  /** Applies {@code f} to each coordinate's sorted values across clients. */
  private static List<Tensor> coordinatewise(ClientUpdates u,
      java.util.function.ToDoubleFunction<double[]> f) {
    List<Tensor> out = new ArrayList<>();
    double[] v = new double[u.size()];
    for (int l = 0; l < u.layers(); l++) {
      TensorBuilder b = u.builder(l);
      for (long i = 0; i < u.layerSize(l); i++) {
        for (int c = 0; c < v.length; c++) {
          v[c] = u.value(c, l, i);
        }
        Arrays.sort(v);
        b.setFromDouble(i, f.applyAsDouble(v));
      }
      out.add(b.build());
    }
    return out;
  }
}
