package io.tributary.tensor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RankOneStepTest {
  private static float[] gaussians(int n, long seed) {
    return DifferenceTest.gaussians(n, seed);
  }

  /** The step applied to a copy of the start, then the start subtracted: what it stands for. */
  private static Tensor applied(float[] start, float[] u, float[] v, float alpha) {
    float[] d = new float[u.length * v.length];
    for (int i = 0; i < u.length; i++) {
      for (int j = 0; j < v.length; j++) {
        float s = start[i * v.length + j];
        float t = Math.fma(Math.fma(u[i], v[j], 0f), alpha, s);
        d[i * v.length + j] = t - s;
      }
    }
    return Tensor.ofFloats(Shape.of(u.length, v.length), d);
  }

  private static List<Integer> bits(Tensor t) {
    List<Integer> out = new ArrayList<>();
    for (long i = 0; i < t.size(); i++) {
      out.add(Float.floatToRawIntBits(t.getFloat(i)));
    }
    return out;
  }

  @Test
  void rankOneStep_made_equalsTheAppliedStepMinusTheStart() {
    // Rows of 10 (a tile ends mid-row) and of 3,000 (a row spans chunks), a single row, and
    // rows either side of the length where the products turn from by column to by row.
    int[][] shapes = {{9_999, 10}, {7, 3_000}, {1, 5}, {50, 63}, {50, 64}};
    for (int[] s : shapes) {
      float[] u = gaussians(s[0], 1);
      float[] v = gaussians(s[1], 2);
      float[] start = gaussians(s[0] * s[1], 3);
      Tensor t = Tensor.rankOneStep(start, u, v, -0.01f, true);

      assertThat(t.isDeferred()).isTrue();
      assertThat(t.shape()).isEqualTo(Shape.of(s[0], s[1]));
      assertThat(bits(t)).as("%d x %d", s[0], s[1]).isEqualTo(bits(applied(start, u, v, -0.01f)));
      assertThat(t.isDeferred()).isFalse();
    }
  }

  @Test
  void addScaled_rankOneStepsAmongOthers_sameBitsAsTheMadeTensors() {
    int rows = 1_001;
    int cols = 10;
    float[] start = gaussians(rows * cols, 3);
    List<Tensor> lazy = new ArrayList<>();
    List<Tensor> made = new ArrayList<>();
    for (int k = 0; k < 4; k++) {
      float[] u = gaussians(rows, 10 + k);
      float[] v = gaussians(cols, 20 + k);
      if (k == 2) {
        Tensor plain = Tensor.ofFloats(Shape.of(rows, cols), gaussians(rows * cols, 30));
        lazy.add(plain);
        made.add(plain);
        continue;
      }
      lazy.add(Tensor.rankOneStep(start, u, v, -0.5f, true));
      made.add(applied(start, u, v, -0.5f));
    }
    double[] w = {1.0, 2.5, 0.25, 3.0};
    // In two slices, as a sum kept in pieces reads them.
    double[] first = new double[4_000];
    double[] second = new double[rows * cols - 4_000];
    TensorMath.addScaled(lazy, w, first, 0);
    TensorMath.addScaled(lazy, w, second, 4_000);
    double[] want = new double[rows * cols];
    TensorMath.addScaled(made, w, want);

    double[] got = new double[rows * cols];
    System.arraycopy(first, 0, got, 0, first.length);
    System.arraycopy(second, 0, got, first.length, second.length);
    assertThat(got).isEqualTo(want);
    assertThat(lazy.get(0).isDeferred()).as("read in place, never made").isTrue();
  }

  /** {@code n} zeros with {@code nonzero} Gaussians (and a -0) at seeded rows. */
  private static float[] sparse(int n, int nonzero, long seed) {
    float[] a = new float[n];
    java.util.SplittableRandom rnd = new java.util.SplittableRandom(seed);
    for (int k = 0; k < nonzero; k++) {
      a[rnd.nextInt(n)] = (float) rnd.nextGaussian();
    }
    a[rnd.nextInt(n)] = -0f;
    return a;
  }

  @Test
  void addScaled_sparseSteps_sameBitsAsTheMadeTensors() {
    // Steps whose u is mostly zero add only their non-zero rows; the sums must be the dense
    // ones: also where a sum is -0 or NaN (in the first tile only), where v, alpha or the start
    // is not finite (the zero rows' elements are then NaN), and for weights of every sign.
    int rows = 2_001;
    int cols = 10;
    int size = rows * cols;
    float inf = Float.POSITIVE_INFINITY;
    // {v's special value, alpha, start's special value at every 7th element}
    float[][] cases = {{1f, -0.5f, 1f}, {inf, -0.5f, 1f}, {1f, inf, 1f}, {1f, -0.5f, inf},
        {1f, -0.5f, -0f}, {1f, 0f, 1f}};
    for (float[] c : cases) {
      float[] start = gaussians(size, 3);
      for (int i = 0; i < size; i += 7) {
        start[i] = c[2] == 1f ? start[i] : c[2];
      }
      boolean finiteStart = Float.isFinite(c[2]);
      List<Tensor> lazy = new ArrayList<>();
      List<Tensor> made = new ArrayList<>();
      for (int k = 0; k < 5; k++) {
        float[] u = k == 2 ? gaussians(rows, 40) : sparse(rows, 20, 10 + k);
        float[] v = gaussians(cols, 20 + k);
        v[3] = c[0] == 1f ? v[3] : c[0];
        lazy.add(Tensor.rankOneStep(start, u, v, c[1], finiteStart));
        made.add(applied(start, u, v, c[1]));
      }
      double[] w = {1.0, -2.5, 0.0, -0.0, 3.0};
      double[] init = new double[size];
      for (int i = 0; i < size; i++) {
        init[i] = i % 3 == 0 ? 0.0 : i * 0.5;
      }
      init[5] = -0.0;
      init[17] = Double.NaN;
      double[] first = java.util.Arrays.copyOfRange(init, 0, 5_000);
      double[] second = java.util.Arrays.copyOfRange(init, 5_000, size);
      TensorMath.addScaled(lazy, w, first, 0);
      TensorMath.addScaled(lazy, w, second, 5_000);
      double[] want = init.clone();
      TensorMath.addScaled(made, w, want);

      double[] got = new double[size];
      System.arraycopy(first, 0, got, 0, first.length);
      System.arraycopy(second, 0, got, first.length, second.length);
      // NaN compared as NaN: which operand's NaN a sum keeps is the hardware's and the JIT's
      // choice (C2 may swap the operands of an add), so its sign bit is not part of the result.
      for (int i = 0; i < size; i++) {
        assertThat(Double.doubleToLongBits(got[i]))
            .as("case %s, element %d", java.util.Arrays.toString(c), i)
            .isEqualTo(Double.doubleToLongBits(want[i]));
      }
    }
  }

  @Test
  void addScaled_oneRankOneStep_readInPlace() {
    float[] start = gaussians(50, 1);
    Tensor t = Tensor.rankOneStep(start, gaussians(5, 2), gaussians(10, 3), 0.1f, true);
    double[] acc = new double[50];
    TensorMath.addScaled(List.of(t), new double[] {2.0}, acc);
    double[] want = new double[50];
    TensorMath.addScaled(applied(start, gaussians(5, 2), gaussians(10, 3), 0.1f), 2.0, want);

    assertThat(acc).isEqualTo(want);
    assertThat(t.isDeferred()).isTrue();
  }

  @Test
  void firstNonFinite_stepsOfEveryKind_findTheElementTheMadeTensorHas() {
    float big = 0x1p100f;
    float[] start = gaussians(40, 1);
    float[] nearMax = start.clone();
    nearMax[13] = 0x1.fp126f;
    float[] u = gaussians(4, 2);
    float[] v = gaussians(10, 3);
    float[] vNaN = v.clone();
    vNaN[7] = Float.NaN;
    float[] uBig = u.clone();
    uBig[2] = big;
    float[] vBig = v.clone();
    vBig[5] = big;
    record Case(String name, float[] start, float[] u, float[] v, float alpha, boolean within) {}
    List<Case> cases = List.of(
        new Case("small factors", start, u, v, -0.1f, true),
        new Case("a NaN factor", start, u, vNaN, -0.1f, true),
        new Case("a product that overflows", start, uBig, vBig, -1f, true),
        new Case("a step past the float range", nearMax, u, v, 0x1p126f, false),
        new Case("an infinite scale", start, u, v, Float.NEGATIVE_INFINITY, true));
    for (Case c : cases) {
      Tensor lazy = Tensor.rankOneStep(c.start(), c.u(), c.v(), c.alpha(), c.within());
      long expected = Finite.firstNonFinite(applied(c.start(), c.u(), c.v(), c.alpha()));

      assertThat(Finite.firstNonFinite(lazy)).as(c.name()).isEqualTo(expected);
      assertThat(lazy.isDeferred()).as(c.name() + ": checked without making it").isTrue();
    }
    assertThat(Finite.firstNonFinite(Tensor.rankOneStep(start, u, vNaN, -0.1f, true)))
        .isEqualTo(7);
  }

  @Test
  void rankOneStep_startShorterThanTheShape_throwsNamingTheSizes() {
    assertThatThrownBy(() -> Tensor.rankOneStep(new float[5], new float[2], new float[3], 1f,
        true))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("2 x 3").hasMessageContaining("got 5");
  }

  @Test
  void rankOneStep_discarded_readingThrows() {
    Tensor t = Tensor.rankOneStep(new float[6], new float[2], new float[3], 1f, true);
    t.discard();

    assertThatThrownBy(() -> t.getFloat(0)).isInstanceOf(IllegalStateException.class);
  }
}
