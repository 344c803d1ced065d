package io.tributary.graph.ops;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.graph.Graph;
import io.tributary.graph.autodiff.Autodiff;
import io.tributary.graph.autodiff.GradientGraph;
import io.tributary.graph.local.LocalTraining;
import io.tributary.graph.models.Model;
import io.tributary.graph.models.Models;
import io.tributary.tensor.DType;
import java.util.ArrayList;
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
    Step s = step(Models.mclr(), 1.0);
    Plan plan = Plan.of(s.graph(), s.outputs(), s.sgd(), Map.of(), GemmKernel.DEFAULT);
    assertThat(plan.proximalCount()).isEqualTo(2);
    assertThat(types(plan)).doesNotContain("sub", "scale", "mul", "add");
    Plan plain = Plan.of(s.graph(), s.outputs(), s.sgd(), Map.of(), GemmKernel.DEFAULT, false);
    assertThat(plain.proximalCount()).isZero();
  }

  @Test
  void plan_proximalDifferenceAsked_isNotFusedAway() {
    Step s = step(Models.mclr(), 1.0);
    List<String> outputs = List.of(s.outputs().get(0),
        LocalTraining.ANCHOR_PREFIX + "dense/kernel/diff");
    Plan plan = Plan.of(s.graph(), outputs, s.sgd(), Map.of(), GemmKernel.DEFAULT);
    assertThat(plan.proximalCount()).isEqualTo(1);
    assertThat(types(plan)).contains("sub");
  }

  @Test
  void compiledRun_mlpFedProxStepsOverASmallerLastBatch_matchUnfusedBitForBit() {
    Step s = step(Models.mlp("mlp", 20, 16, 10, DType.FLOAT32), 0.5);
    Plan fused = Plan.of(s.graph(), s.outputs(), s.sgd(), Map.of(), GemmKernel.DEFAULT);
    assertThat(fused.proximalCount()).isEqualTo(6);
    assertStepsMatch(s, fused, false);
  }

  @Test
  void compiledRun_anchorFedAsItsOwnParameter_computesTheValueApartAndMatchesUnfused() {
    // The anchor and the parameter one array: the one-pass loop would read the anchor while
    // writing it, so the run computes the value by the chain's own ops before any target changes.
    Step s = step(Models.mclr(), 1.0);
    Plan fused = Plan.of(s.graph(), s.outputs(), s.sgd(), Map.of(), GemmKernel.DEFAULT);
    assertStepsMatch(s, fused, true);
  }

  /** A training step: the graph, the feeds (anchors, parameters, x, y), the loss and SGD. */
  private record Step(Graph graph, Model model, List<String> feeds, List<String> outputs,
      List<Accumulation> sgd) {}

  private static Step step(Model model, double mu) {
    Graph graph = LocalTraining.withProximalTerm(model, mu);
    GradientGraph grads = Autodiff.gradients(graph, LocalTraining.OBJECTIVE,
        model.trainableNames());
    List<Accumulation> sgd = new ArrayList<>();
    List<String> feeds = new ArrayList<>();
    for (String p : model.trainableNames()) {
      sgd.add(new Accumulation(grads.gradientOf(p), p, -0.01));
      feeds.add(LocalTraining.ANCHOR_PREFIX + p);
    }
    feeds.addAll(model.trainableNames());
    feeds.add(model.input());
    feeds.add(model.labels());
    return new Step(grads.graph(), model, feeds, List.of(model.loss()), sgd);
  }

  /**
   * Runs 12 steps of {@code fused} and of the unfused plan from the same start, batches of 10,
   * 10, 3 over and over; the same loss and parameters, bit for bit, after each. With {@code
   * aliased}, each anchor is its parameter's own array.
   */
  private static void assertStepsMatch(Step s, Plan fused, boolean aliased) {
    CompiledRun a = new CompiledRun(fused, s.feeds(), s.outputs());
    CompiledRun b = new CompiledRun(Plan.of(s.graph(), s.outputs(), s.sgd(), Map.of(),
        GemmKernel.DEFAULT, false), s.feeds(), s.outputs());
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

  private static List<String> types(Plan plan) {
    return Arrays.stream(plan.steps()).map(st -> st.op().type()).toList();
  }

  private static void assertSameBits(NdArray a, NdArray b, String what) {
    assertThat(a.shape()).as(what).containsExactly(b.shape());
    float[] x = a.floats();
    float[] y = b.floats();
    for (int i = 0; i < x.length; i++) {
      if (Float.floatToIntBits(x[i]) != Float.floatToIntBits(y[i])) {
        throw new AssertionError(what + ", element " + i + ": " + x[i] + " (fused) vs " + y[i]
            + " (unfused)");
      }
    }
  }
}
