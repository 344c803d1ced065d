package io.tributary.tensor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class VectorRankOneTest {
  private static final boolean VECTOR_PRESENT =
      ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent();

  /**
   * Gaussians with the awkward values spread among them: signed zeros, subnormals, values near
   * the float range's ends, infinities and NaN.
   */
  private static float[] values(int n, long seed, boolean awkward) {
    float[] specials = {0f, -0f, Float.MIN_VALUE, -Float.MIN_NORMAL / 3, 3e38f, -2e38f,
        Float.POSITIVE_INFINITY, Float.NaN, 1e-30f};
    SplittableRandom rnd = new SplittableRandom(seed);
    float[] a = new float[n];
    for (int i = 0; i < n; i++) {
      a[i] = awkward && rnd.nextInt(7) == 0 ? specials[rnd.nextInt(specials.length)]
          : (float) rnd.nextGaussian();
    }
    return a;
  }

  private static double[] added(RankOneFactors f, int at, int len, double w, double[] acc) {
    double[] out = acc.clone();
    f.add(at, len, w, out, 3, new float[len]);
    return out;
  }

  @Test
  void add_everyWidthAndSlice_sameBitsAsTheScalarLoops() {
    assumeThat(VECTOR_PRESENT).as("the tests run with --add-modules jdk.incubator.vector").isTrue();
    // Widths below, at and above the lane counts (2, 4, 8, 16 floats), up to the long-row
    // limit; slices from the first element, mid-row and ending at the last row, where the
    // vector loads would run past u and the scalar loops take over.
    int[] widths = {1, 2, 3, 5, 7, 8, 9, 10, 15, 16, 17, 31, 63};
    for (boolean awkward : new boolean[] {false, true}) {
      for (int cols : widths) {
        int rows = 37;
        int size = rows * cols;
        float[] u = values(rows, cols, awkward);
        float[] v = values(cols, cols + 100, awkward);
        float[] start = values(size, cols + 200, awkward);
        RankOneFactors vector = new RankOneFactors(start, u, v, -0.03f, true);
        RankOneFactors scalar = new RankOneFactors(start, u, v, -0.03f, false);
        double[] acc = new double[size + 3];
        for (int i = 0; i < acc.length; i++) {
          acc[i] = i % 5 == 0 ? -0.0 : i * 0.25;
        }
        int[][] slices = {{0, size}, {1, size - 1}, {cols / 2, size / 3}, {size - 13, 13},
            {size - cols - 1, cols + 1}, {5, 0}};
        for (int[] s : slices) {
          int at = Math.max(0, Math.min(s[0], size));
          int len = Math.max(0, Math.min(s[1], size - at));
          double[] want = added(scalar, at, len, 0.7, acc);
          double[] got = added(vector, at, len, 0.7, acc);
          for (int i = 0; i < want.length; i++) {
            assertThat(Double.doubleToLongBits(got[i]))
                .as("width %d, slice [%d, +%d), element %d, awkward %s", cols, at, len, i, awkward)
                .isEqualTo(Double.doubleToLongBits(want[i]));
          }
        }
      }
    }
  }

  /** The step applied to the start, minus the start, as a made tensor: what a step stands for. */
  private static Tensor made(float[] start, float[] u, float[] v, float alpha) {
    float[] d = new float[u.length * v.length];
    for (int i = 0; i < u.length; i++) {
      for (int j = 0; j < v.length; j++) {
        float s = start[i * v.length + j];
        d[i * v.length + j] = Math.fma(Math.fma(u[i], v[j], 0f), alpha, s) - s;
      }
    }
    return Tensor.ofFloats(Shape.of(u.length, v.length), d);
  }

  @Test
  void addScaled_runsOfStepsOfOneStart_sameBitsAsTheMadeTensors() {
    assumeThat(VECTOR_PRESENT).as("the tests run with --add-modules jdk.incubator.vector").isTrue();
    // Runs of one, two, three and five steps of one start, broken by a step of another start
    // and by a made tensor; each width; sums read in pieces that start mid-row and mid-vector.
    // 'S': a step of the shared start, 'O': of another start, 'M': a made tensor.
    String[] layouts = {"SS", "SSS", "SSOSS", "SMSSSSS", "OSSSSSM", "SSSSSSSS"};
    int[] widths = {1, 2, 3, 5, 8, 9, 10, 16, 17, 31, 63};
    for (boolean awkward : new boolean[] {false, true}) {
      for (int cols : widths) {
        for (String layout : layouts) {
          int rows = 301;
          int size = rows * cols;
          float[] start = values(size, cols, awkward);
          float[] other = values(size, cols + 1, awkward);
          List<Tensor> lazy = new ArrayList<>();
          List<Tensor> want = new ArrayList<>();
          double[] w = new double[layout.length()];
          for (int k = 0; k < layout.length(); k++) {
            float[] u = values(rows, 100 * k + cols, awkward);
            float[] v = values(cols, 100 * k + cols + 50, awkward);
            float alpha = k % 2 == 0 ? -0.03f : 1.5f;
            w[k] = k == 3 ? -0.0 : 0.5 + k;
            switch (layout.charAt(k)) {
              case 'S' -> {
                lazy.add(Tensor.rankOneStep(start, u, v, alpha, false));
                want.add(made(start, u, v, alpha));
              }
              case 'O' -> {
                lazy.add(Tensor.rankOneStep(other, u, v, alpha, false));
                want.add(made(other, u, v, alpha));
              }
              default -> {
                Tensor t = Tensor.ofFloats(Shape.of(rows, cols), values(size, k, awkward));
                lazy.add(t);
                want.add(t);
              }
            }
          }
          int cut = size / 3 + 1;
          double[] first = new double[cut];
          double[] second = new double[size - cut];
          TensorMath.addScaled(lazy, w, first, 0);
          TensorMath.addScaled(lazy, w, second, cut);
          double[] expected = new double[size];
          TensorMath.addScaled(want, w, expected);
          for (int i = 0; i < size; i++) {
            double got = i < cut ? first[i] : second[i - cut];
            assertThat(Double.doubleToLongBits(got))
                .as("width %d, layout %s, element %d, awkward %s", cols, layout, i, awkward)
                .isEqualTo(Double.doubleToLongBits(expected[i]));
          }
        }
      }
    }
  }

  @Test
  void plainSums_negativeZeroOrNaNAnywhere_falseAsTheScalarLoop() {
    assumeThat(VECTOR_PRESENT).as("the tests run with --add-modules jdk.incubator.vector").isTrue();
    double[] odd = {-0.0, Double.NaN, Double.longBitsToDouble(0xfff8000000000001L),
        Double.longBitsToDouble(0x7ff0000000000001L)};
    double[] plain = {0.0, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.MIN_VALUE,
        -Double.MIN_VALUE, -1.5, Double.MAX_VALUE, -Double.MAX_VALUE};
    SplittableRandom rnd = new SplittableRandom(17);
    for (int len : new int[] {0, 1, 7, 8, 9, 31, 64, 4096}) {
      for (int at : new int[] {0, 1, 5}) {
        double[] acc = new double[at + len + 3];
        for (int i = 0; i < acc.length; i++) {
          acc[i] = plain[rnd.nextInt(plain.length)];
        }
        // Odd values just outside the range are not read.
        acc[acc.length - 1] = -0.0;
        if (at > 0) {
          acc[at - 1] = Double.NaN;
        }
        assertThat(VectorRankOne.plainSums(acc, at, len)).as("len %d at %d", len, at).isTrue();
        assertThat(TensorMath.plainSumsScalar(acc, at, len)).isTrue();
        for (int probe = 0; probe < Math.min(len, 12); probe++) {
          int where = at + (probe < 3 ? probe : rnd.nextInt(len));
          for (double o : odd) {
            double kept = acc[where];
            acc[where] = o;
            assertThat(VectorRankOne.plainSums(acc, at, len))
                .as("len %d at %d, %s at %d", len, at, o, where).isFalse();
            assertThat(TensorMath.plainSumsScalar(acc, at, len)).isFalse();
            acc[where] = kept;
          }
        }
      }
    }
  }

  @Test
  void add_wideRows_leftToTheScalarLoops() {
    float[] u = values(3, 1, false);
    float[] v = values(64, 2, false);
    float[] start = values(3 * 64, 3, false);
    double[] acc = new double[3 * 64 + 3];

    double[] want = added(new RankOneFactors(start, u, v, 0.5f, false), 0, 3 * 64, -1.5, acc);
    double[] got = added(new RankOneFactors(start, u, v, 0.5f, VECTOR_PRESENT), 0, 3 * 64, -1.5,
        acc);

    assertThat(got).containsExactly(want);
  }
}
