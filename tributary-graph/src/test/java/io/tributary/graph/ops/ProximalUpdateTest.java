package io.tributary.graph.ops;

import static io.tributary.graph.ops.FusedPlans.assertSameBits;
import static io.tributary.graph.ops.FusedPlans.step;
import static io.tributary.graph.ops.FusedPlans.types;
import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.graph.local.LocalTraining;
import io.tributary.graph.models.Models;
import io.tributary.tensor.DType;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * One-pass FedProx updates ({@link ProximalUpdate}) against plans that run the proximal gradient's
 * ops as steps ({@code fuse} false), bit for bit. {@code FoldingTest} runs them with NaN,
 * infinities, signed zeros and subnormals in the weights and anchors.
 */
class ProximalUpdateTest {
  @Test
  void plan_fedProxStepOfMclr_updatesEachParameterInOnePass() {
    FusedPlans.Step s = step(Models.mclr(), 1.0);
    Plan plan = s.plan(true);
    assertThat(plan.proximalCount()).isEqualTo(2);
    assertThat(types(plan)).doesNotContain("sub", "scale", "mul", "add");
    Plan plain = s.plan(false);
    assertThat(plain.proximalCount()).isZero();
  }

  @Test
  void plan_proximalDifferenceAsked_isNotFusedAway() {
    FusedPlans.Step s = step(Models.mclr(), 1.0);
    List<String> outputs = List.of(s.outputs().get(0),
        LocalTraining.ANCHOR_PREFIX + "dense/kernel/diff");
    Plan plan = Plan.of(s.graph(), outputs, s.sgd(), Map.of(), GemmKernel.DEFAULT);
    assertThat(plan.proximalCount()).isEqualTo(1);
    assertThat(types(plan)).contains("sub");
  }

  @Test
  void compiledRun_mlpFedProxStepsOverASmallerLastBatch_matchUnfusedBitForBit() {
    FusedPlans.Step s = step(Models.mlp("mlp", 20, 16, 10, DType.FLOAT32), 0.5);
    Plan fused = s.plan(true);
    assertThat(fused.proximalCount()).isEqualTo(6);
    assertStepsMatch(s, fused, false);
  }

  @Test
  void compiledRun_anchorFedAsItsOwnParameter_computesTheValueApartAndMatchesUnfused() {
    // The anchor and the parameter one array: the one-pass loop would read the anchor while
    // writing it, so the run computes the value by the chain's own ops before any target changes.
    FusedPlans.Step s = step(Models.mclr(), 1.0);
    Plan fused = s.plan(true);
    assertStepsMatch(s, fused, true);
  }

  /**
   * Runs 12 steps of {@code fused} and of the unfused plan from the same start, batches of 10,
   * 10, 3 over and over; the same loss and parameters, bit for bit, after each. With {@code
   * aliased}, each anchor is its parameter's own array.
   */
  private static void assertStepsMatch(FusedPlans.Step s, Plan fused, boolean aliased) {
    CompiledRun a = new CompiledRun(fused, s.feeds(), s.outputs());
    CompiledRun b = s.unfused();
    int params = s.model().trainableNames().size();
    int features = (int) s.model().graph().requireVariable(s.model().input()).shape().dim(1);
    NdArray[] va = new NdArray[s.feeds().size()];
    NdArray[] vb = new NdArray[s.feeds().size()];
    SplittableRandom rnd = new SplittableRandom(5);
    List<io.tributary.graph.Variable> trainables = s.model().trainables();
    for (int i = 0; i < 2 * params; i++) {
      io.tributary.graph.Variable v = trainables.get(i % params);
      int[] dims = Arrays.stream(v.shape().dims()).mapToInt(d -> (int) d).toArray();
      float[] w = new float[NdArray.sizeOf(dims)];
      for (int k = 0; k < w.length; k++) {
        w[k] = (float) (rnd.nextGaussian() * 0.1);
      }
      va[i] = NdArray.wrapFloats(dims, w);
      vb[i] = NdArray.wrapFloats(dims, w.clone());
    }
    if (aliased) {
      for (int i = 0; i < params; i++) {
        va[i] = va[params + i];
        vb[i] = vb[params + i];
      }
    }
    for (int step = 0; step < 12; step++) {
      int rows = step % 3 == 2 ? 3 : 10;
      NdArray[] batch = CompiledRunTest.batch(rows, features, DType.FLOAT32, rnd);
      va[va.length - 2] = batch[0];
      vb[vb.length - 2] = batch[0];
      va[va.length - 1] = batch[1];
      vb[vb.length - 1] = batch[1];
      assertSameBits(a.run(va)[0], b.run(vb)[0], "step " + step + ": loss");
      for (int i = params; i < 2 * params; i++) {
        assertSameBits(va[i], vb[i], "step " + step + ": " + s.feeds().get(i));
      }
    }
  }
}
