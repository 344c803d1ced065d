package io.tributary.graph.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.graph.Graph;
import io.tributary.graph.GraphBuilder;
import io.tributary.graph.GraphExecutionException;
import io.tributary.graph.autodiff.Autodiff;
import io.tributary.graph.autodiff.GradientGraph;
import io.tributary.graph.local.LocalTraining;
import io.tributary.graph.models.Model;
import io.tributary.graph.models.Models;
import io.tributary.tensor.DType;
import io.tributary.tensor.Tensor;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.assertj.core.data.Offset;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

class CompiledRunTest {
  /** A model's training step: the loss (or FedProx objective) and every parameter's gradient. */
  private record TrainingStep(Graph graph, List<String> feeds, List<String> outputs,
      Map<String, NdArray> fixed) {}

  private static TrainingStep step(Model model, double mu, DType dtype, long seed) {
    Graph graph = mu > 0 ? LocalTraining.withProximalTerm(model, mu) : model.graph();
    String objective = mu > 0 ? LocalTraining.OBJECTIVE : model.loss();
    GradientGraph grads = Autodiff.gradients(graph, objective, model.trainableNames());
    List<String> feeds = new ArrayList<>(model.trainableNames());
    List<String> outputs = new ArrayList<>(List.of(objective));
    Map<String, NdArray> fixed = new HashMap<>();
    SplittableRandom rnd = new SplittableRandom(seed);
    for (Map.Entry<String, Tensor> e : model.initialParameters(seed).entrySet()) {
      NdArray w = convert(NdArray.fromTensor(e.getValue()), dtype);
      fixed.put(e.getKey(), w);
      outputs.add(grads.gradientOf(e.getKey()));
      if (mu > 0) {
        NdArray anchor = w.copy();
        for (int i = 0; i < anchor.size(); i++) {
          anchor.set(i, anchor.get(i) + rnd.nextDouble(-0.1, 0.1));
        }
        String name = LocalTraining.ANCHOR_PREFIX + e.getKey();
        fixed.put(name, anchor);
        feeds.add(name);
      }
    }
    feeds.add(model.input());
    feeds.add(model.labels());
    return new TrainingStep(grads.graph(), feeds, outputs, fixed);
  }

  private static NdArray convert(NdArray a, DType dtype) {
    double[] v = new double[a.size()];
    for (int i = 0; i < v.length; i++) {
      v[i] = a.get(i);
    }
    return NdArray.fromDoubles(dtype, a.shape(), v);
  }

  /** A random batch: x [rows, features] of normal values, y [rows] of labels in [0, 10). */
  static NdArray[] batch(int rows, int features, DType dtype, SplittableRandom rnd) {
    double[] x = new double[rows * features];
    for (int i = 0; i < x.length; i++) {
      x[i] = rnd.nextGaussian();
    }
    long[] y = new long[rows];
    for (int i = 0; i < rows; i++) {
      y[i] = rnd.nextInt(10);
    }
    return new NdArray[] {NdArray.fromDoubles(dtype, new int[] {rows, features}, x),
        NdArray.wrapLongs(DType.INT64, new int[] {rows}, y)};
  }

  private static NdArray[] feeds(TrainingStep s, NdArray[] batch) {
    NdArray[] v = new NdArray[s.feeds().size()];
    for (int i = 0; i < v.length - 2; i++) {
      v[i] = s.fixed().get(s.feeds().get(i));
    }
    v[v.length - 2] = batch[0];
    v[v.length - 1] = batch[1];
    return v;
  }

  private static Map<String, NdArray> asMap(TrainingStep s, NdArray[] values) {
    Map<String, NdArray> m = new HashMap<>();
    for (int i = 0; i < values.length; i++) {
      m.put(s.feeds().get(i), values[i]);
    }
    return m;
  }

