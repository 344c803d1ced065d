package io.tributary.graph.ops;

import static io.tributary.graph.ops.FusedPlans.step;
import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.graph.Graph;
import io.tributary.graph.GraphBuilder;
import io.tributary.graph.OpArgs;
import io.tributary.graph.models.Models;
import io.tributary.tensor.DType;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Plans with the values that cannot change between runs computed once ({@link Folding}) against
 * plans that run every op ({@code fuse} false), bit for bit.
 */
class FoldingTest {
  /** Every kind of float a weight can hold: signed zeros, infinities, NaN, subnormals, extremes. */
  private static final float[] SPECIAL = {0f, -0f, 1f, -1f, Float.NaN, Float.POSITIVE_INFINITY,
      Float.NEGATIVE_INFINITY, Float.MIN_VALUE, -Float.MIN_VALUE, Float.MAX_VALUE,
      -Float.MAX_VALUE, 1e-38f, -1e-38f, 0.5f, -2.5f, 3e30f};

  @Test
  void plan_fedProxStep_foldsTheProximalSeedAndDropsTheObjectivesForwardOps() {
    FusedPlans.Step s = step(Models.mclr(), 1.0);
    Plan folded = s.plan(true);
    Plan plain = s.plan(false);
    assertThat(count(plain, "ones_like")).isEqualTo(1);
    assertThat(count(folded, "ones_like")).isZero();
    // The objective's forward ops (square, reduce_sum) ran only for the seed's shape.
    assertThat(count(folded, "square")).isZero();
    assertThat(count(folded, "reduce_sum")).isZero();
    assertThat(folded.steps().length).isLessThan(plain.steps().length - 10);
  }

  @Test
  void plan_objectiveAsked_keepsItsForwardOps() {
    FusedPlans.Step s = step(Models.mclr(), 1.0);
    List<String> outputs = List.of(s.objective(), s.model().loss());
    Plan folded = Plan.of(s.graph(), outputs, s.sgd(), Map.of(), GemmKernel.DEFAULT);
    assertThat(count(folded, "square")).isEqualTo(2);
  }

  @ParameterizedTest
  @ValueSource(doubles = {0.0, 0.01, 1.0, 3.5})
  void compiledRun_fedProxSteps_matchUnfoldedBitForBit(double mu) {
    FusedPlans.Step s = step(Models.mclr(), mu);
    assertStepsMatch(s, new SplittableRandom(7), false);
  }

  @ParameterizedTest
  @ValueSource(doubles = {0.0, 1.0})
  void compiledRun_specialWeightsAndAnchors_matchUnfoldedBitForBit(double mu) {
    FusedPlans.Step s = step(Models.mclr(), mu);
    assertStepsMatch(s, new SplittableRandom(8), true);
  }

  @Test
  void run_constantOnlyOps_foldToTheKernelsResult() {
    GraphBuilder b = new GraphBuilder();
    String x = b.placeholder("x", DType.FLOAT32, 3);
    String c = b.constant("c", io.tributary.tensor.Tensor.ofFloats(
        io.tributary.tensor.Shape.of(3), 1.5f, -0f, Float.NaN));
    String twice = b.opNamed("twice", "scale", OpArgs.builder().putFloat("factor", 2).build(), c);
    String sum = b.opNamed("sum", "add", OpArgs.none(), x, twice);
    Graph g = b.build();
    Map<String, NdArray> constants = Map.of(c, NdArray.fromTensor(g.constants().get(c)));
    Plan folded = Plan.of(g, List.of(sum, twice), List.of(), constants, GemmKernel.DEFAULT);
    Plan plain = Plan.of(g, List.of(sum, twice), List.of(), constants, GemmKernel.DEFAULT, false);
    assertThat(count(folded, "scale")).isZero();
    NdArray xv = NdArray.wrapFloats(new int[] {3}, new float[] {1f, 2f, 3f});
    assertSameBits(runOnce(folded, x, xv, List.of(sum, twice)),
        runOnce(plain, x, xv, List.of(sum, twice)));
  }

