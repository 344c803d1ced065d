package io.tributary.graph.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.tributary.graph.Graph;
import io.tributary.graph.GraphBuilder;
import io.tributary.graph.GraphExecutionException;
import io.tributary.graph.OpArgs;
import io.tributary.graph.autodiff.Autodiff;
import io.tributary.graph.autodiff.GradientGraph;
import io.tributary.graph.local.LocalTraining;
import io.tributary.graph.models.Model;
import io.tributary.graph.models.Models;
import io.tributary.tensor.DType;
import io.tributary.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Compiled runs that add scaled values onto fed arrays, fused into a product or not. */
class AccumulationTest {
  private static final double LR = 0.05;

  static Stream<Arguments> models() {
    return Stream.of(
        // Every weight gradient is a product that nothing else reads: all fuse.
        Arguments.of("mlp f32", Models.mlp("m", 20, 16, 10, DType.FLOAT32), 0.0, 3),
        Arguments.of("mlp f64", Models.mlp("m", 20, 16, 10, DType.FLOAT64), 0.0, 3),
        Arguments.of("mclr f32", Models.softmaxRegression("m", 20, 10, DType.FLOAT32), 0.0, 1),
        // The proximal term adds onto each gradient, so none is a bare product.
        Arguments.of("mlp f32, proximal", Models.mlp("m", 20, 16, 10, DType.FLOAT32), 0.5, 0));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("models")
  void run_sgdAccumulations_equalGradientsThenUpdate(String name, Model model, double mu,
      int fused) {
    Graph graph = mu > 0 ? LocalTraining.withProximalTerm(model, mu) : model.graph();
    String objective = mu > 0 ? LocalTraining.OBJECTIVE : model.loss();
    List<String> params = model.trainableNames();
    GradientGraph grads = Autodiff.gradients(graph, objective, params);
    List<String> feeds = new ArrayList<>(params);
    List<String> gradNames = new ArrayList<>(List.of(objective));
    List<Accumulation> sgd = new ArrayList<>();
    for (String p : params) {
      gradNames.add(grads.gradientOf(p));
      sgd.add(new Accumulation(grads.gradientOf(p), p, -LR));
    }
    List<NdArray> anchors = new ArrayList<>();
    if (mu > 0) {
      for (String p : params) {
        feeds.add(LocalTraining.ANCHOR_PREFIX + p);
      }
    }
    feeds.add(model.input());
    feeds.add(model.labels());
    Map<String, Tensor> init = model.initialParameters(4);
    NdArray[] plain = new NdArray[feeds.size()];
    NdArray[] folded = new NdArray[feeds.size()];
    for (int i = 0; i < params.size(); i++) {
      plain[i] = NdArray.fromTensor(init.get(params.get(i)));
      folded[i] = plain[i].copy();
      if (mu > 0) {
        NdArray anchor = plain[i].copy();
        for (int j = 0; j < anchor.size(); j++) {
          anchor.set(j, anchor.get(j) * 0.9);
        }
        anchors.add(anchor);
        plain[params.size() + i] = anchor;
        folded[params.size() + i] = anchor;
      }
    }
    GraphExecutor executor = new GraphExecutor(grads.graph());
    CompiledRun unfused = executor.compile(feeds, gradNames);
    CompiledRun withSgd = executor.compile(feeds, List.of(objective), sgd);
    assertThat(withSgd.fusedAccumulations()).isEqualTo(fused);
    SplittableRandom rnd = new SplittableRandom(9);
    for (int rows : new int[] {8, 8, 3, 8}) {
      NdArray[] batch = CompiledRunTest.batch(rows, 20,
          model.graph().requireVariable(model.input()).dtype(), rnd);
      plain[feeds.size() - 2] = batch[0];
      folded[feeds.size() - 2] = batch[0];
      plain[feeds.size() - 1] = batch[1];
      folded[feeds.size() - 1] = batch[1];
      NdArray[] got = unfused.run(plain);
      double loss = withSgd.run(folded)[0].get(0);
      // The fused product rounds once where the separate update rounds twice, so the
      // parameters, and with them later losses, may differ in the last bits.
      assertThat(loss).as("%s, %d rows: loss before the step", name, rows)
          .isCloseTo(got[0].get(0), within(1e-5));
      for (int i = 0; i < params.size(); i++) {
        sgdStep(plain[i], got[1 + i]);
        for (int j = 0; j < plain[i].size(); j++) {
          assertThat(folded[i].get(j)).as("%s, %d rows: %s[%d]", name, rows, params.get(i), j)
              .isCloseTo(plain[i].get(j), within(1e-6 * (1 + Math.abs(plain[i].get(j)))));
        }
      }
    }
  }

  @Test
  void runDeferringRankOne_oneExample_updatesLeftUnappliedGiveRunsBits() {
    // A batch of one makes every weight gradient of the MLP an outer product: deferred, then
    // applied, they give what run() writes; the biases are applied as always. A batch of eight
    // defers nothing.
    Model model = Models.mlp("m", 20, 16, 10, DType.FLOAT32);
    List<String> params = model.trainableNames();
    GradientGraph grads = Autodiff.gradients(model.graph(), model.loss(), params);
    List<Accumulation> sgd = new ArrayList<>();
    for (String p : params) {
      sgd.add(new Accumulation(grads.gradientOf(p), p, -LR));
    }
    List<String> feeds = new ArrayList<>(params);
    feeds.add(model.input());
    feeds.add(model.labels());
    GraphExecutor executor = new GraphExecutor(grads.graph());
    CompiledRun applied = executor.compile(feeds, List.of(model.loss()), sgd);
    CompiledRun deferring = executor.compile(feeds, List.of(model.loss()), sgd);
    Map<String, Tensor> init = model.initialParameters(4);
    SplittableRandom rnd = new SplittableRandom(3);
    for (int rows : new int[] {1, 8}) {
      NdArray[] a = new NdArray[feeds.size()];
      NdArray[] d = new NdArray[feeds.size()];
      for (int i = 0; i < params.size(); i++) {
        a[i] = NdArray.fromTensor(init.get(params.get(i)));
        d[i] = a[i].copy();
      }
      NdArray[] batch = CompiledRunTest.batch(rows, 20, DType.FLOAT32, rnd);
      a[feeds.size() - 2] = batch[0];
      d[feeds.size() - 2] = batch[0];
      a[feeds.size() - 1] = batch[1];
      d[feeds.size() - 1] = batch[1];
      NdArray[] start = new NdArray[params.size()];
      for (int i = 0; i < params.size(); i++) {
        start[i] = d[i].copy();
      }
      float lossApplied = applied.run(a)[0].floats()[0];
      List<RankOneUpdate> left = new ArrayList<>();
      float lossDeferred = deferring.runDeferringRankOne(left, d)[0].floats()[0];

      assertThat(lossDeferred).isEqualTo(lossApplied);
      assertThat(left).as("%d rows: updates left", rows).hasSize(rows == 1 ? 3 : 0);
      for (RankOneUpdate u : left) {
        int i = java.util.Arrays.asList(d).indexOf(u.target());
        assertThat(i).isBetween(0, params.size() - 1);
        assertThat(u.target().floats()).as("left as fed").isEqualTo(start[i].floats());
        u.applyTo(u.target().floats());
      }
      for (int i = 0; i < params.size(); i++) {
        assertThat(d[i].floats()).as("%d rows: %s", rows, params.get(i))
            .isEqualTo(a[i].floats());
      }
    }
  }

  /** What {@code Sgd} does: {@code w -= lr * g} in the array's dtype. */
  private static void sgdStep(NdArray w, NdArray g) {
    if (w.dtype() == DType.FLOAT32) {
      float[] p = w.floats();
      float[] d = g.floats();
      for (int i = 0; i < p.length; i++) {
        p[i] -= (float) LR * d[i];
      }
    } else {
      for (int i = 0; i < w.size(); i++) {
        w.set(i, w.get(i) - LR * g.get(i));
      }
    }
  }

  /** y = a b with a [2, 3], b [3, 4], t [2, 4]; all placeholders. */
  private static Graph product() {
    GraphBuilder b = new GraphBuilder();
    b.placeholder("a", DType.FLOAT32, 2, 3);
    b.placeholder("b", DType.FLOAT32, 3, 4);
    b.placeholder("t", DType.FLOAT32, 2, 4);
    b.placeholder("free", DType.FLOAT32, -1, 4);
    b.placeholder("n", DType.INT64, 2, 4);
    b.opNamed("y", "matmul", OpArgs.none(), "a", "b");
    b.opNamed("z", "relu", OpArgs.none(), "y");
    return b.build();
  }

  private static NdArray filled(int rows, int cols, double start) {
    double[] v = new double[rows * cols];
    for (int i = 0; i < v.length; i++) {
      v[i] = start + 0.25 * i;
    }
    return NdArray.fromDoubles(DType.FLOAT32, new int[] {rows, cols}, v);
  }

  /** t + scale * a b, by the definition. */
  private static double[] expected(NdArray a, NdArray b, NdArray t, double scale) {
    double[] out = new double[8];
    for (int i = 0; i < 2; i++) {
      for (int j = 0; j < 4; j++) {
        double s = 0;
        for (int p = 0; p < 3; p++) {
          s += a.get(i * 3 + p) * b.get(p * 4 + j);
        }
        out[i * 4 + j] = t.get(i * 4 + j) + scale * s;
      }
    }
    return out;
  }

  private static void assertValues(NdArray got, double[] want) {
    for (int i = 0; i < want.length; i++) {
      assertThat(got.get(i)).as("element %d", i).isCloseTo(want[i], within(1e-4));
    }
  }

  @Test
  void run_productReadByNothingElse_isFusedAndAdded() {
    CompiledRun run = new GraphExecutor(product()).compile(List.of("a", "b", "t"), List.of(),
        List.of(new Accumulation("y", "t", -2.0)));
    NdArray a = filled(2, 3, -1);
    NdArray b = filled(3, 4, 0.5);
    NdArray t = filled(2, 4, 3);
    double[] want = expected(a, b, t, -2.0);
    assertThat(run.fusedAccumulations()).isEqualTo(1);
    assertThat(run.run(a, b, t)).isEmpty();
    assertValues(t, want);
    // A second run adds again onto the updated array.
    want = expected(a, b, t, -2.0);
    run.run(a, b, t);
    assertValues(t, want);
  }

  @Test
  void run_productAlsoAnOutput_isReturnedAndAddedWithoutFusing() {
    CompiledRun run = new GraphExecutor(product()).compile(List.of("a", "b", "t"), List.of("y"),
        List.of(new Accumulation("y", "t", 0.5)));
    NdArray a = filled(2, 3, -1);
    NdArray b = filled(3, 4, 0.5);
    NdArray t = filled(2, 4, 3);
    double[] want = expected(a, b, t, 0.5);
    NdArray[] out = run.run(a, b, t);
    assertThat(run.fusedAccumulations()).isZero();
    assertValues(t, want);
    assertValues(out[0], expected(a, b, NdArray.zeros(DType.FLOAT32, 2, 4), 1.0));
  }

  @Test
  void run_productReadByAnotherOp_isAddedWithoutFusing() {
    CompiledRun run = new GraphExecutor(product()).compile(List.of("a", "b", "t"), List.of("z"),
        List.of(new Accumulation("y", "t", 1.0)));
    NdArray a = filled(2, 3, -1);
    NdArray b = filled(3, 4, 0.5);
    NdArray t = filled(2, 4, 3);
    double[] want = expected(a, b, t, 1.0);
    run.run(a, b, t);
    assertThat(run.fusedAccumulations()).isZero();
    assertValues(t, want);
  }

  @Test
  void run_targetFedAlsoAsOperand_readsItBeforeWriting() {
    // Fused by name (a and t differ), but one array is fed for both: the product must use the
    // array as it was before the update.
    GraphBuilder g = new GraphBuilder();
    g.placeholder("a", DType.FLOAT32, 2, 2);
    g.placeholder("b", DType.FLOAT32, 2, 2);
    g.placeholder("t", DType.FLOAT32, 2, 2);
    g.opNamed("y", "matmul", OpArgs.none(), "a", "b");
    CompiledRun run = new GraphExecutor(g.build()).compile(List.of("a", "b", "t"), List.of(),
        List.of(new Accumulation("y", "t", 1.0)));
    NdArray w = NdArray.fromDoubles(DType.FLOAT32, new int[] {2, 2}, new double[] {1, 2, 3, 4});
    NdArray b = NdArray.fromDoubles(DType.FLOAT32, new int[] {2, 2}, new double[] {1, 0, 0, 1});
    assertThat(run.fusedAccumulations()).isEqualTo(1);
    run.run(w, b, w);
    // w + w I = 2 w.
    assertThat(w.floats()).containsExactly(2, 4, 6, 8);
  }

  @Test
  void run_productOfTheTargetItself_isNotFusedAndReadsTheOldValue() {
    GraphBuilder g = new GraphBuilder();
    g.placeholder("w", DType.FLOAT64, 2, 2);
    g.opNamed("y", "matmul", OpArgs.none(), "w", "w");
    CompiledRun run = new GraphExecutor(g.build()).compile(List.of("w"), List.of(),
        List.of(new Accumulation("y", "w", -1.0)));
    NdArray w = NdArray.fromDoubles(DType.FLOAT64, new int[] {2, 2}, new double[] {1, 2, 3, 4});
    run.run(w);
    assertThat(run.fusedAccumulations()).isZero();
    // w - w w = [1 2; 3 4] - [7 10; 15 22].
    assertThat(w.doubles()).containsExactly(-6, -8, -12, -18);
  }

  @Test
  void run_valueOfAnotherShapeThanTheFedTarget_failsNamingTheAccumulation() {
    GraphBuilder g = new GraphBuilder();
    g.placeholder("a", DType.FLOAT32, -1, 3);
    g.placeholder("b", DType.FLOAT32, 3, 4);
    g.placeholder("t", DType.FLOAT32, -1, 4);
    g.opNamed("y", "matmul", OpArgs.none(), "a", "b");
    g.opNamed("z", "relu", OpArgs.none(), "y");
    for (String value : List.of("y", "z")) {
      CompiledRun run = new GraphExecutor(g.build()).compile(List.of("a", "b", "t"), List.of(),
          List.of(new Accumulation(value, "t", 1.0)));
      NdArray t = filled(3, 4, 0);
      assertThatThrownBy(() -> run.run(filled(2, 3, 0), filled(3, 4, 0), t))
          .as(value)
          .isInstanceOf(GraphExecutionException.class)
          .hasMessageContaining("accumulation of '" + value + "' into 't'");
    }
  }

  static Stream<Arguments> invalid() {
    return Stream.of(
        Arguments.of(List.of("a", "b", "t"), List.of(), new Accumulation("nope", "t", 1),
            "'nope' is not a variable"),
        Arguments.of(List.of("a", "b", "t"), List.of(), new Accumulation("y", "nope", 1),
            "'nope' is not a variable"),
        Arguments.of(List.of("a", "b"), List.of(), new Accumulation("y", "t", 1),
            "fed placeholder or trainable"),
        Arguments.of(List.of("a", "b", "t"), List.of(), new Accumulation("y", "z", 1),
            "fed placeholder or trainable"),
        Arguments.of(List.of("a", "b", "t"), List.of("t"), new Accumulation("y", "t", 1),
            "also an output"),
        Arguments.of(List.of("a", "b", "t", "n"), List.of(), new Accumulation("y", "n", 1),
            "both must be floating"),
        Arguments.of(List.of("a", "b", "t"), List.of(), new Accumulation("y", "a", 1),
            "both must be floating, of one dtype and shape"));
  }

  @ParameterizedTest(name = "{4}")
  @MethodSource("invalid")
  void compile_badAccumulation_failsNamingIt(List<String> feeds, List<String> outputs,
      Accumulation bad, String message) {
    GraphExecutor executor = new GraphExecutor(product());
    assertThatThrownBy(() -> executor.compile(feeds, outputs, List.of(bad)))
        .isInstanceOf(GraphExecutionException.class)
        .hasMessageContaining("accumulation of '" + bad.output() + "' into '" + bad.target())
        .hasMessageContaining(message);
  }

  @Test
  void compile_twoAccumulationsIntoOneTarget_fails() {
    GraphExecutor executor = new GraphExecutor(product());
    assertThatThrownBy(() -> executor.compile(List.of("a", "b", "t"), List.of(),
        List.of(new Accumulation("y", "t", 1), new Accumulation("z", "t", 1))))
        .isInstanceOf(GraphExecutionException.class)
        .hasMessageContaining("another accumulation has the same target");
  }

  @Test
  void accumulation_nonFiniteScale_isRejected() {
    assertThatThrownBy(() -> new Accumulation("y", "t", Double.NaN))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("scale must be finite");
  }
}
