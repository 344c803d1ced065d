package io.tributary.graph.ops;

import static io.tributary.graph.ops.FusedPlans.assertSameBits;
import static io.tributary.graph.ops.FusedPlans.step;
import static io.tributary.graph.ops.FusedPlans.types;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.graph.Op;
import io.tributary.graph.OpArgs;
import io.tributary.graph.autodiff.Autodiff;
import io.tributary.graph.autodiff.GradientGraph;
import io.tributary.graph.models.Model;
import io.tributary.graph.models.Models;
import io.tributary.tensor.DType;
import io.tributary.tensor.Tensor;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The fused loss and gradient ({@link CrossEntropyMeanOp}, {@link LossFusion}) against the four
 * ops it replaces, bit for bit.
 */
class CrossEntropyMeanOpTest {
  private static final float[] SPECIAL = {0f, -0f, 1f, -1f, Float.NaN, Float.POSITIVE_INFINITY,
      Float.NEGATIVE_INFINITY, Float.MIN_VALUE, Float.MAX_VALUE, -Float.MAX_VALUE, 1e-38f, 88f,
      -104f, 3e30f};
  private static final Op ANY = new Op("fused", LossFusion.TYPE, List.of(), List.of(),
      OpArgs.none());

  @Test
  void compute_oddBatchesAndSeeds_matchTheFourOpsBitForBit() {
    SplittableRandom rnd = new SplittableRandom(1);
    for (int classes : new int[] {10, 3, 1, 17}) {
      for (int rows : new int[] {10, 3, 1, 0, 7}) {
        for (float seed : new float[] {1f, 0.5f, -3f, Float.NaN}) {
          NdArray z = logits(rnd, rows, classes, rnd.nextBoolean());
          NdArray y = labels(rnd, rows, classes);
          NdArray s = NdArray.wrapFloats(new int[0], new float[] {seed});
          NdArray[] got = CrossEntropyMeanOp.INSTANCE.compute(ANY, new NdArray[] {z, y, s});
          NdArray[] want = fourOps(z, y, s);
          String what = rows + "x" + classes + ", seed " + seed;
          assertSameBits(got[0], want[0], what + ": loss");
          assertSameBits(got[1], want[1], what + ": gradient");
        }
      }
    }
  }

  @Test
  void compute_offeredItsOwnArrays_overwritesThemWithTheSameBits() {
    SplittableRandom rnd = new SplittableRandom(2);
    NdArray s = NdArray.wrapFloats(new int[0], new float[] {1f});
    NdArray[] previous = new NdArray[3];
    NdArray[] first = CrossEntropyMeanOp.INSTANCE.compute(ANY,
        new NdArray[] {logits(rnd, 10, 10, false), labels(rnd, 10, 10), s}, previous);
    previous[0] = first[0];
    previous[1] = first[1];
    NdArray workspace = previous[2];
    assertThat(workspace).isNotNull();
    NdArray z = logits(rnd, 10, 10, true);
    NdArray y = labels(rnd, 10, 10);
    NdArray[] second = CrossEntropyMeanOp.INSTANCE.compute(ANY, new NdArray[] {z, y, s},
        previous);
    assertThat(second[0]).isSameAs(first[0]);
    assertThat(second[1]).isSameAs(first[1]);
    assertThat(previous[2]).isSameAs(workspace);
    NdArray[] want = fourOps(z, y, s);
    assertSameBits(second[0], want[0], "loss");
    assertSameBits(second[1], want[1], "gradient");
  }

  @Test
  void compute_float64Logits_runsTheFourOpsOwnKernels() {
    SplittableRandom rnd = new SplittableRandom(3);
    NdArray z = NdArray.fromDoubles(DType.FLOAT64, new int[] {4, 5},
        rnd.doubles(20, -3, 3).toArray());
    NdArray y = labels(rnd, 4, 5);
    NdArray s = NdArray.fromDoubles(DType.FLOAT64, new int[0], new double[] {1});
    NdArray[] got = CrossEntropyMeanOp.INSTANCE.compute(ANY, new NdArray[] {z, y, s});
    NdArray[] want = fourOps(z, y, s);
    assertThat(got[0].dtype()).isEqualTo(DType.FLOAT64);
    assertThat(got[0].doubles()).containsExactly(want[0].doubles());
    assertThat(got[1].doubles()).containsExactly(want[1].doubles());
  }

