package io.tributary.learning.aggregation;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.tensor.DType;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.TensorBuilder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The blocked and selection-based median and trimmed mean give, bit for bit, what a sort of
 * each coordinate's values gives, on values full of ties and signed zeros.
 */
class CoordinatewiseRulesTest {
  private static final double[] TIED = {-0.0, 0.0, 1, -1, 0.5, -0.5, 2};

  /** {@code n} clients, one float64 layer of 2500 elements (more than one block) from TIED. */
  private static ClientUpdates tied(int n, long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    List<List<Tensor>> updates = new ArrayList<>();
    long[] examples = new long[n];
    for (int c = 0; c < n; c++) {
      TensorBuilder b = TensorBuilder.allocate(DType.FLOAT64, Shape.of(2500));
      for (long i = 0; i < 2500; i++) {
        b.setDouble(i, TIED[rnd.nextInt(TIED.length)]);
      }
      updates.add(List.of(b.build()));
      examples[c] = 1;
    }
    return new ClientUpdates(updates, examples);
  }

  private static double[] column(ClientUpdates u, long i) {
    double[] v = new double[u.size()];
    for (int c = 0; c < v.length; c++) {
      v[c] = u.value(c, 0, i);
    }
    return v;
  }

  private static void assertBits(Tensor got, long i, double want) {
    assertThat(Double.doubleToRawLongBits(got.getDouble(i)))
        .as("element %d: got %s, want %s", i, got.getDouble(i), want)
        .isEqualTo(Double.doubleToRawLongBits(want));
  }

  @Test
  void median_tiesAndSignedZeros_equalsMedianOfSortedValues() {
    for (int n : new int[] {5, 6, 40, 41}) {
      ClientUpdates u = tied(n, n);
      Tensor got = new CoordinateMedian().aggregate(u).get(0);
      for (long i = 0; i < 2500; i++) {
        double[] v = column(u, i);
        Arrays.sort(v);
        assertBits(got, i, n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2);
      }
    }
  }

  @Test
  void trimmedMean_ties_equalsSumOfSortedMiddle() {
    int n = 20;
    ClientUpdates u = tied(n, 7);
    Tensor got = new TrimmedMean(0.2).aggregate(u).get(0);
    for (long i = 0; i < 2500; i++) {
      double[] v = column(u, i);
      Arrays.sort(v);
      double s = 0;
      for (int k = 4; k < n - 4; k++) {
        s += v[k];
      }
      assertBits(got, i, s / (n - 8));
    }
  }
}