  @Test
  void plan_unknownShapeSeed_isNotFolded() {
    // ones_like of a value whose shape is known only at run time cannot be computed in advance.
    GraphBuilder b = new GraphBuilder();
    String x = b.placeholder("x", DType.FLOAT32, -1);
    String ones = b.opNamed("ones", "ones_like", OpArgs.none(), x);
    Graph g = b.build();
    Plan folded = Plan.of(g, List.of(ones), List.of(), Map.of(), GemmKernel.DEFAULT);
    assertThat(count(folded, "ones_like")).isEqualTo(1);
  }

  /** Runs 40 SGD steps on a folded and an unfolded run from the same start; same bits each step. */
  private static void assertStepsMatch(FusedPlans.Step s, SplittableRandom rnd, boolean special) {
    CompiledRun folded = s.fused();
    CompiledRun plain = s.unfused();
    int params = s.model().trainableNames().size();
    int anchors = s.feeds().size() - params - 2;
    NdArray[] a = new NdArray[s.feeds().size()];
    NdArray[] b = new NdArray[s.feeds().size()];
    List<io.tributary.graph.Variable> trainables = s.model().trainables();
    for (int i = 0; i < anchors + params; i++) {
      io.tributary.graph.Variable v = trainables.get(i % params);
      int[] dims = new int[v.shape().rank()];
      for (int d = 0; d < dims.length; d++) {
        dims[d] = (int) v.shape().dim(d);
      }
      float[] w = new float[NdArray.sizeOf(dims)];
      for (int k = 0; k < w.length; k++) {
        w[k] = special && rnd.nextInt(4) == 0 ? SPECIAL[rnd.nextInt(SPECIAL.length)]
            : (float) (rnd.nextGaussian() * 0.1);
      }
      a[i] = NdArray.wrapFloats(dims, w);
      b[i] = NdArray.wrapFloats(dims, w.clone());
    }
    for (int step = 0; step < 40; step++) {
      int rows = step % 3 == 2 ? 3 : 10;
      float[] x = new float[rows * 60];
      for (int k = 0; k < x.length; k++) {
        x[k] = (float) rnd.nextGaussian();
      }
      long[] y = new long[rows];
      for (int k = 0; k < rows; k++) {
        y[k] = rnd.nextInt(10);
      }
      a[a.length - 2] = NdArray.wrapFloats(new int[] {rows, 60}, x);
      b[b.length - 2] = a[a.length - 2];
      a[a.length - 1] = NdArray.wrapLongs(DType.INT64, new int[] {rows}, y);
      b[b.length - 1] = a[a.length - 1];
      NdArray[] outA = folded.run(a);
      NdArray[] outB = plain.run(b);
      for (int k = 0; k < outA.length; k++) {
        assertSameBits(outA[k], outB[k]);
      }
      for (int i = anchors; i < anchors + params; i++) {
        assertSameBits(a[i], b[i]);
      }
    }
  }

  private static NdArray runOnce(Plan plan, String feed, NdArray value, List<String> outputs) {
    CompiledRun run = new CompiledRun(plan, List.of(feed), outputs);
    NdArray[] out = run.run(value);
    return NdArray.wrapFloats(new int[] {out.length * 3}, concat(out));
  }

  private static float[] concat(NdArray[] out) {
    float[] r = new float[out.length * 3];
    for (int i = 0; i < out.length; i++) {
      System.arraycopy(out[i].floats(), 0, r, i * 3, 3);
    }
    return r;
  }

  private static int count(Plan plan, String type) {
    int n = 0;
    for (Plan.Step s : plan.steps()) {
      n += s.op().type().equals(type) ? 1 : 0;
    }
    return n;
  }

  private static void assertSameBits(NdArray a, NdArray b) {
    assertThat(a.shape()).isEqualTo(b.shape());
    assertThat(a.dtype()).isEqualTo(b.dtype());
    for (int i = 0; i < a.size(); i++) {
      // Every NaN counts as one value, as in FusionsTest: which operand's NaN an addition
      // returns is the processor's choice, and the JIT may swap the operands of a commutative op.
      assertThat(Double.doubleToLongBits(a.get(i)))
          .as("element %d: %s vs %s", i, a.get(i), b.get(i))
          .isEqualTo(Double.doubleToLongBits(b.get(i)));
    }
  }
}