  @Test
  void compute_labelOutsideTheClasses_throwsNamingTheLabel() {
    NdArray z = NdArray.zeros(DType.FLOAT32, 2, 3);
    NdArray y = NdArray.wrapLongs(DType.INT64, new int[] {2}, new long[] {1, 3});
    NdArray s = NdArray.wrapFloats(new int[0], new float[] {1f});
    assertThatThrownBy(() -> CrossEntropyMeanOp.INSTANCE.compute(ANY, new NdArray[] {z, y, s}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("label 3 at row 1 is outside [0, 3)");
  }

  @Test
  void infer_fusedOp_throwsNamingTheOp() {
    assertThatThrownBy(() -> CrossEntropyMeanOp.INSTANCE.infer(ANY, List.of()))
        .isInstanceOf(UnsupportedOperationException.class)
        .hasMessage("'" + LossFusion.TYPE
            + "' is a fused op, which a plan creates and never infers");
  }

  @Test
  void plan_mclrTrainingStep_runsTheLossAndGradientAsOneOp() {
    Model model = Models.mclr();
    GradientGraph grads = Autodiff.gradients(model.graph(), model.loss(), model.trainableNames());
    Plan plan = Plan.of(grads.graph(), List.of(model.loss(), grads.gradientOf("dense/kernel")),
        List.of(), Map.of(), GemmKernel.DEFAULT);
    assertThat(types(plan)).contains(LossFusion.TYPE).doesNotContain(
        "sparse_softmax_cross_entropy", "reduce_mean", "unreduce",
        "sparse_softmax_cross_entropy_grad");
  }

  @Test
  void plan_perExampleLossAsked_isNotFused() {
    Model model = Models.mclr();
    GradientGraph grads = Autodiff.gradients(model.graph(), model.loss(), model.trainableNames());
    Plan plan = Plan.of(grads.graph(), List.of("loss/cross_entropy",
        grads.gradientOf("dense/kernel")), List.of(), Map.of(), GemmKernel.DEFAULT);
    assertThat(types(plan)).doesNotContain(LossFusion.TYPE)
        .contains("sparse_softmax_cross_entropy");
  }

  @Test
  void compiledRun_sgdAndProximalStepsOverASmallerLastBatch_matchUnfusedBitForBit() {
    for (double mu : new double[] {0, 1}) {
      FusedPlans.Step s = step(Models.mclr(), mu);
      Model model = s.model();
      List<String> feeds = s.feeds();
      assertThat(types(s.plan(true))).as("mu %s", mu).contains(LossFusion.TYPE);
      CompiledRun fused = s.fused();
      CompiledRun plain = s.unfused();
      NdArray[] a = values(model, mu, feeds.size());
      NdArray[] p = values(model, mu, feeds.size());
      SplittableRandom rnd = new SplittableRandom(4);
      // An epoch of 10, 10, 3 twice over: the smaller last batch alternates with the full one.
      for (int rows : new int[] {10, 10, 3, 10, 10, 3}) {
        NdArray x = logits(rnd, rows, 60, false);
        NdArray y = labels(rnd, rows, 10);
        a[a.length - 2] = x;
        a[a.length - 1] = y;
        p[p.length - 2] = x;
        p[p.length - 1] = y;
        assertSameBits(fused.run(a)[0], plain.run(p)[0], "mu " + mu + ", " + rows + " rows: loss");
      }
      for (int i = 0; i < a.length - 2; i++) {
        assertSameBits(a[i], p[i], "mu " + mu + ": " + feeds.get(i));
      }
    }
  }

  /** The anchors (perturbed initial parameters) when mu > 0, then the initial parameters. */
  private static NdArray[] values(Model model, double mu, int count) {
    NdArray[] v = new NdArray[count];
    int at = 0;
    Map<String, Tensor> init = model.initialParameters(7);
    if (mu > 0) {
      for (String t : model.trainableNames()) {
        NdArray anchor = NdArray.fromTensor(init.get(t));
        for (int i = 0; i < anchor.size(); i++) {
          anchor.set(i, anchor.get(i) + 0.01 * (i % 7 - 3));
        }
        v[at++] = anchor;
      }
    }
    for (String t : model.trainableNames()) {
      v[at++] = NdArray.fromTensor(init.get(t));
    }
    return v;
  }

  /** The four ops the fused op replaces, each its own registered kernel, in order. */
  private static NdArray[] fourOps(NdArray z, NdArray y, NdArray seed) {
    OpRegistry r = OpRegistry.standard();
    NdArray p = r.find("sparse_softmax_cross_entropy").orElseThrow().compute(ANY,
        new NdArray[] {z, y})[0];
    NdArray loss = r.find("reduce_mean").orElseThrow().compute(ANY, new NdArray[] {p})[0];
    Op unreduce = new Op("u", "unreduce", List.of(), List.of(),
        OpArgs.builder().putBool("keep_dims", false).putBool("mean", true).build());
    NdArray g = r.find("unreduce").orElseThrow().compute(unreduce, new NdArray[] {seed, p})[0];
    NdArray d = r.find("sparse_softmax_cross_entropy_grad").orElseThrow().compute(ANY,
        new NdArray[] {g, z, y})[0];
    return new NdArray[] {loss, d};
  }

  /** Normal logits, or with {@code special} some of them extreme, infinite or NaN. */
  private static NdArray logits(SplittableRandom rnd, int rows, int cols, boolean special) {
    float[] v = new float[rows * cols];
    for (int i = 0; i < v.length; i++) {
      v[i] = special && rnd.nextInt(4) == 0 ? SPECIAL[rnd.nextInt(SPECIAL.length)]
          : (float) (3 * rnd.nextGaussian());
    }
    return NdArray.wrapFloats(new int[] {rows, cols}, v);
  }

  private static NdArray labels(SplittableRandom rnd, int rows, int classes) {
    long[] y = new long[rows];
    for (int i = 0; i < rows; i++) {
      y[i] = rnd.nextInt(classes);
    }
    return NdArray.wrapLongs(DType.INT64, new int[] {rows}, y);
  }
}