  static Stream<Arguments> models() {
    return Stream.of(
        Arguments.of("mclr", Models.softmaxRegression("mclr", 60, 10, DType.FLOAT32), 60, 0.0),
        Arguments.of("mclr, proximal", Models.softmaxRegression("mclr", 60, 10, DType.FLOAT32),
            60, 0.5),
        Arguments.of("mlp", Models.mlp("mlp", 20, 16, 10, DType.FLOAT32), 20, 0.0),
        Arguments.of("mlp, proximal", Models.mlp("mlp", 20, 16, 10, DType.FLOAT32), 20, 2.0));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("models")
  void run_repeatedBatchesOfChangingSize_equalsUncompiledRunsBitForBit(String name, Model model,
      int features, double mu) {
    TrainingStep s = step(model, mu, DType.FLOAT32, 3);
    GraphExecutor executor = new GraphExecutor(s.graph());
    CompiledRun compiled = executor.compile(s.feeds(), s.outputs());
    SplittableRandom rnd = new SplittableRandom(11);
    // Same size twice (buffers reused), a smaller last batch (reallocated), then the size again.
    for (int rows : new int[] {10, 10, 3, 10}) {
      NdArray[] values = feeds(s, batch(rows, features, DType.FLOAT32, rnd));
      NdArray[] got = compiled.run(values);
      Map<String, NdArray> want = new GraphExecutor(s.graph()).run(asMap(s, values), s.outputs());
      for (int k = 0; k < got.length; k++) {
        String out = s.outputs().get(k);
        assertThat(got[k].shape()).as("%s, %d rows: %s", name, rows, out)
            .isEqualTo(want.get(out).shape());
        assertThat(got[k].floats()).as("%s, %d rows: %s", name, rows, out)
            .isEqualTo(want.get(out).floats());
      }
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("models")
  void run_float32_matchesFloat64WithinRounding(String name, Model unused, int features,
      double mu) {
    // The float64 kernels are the ones the finite-difference checks cover; the float32 fast
    // paths must compute the same functions.
    Model f32 = features == 60 ? Models.softmaxRegression("m", 60, 10, DType.FLOAT32)
        : Models.mlp("m", 20, 16, 10, DType.FLOAT32);
    Model f64 = features == 60 ? Models.softmaxRegression("m", 60, 10, DType.FLOAT64)
        : Models.mlp("m", 20, 16, 10, DType.FLOAT64);
    TrainingStep s32 = step(f32, mu, DType.FLOAT32, 5);
    TrainingStep s64 = step(f64, mu, DType.FLOAT64, 5);
    NdArray[] b32 = batch(10, features, DType.FLOAT32, new SplittableRandom(2));
    NdArray[] b64 = {convert(b32[0], DType.FLOAT64), b32[1]};
    NdArray[] got = new GraphExecutor(s32.graph()).compile(s32.feeds(), s32.outputs())
        .run(feeds(s32, b32));
    NdArray[] want = new GraphExecutor(s64.graph()).compile(s64.feeds(), s64.outputs())
        .run(feeds(s64, b64));
    for (int k = 0; k < got.length; k++) {
      assertThat(got[k].dtype()).isEqualTo(DType.FLOAT32);
      for (int i = 0; i < got[k].size(); i++) {
        double w = want[k].get(i);
        assertThat(got[k].get(i)).as("%s: %s[%d]", name, s32.outputs().get(k), i)
            .isCloseTo(w, Offset.offset(1e-5 + 1e-4 * Math.abs(w)));
      }
    }
  }

  private static Graph reluOfSum() {
    GraphBuilder b = new GraphBuilder();
    String x = b.placeholder("x", DType.FLOAT32, -1, 3);
    String bias = b.placeholder("b", DType.FLOAT32, 3);
    b.opNamed("y", "relu", io.tributary.graph.OpArgs.none(),
        b.opNamed("sum", "add", io.tributary.graph.OpArgs.none(), x, bias));
    return b.build();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("models")
  void compile_lossAndItsGradient_computeTheirExponentialsOnce(String name, Model model,
      int features, double mu) {
    TrainingStep s = step(model, mu, DType.FLOAT32, 3);
    List<String> withLoss = new ArrayList<>(s.outputs());
    if (!withLoss.contains(model.loss())) {
      withLoss.add(model.loss());
    }
    CompiledRun compiled = new GraphExecutor(s.graph()).compile(s.feeds(), withLoss);
    // One fused op computes the mean loss and its gradient; the pairing is for plans it misses.
    assertThat(compiled.fusedLosses()).as(name).isEqualTo(1);
    assertThat(compiled.sharedSoftmaxPairs()).as(name).isZero();
    NdArray[] values = feeds(s, batch(7, features, DType.FLOAT32, new SplittableRandom(5)));
    NdArray[] got = compiled.run(values);
    Map<String, NdArray> want = new GraphExecutor(s.graph()).run(asMap(s, values), withLoss);
    for (int k = 0; k < got.length; k++) {
      assertThat(got[k].floats()).as("%s: %s", name, withLoss.get(k))
          .isEqualTo(want.get(withLoss.get(k)).floats());
    }
  }

  @Test
  void compile_perExampleLossAndGradient_shareOneSoftmaxBuffer() {
    // The per-example losses asked for keep the loss unfused; its two halves still pair.
    Model model = Models.softmaxRegression("mclr", 60, 10, DType.FLOAT32);
    TrainingStep s = step(model, 0.0, DType.FLOAT32, 3);
    List<String> outputs = new ArrayList<>(s.outputs());
    outputs.add("loss/cross_entropy");
    CompiledRun compiled = new GraphExecutor(s.graph()).compile(s.feeds(), outputs);
    assertThat(compiled.fusedLosses()).isZero();
    assertThat(compiled.sharedSoftmaxPairs()).isEqualTo(1);
    NdArray[] values = feeds(s, batch(7, 60, DType.FLOAT32, new SplittableRandom(6)));
    NdArray[] got = compiled.run(values);
    Map<String, NdArray> want = new GraphExecutor(s.graph()).run(asMap(s, values), outputs);
    for (int k = 0; k < got.length; k++) {
      assertThat(got[k].floats()).as(outputs.get(k))
          .isEqualTo(want.get(outputs.get(k)).floats());
    }
  }

  @Test
  void compile_lossOnly_sharesNothing() {
    Model model = Models.softmaxRegression("mclr", 60, 10, DType.FLOAT32);
    TrainingStep s = step(model, 0.0, DType.FLOAT32, 3);
    // No gradient is planned, so the loss has nothing to pair with.
    CompiledRun compiled = new GraphExecutor(s.graph()).compile(s.feeds(), List.of(model.loss()));
    NdArray[] values = feeds(s, batch(4, 60, DType.FLOAT32, new SplittableRandom(9)));
    NdArray got = compiled.run(values)[0];
    Map<String, NdArray> want = new GraphExecutor(s.graph()).run(asMap(s, values),
        List.of(model.loss()));
    assertThat(compiled.sharedSoftmaxPairs()).isZero();
    assertThat(got.floats()).isEqualTo(want.get(model.loss()).floats());
  }

  @Test
  void run_sameShapeTwice_reusesTheOutputArray() {
    CompiledRun run = new GraphExecutor(reluOfSum()).compile(List.of("x", "b"), List.of("y"));
    NdArray bias = NdArray.wrapFloats(new int[] {3}, new float[] {1, -1, 0});
    NdArray first = run.run(NdArray.wrapFloats(new int[] {1, 3}, new float[] {1, 2, -3}), bias)[0];
    assertThat(first.floats()).containsExactly(2f, 1f, 0f);
    NdArray second = run.run(NdArray.wrapFloats(new int[] {1, 3}, new float[] {0, 5, 4}), bias)[0];
    assertThat(second).isSameAs(first);
    assertThat(second.floats()).containsExactly(1f, 4f, 4f);
  }

  @Test
  void run_twoBatchSizesAlternating_reusesEachSizesArray() {
    CompiledRun run = new GraphExecutor(reluOfSum()).compile(List.of("x", "b"), List.of("y"));
    NdArray bias = NdArray.wrapFloats(new int[] {3}, new float[] {1, -1, 0});
    NdArray full = run.run(NdArray.wrapFloats(new int[] {2, 3}, new float[6]), bias)[0];
    NdArray last = run.run(NdArray.wrapFloats(new int[] {1, 3}, new float[3]), bias)[0];
    NdArray fullAgain = run.run(NdArray.wrapFloats(new int[] {2, 3},
        new float[] {1, 2, -3, 0, 5, 4}), bias)[0];
    assertThat(fullAgain).isSameAs(full);
    assertThat(fullAgain.floats()).containsExactly(2f, 1f, 0f, 1f, 4f, 4f);
    NdArray lastAgain = run.run(NdArray.wrapFloats(new int[] {1, 3}, new float[] {0, 5, 4}),
        bias)[0];
    assertThat(lastAgain).isSameAs(last);
    assertThat(lastAgain.floats()).containsExactly(1f, 4f, 4f);
  }

  @Test
  void run_alternatingSizesWithAnOutputFedBackIn_neverOverwritesIt() {
    CompiledRun run = new GraphExecutor(reluOfSum()).compile(List.of("x", "b"), List.of("y"));
    NdArray bias = NdArray.wrapFloats(new int[] {3}, new float[] {1, 1, 1});
    NdArray full = run.run(NdArray.wrapFloats(new int[] {2, 3}, new float[] {1, 2, 3, 4, 5, 6}),
        bias)[0];
    run.run(NdArray.wrapFloats(new int[] {1, 3}, new float[3]), bias);
    // full sits in the spare set now; fed back, it must not be offered as the next output.
    NdArray next = run.run(full, bias)[0];
    assertThat(next).isNotSameAs(full);
    assertThat(full.floats()).containsExactly(2f, 3f, 4f, 5f, 6f, 7f);
    assertThat(next.floats()).containsExactly(3f, 4f, 5f, 6f, 7f, 8f);
  }

  @Test
  void run_outputFedBackIn_isNeverOverwritten() {
    CompiledRun run = new GraphExecutor(reluOfSum()).compile(List.of("x", "b"), List.of("y"));
    NdArray bias = NdArray.wrapFloats(new int[] {3}, new float[] {1, 1, 1});
    NdArray y = run.run(NdArray.wrapFloats(new int[] {1, 3}, new float[] {1, 2, 3}), bias)[0];
    // y is this run's own buffer; fed back as x, the next result must go elsewhere.
    NdArray next = run.run(y, bias)[0];
    assertThat(y.floats()).containsExactly(2f, 3f, 4f);
    assertThat(next.floats()).containsExactly(3f, 4f, 5f);
    assertThat(next).isNotSameAs(y);
  }

  @Test
  void fresh_givesARunWithItsOwnArrays() {
    CompiledRun a = new GraphExecutor(reluOfSum()).compile(List.of("x", "b"), List.of("y"));
    CompiledRun b = a.fresh();
    NdArray bias = NdArray.wrapFloats(new int[] {3}, new float[] {0, 0, 0});
    NdArray ya = a.run(NdArray.wrapFloats(new int[] {1, 3}, new float[] {1, 2, 3}), bias)[0];
    NdArray yb = b.run(NdArray.wrapFloats(new int[] {1, 3}, new float[] {4, 5, 6}), bias)[0];
    assertThat(ya).isNotSameAs(yb);
    assertThat(ya.floats()).containsExactly(1f, 2f, 3f);
    assertThat(b.feeds()).isEqualTo(a.feeds());
    assertThat(b.outputs()).isEqualTo(a.outputs());
  }

  @Test
  void compile_neededPlaceholderNotFed_throwsNamingIt() {
    GraphExecutor e = new GraphExecutor(reluOfSum());
    assertThatThrownBy(() -> e.compile(List.of("x"), List.of("y")))
        .isInstanceOf(GraphExecutionException.class).hasMessageContaining("'b'");
  }

  @Test
  void compile_unknownName_throwsNamingIt() {
    GraphExecutor e = new GraphExecutor(reluOfSum());
    assertThatThrownBy(() -> e.compile(List.of("x", "b", "z"), List.of("y")))
        .isInstanceOf(GraphExecutionException.class).hasMessageContaining("feed 'z'");
    assertThatThrownBy(() -> e.compile(List.of("x", "b"), List.of("w")))
        .isInstanceOf(GraphExecutionException.class).hasMessageContaining("output 'w'");
  }

  @Test
  void run_valueOfWrongShapeOrCount_throwsNamingTheFeed() {
    CompiledRun run = new GraphExecutor(reluOfSum()).compile(List.of("x", "b"), List.of("y"));
    NdArray x = NdArray.wrapFloats(new int[] {1, 3}, new float[] {1, 2, 3});
    assertThatThrownBy(() -> run.run(x, NdArray.wrapFloats(new int[] {2}, new float[] {1, 2})))
        .isInstanceOf(GraphExecutionException.class).hasMessageContaining("'b'");
    assertThatThrownBy(() -> run.run(x))
        .isInstanceOf(GraphExecutionException.class).hasMessageContaining("expected 2 values");
    assertThatThrownBy(() -> run.run(x, null))
        .isInstanceOf(GraphExecutionException.class).hasMessageContaining("'b'");
  }
}
