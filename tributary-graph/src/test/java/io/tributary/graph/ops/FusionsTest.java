package io.tributary.graph.ops;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.graph.Graph;
import io.tributary.graph.GraphBuilder;
import io.tributary.graph.Op;
import io.tributary.graph.OpArgs;
import io.tributary.graph.autodiff.Autodiff;
import io.tributary.graph.autodiff.GradientGraph;
import io.tributary.graph.models.Model;
import io.tributary.graph.models.Models;
import io.tributary.tensor.DType;
import io.tributary.tensor.Tensor;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The fused element-wise ops ({@link Fusions}) against the ops they replace, bit for bit. */
class FusionsTest {
  /** Every kind of float a layer can meet: signed zeros, infinities, NaN, subnormals, extremes. */
  private static final float[] SPECIAL = {0f, -0f, 1f, -1f, Float.NaN, Float.POSITIVE_INFINITY,
      Float.NEGATIVE_INFINITY, Float.MIN_VALUE, -Float.MIN_VALUE, Float.MAX_VALUE,
      -Float.MAX_VALUE, 1e-38f, -1e-38f, 0.5f, -2.5f, 3e30f};

  private static final Op ANY = new Op("fused", "fused", List.of(), List.of(), OpArgs.none());

  @Test
  void biasRelu_specialValues_matchesAddThenRelu() {
    SplittableRandom rnd = new SplittableRandom(3);
    int rows = 7;
    int cols = SPECIAL.length;
    NdArray y = specials(rnd, rows, cols);
    NdArray b = specials(rnd, 1, cols).reshape(cols);
    NdArray fused = Fusions.def(Fusions.BIAS_RELU).orElseThrow()
        .compute(ANY, new NdArray[] {y, b}, null)[0];
    NdArray z = ArithmeticOp.apply(ArithmeticOp.Kind.ADD, y, b);
    NdArray h = UnaryOp.relu().compute(ANY, new NdArray[] {z})[0];
    assertSameBits(fused, h);
  }

  @Test
  void reluGradOfRelu_specialValues_matchesReluGradOfInput() {
    // The fusion feeds relu_grad the relu's output instead of its input: the same bits.
    SplittableRandom rnd = new SplittableRandom(4);
    NdArray z = specials(rnd, 9, SPECIAL.length);
    NdArray g = specials(rnd, 9, SPECIAL.length);
    NdArray h = UnaryOp.relu().compute(ANY, new NdArray[] {z})[0];
    ActivationGradOp grad = new ActivationGradOp("relu_grad", ActivationGradOp.Kind.RELU);
    assertSameBits(grad.compute(ANY, new NdArray[] {g, h})[0],
        grad.compute(ANY, new NdArray[] {g, z})[0]);
  }

  @Test
  void reluGradAndSumToLike_largeValueOnThreads_sameBitsAsOneThread() {
    // Large enough to split over the threads; 48 columns do not split evenly.
    ActivationGradOp grad = new ActivationGradOp("relu_grad", ActivationGradOp.Kind.RELU);
    SumToLikeOp sum = new SumToLikeOp();
    for (int cols : new int[] {32, 48, 5}) {
      SplittableRandom rnd = new SplittableRandom(cols);
      int rows = (1 << 16) / cols + 3;
      NdArray g = specials(rnd, rows, cols);
      NdArray h = specials(rnd, rows, cols);
      NdArray b = NdArray.zeros(DType.FLOAT32, cols);
      NdArray d = grad.compute(ANY, new NdArray[] {g, h})[0];
      NdArray s = sum.compute(ANY, new NdArray[] {d, b})[0];
      // The column sums, each a chain over the rows in order from +0, as sum_to_like defines.
      float[] expected = new float[cols];
      for (int i = 0; i < d.size(); i++) {
        expected[i % cols] += d.floats()[i];
      }
      assertSameBits(s, NdArray.wrapFloats(b.shapeRef(), expected));
      for (int t = 1; t <= 3; t++) {
        GemmKernel kernel = GemmKernel.of(Gemm.Kernel.PORTABLE).withThreads(t);
        NdArray dt = grad.compute(ANY, new NdArray[] {g, h}, null, kernel)[0];
        assertSameBits(dt, d);
        assertSameBits(sum.compute(ANY, new NdArray[] {dt, b}, null, kernel)[0], s);
      }
    }
  }

  @Test
  void plan_2nnTrainingStep_fusesEachLayersBiasRelu() {
    Model model = Models.fedAvg2nn();
    GradientGraph grads = Autodiff.gradients(model.graph(), model.loss(), model.trainableNames());
    List<String> outputs = outputs(model, grads);
    Plan fused = Plan.of(grads.graph(), outputs, List.of(), Map.of(), GemmKernel.DEFAULT);
    assertThat(count(fused, Fusions.BIAS_RELU)).isEqualTo(2);
    assertThat(count(fused, "relu_grad")).isEqualTo(2);
    assertThat(count(fused, "relu")).isZero();
    Plan plain = Plan.of(grads.graph(), outputs, List.of(), Map.of(), GemmKernel.DEFAULT, false);
    assertThat(count(plain, Fusions.BIAS_RELU)).isZero();
    // Two fused pairs, the logits' product and bias, the loss's seed ones_like(loss), a
    // scalar, computed once (Folding), and the mean loss with its gradient, four ops as one.
    assertThat(count(fused, Fusions.MATMUL_BIAS)).isEqualTo(1);
    assertThat(count(fused, LossFusion.TYPE)).isEqualTo(1);
    assertThat(fused.steps().length).isEqualTo(plain.steps().length - 7);
  }

  @Test
  void plan_cnnTrainingStep_fusesEachConvolutionWithItsBiasRelu() {
    Model model = Models.fedAvgCnn();
    GradientGraph grads = Autodiff.gradients(model.graph(), model.loss(), model.trainableNames());
    Plan fused = Plan.of(grads.graph(), outputs(model, grads), List.of(), Map.of(),
        GemmKernel.DEFAULT);
    assertThat(count(fused, Fusions.CONV_BIAS_RELU)).isEqualTo(2);
    assertThat(count(fused, "conv2d")).isZero();
    assertThat(count(fused, Fusions.BIAS_RELU)).isEqualTo(1);
    assertThat(count(fused, "relu_grad")).isEqualTo(3);
  }

  @Test
  void plan_convolutionOutputAsked_isNotFusedWithItsBiasRelu() {
    Model model = Models.fedAvgCnn();
    Plan plan = Plan.of(model.graph(), List.of(model.loss(), "conv1/conv"), List.of(),
        Map.of(), GemmKernel.DEFAULT);
    assertThat(count(plan, Fusions.CONV_BIAS_RELU)).isEqualTo(1);
    assertThat(count(plan, "conv2d")).isEqualTo(1);
  }

  @Test
  void convBiasRelu_float64_fallsBackToTheOpsOwnKernels() {
    SplittableRandom rnd = new SplittableRandom(10);
    Op op = new Op("c", Fusions.CONV_BIAS_RELU, List.of(), List.of(),
        OpArgs.builder().putInt("pad_h", 1).putInt("pad_w", 1).build());
    NdArray x = NdArray.fromDoubles(DType.FLOAT64, new int[] {2, 5, 4, 3},
        rnd.doubles(120, -1, 1).toArray());
    NdArray w = NdArray.fromDoubles(DType.FLOAT64, new int[] {3, 3, 3, 4},
        rnd.doubles(108, -1, 1).toArray());
    NdArray b = NdArray.fromDoubles(DType.FLOAT64, new int[] {4}, rnd.doubles(4, -1, 1).toArray());
    NdArray fused = Fusions.def(Fusions.CONV_BIAS_RELU).orElseThrow()
        .compute(op, new NdArray[] {x, w, b}, null)[0];
    NdArray y = new Conv2dOp("conv2d", Conv2dOp.Kind.FORWARD).compute(op, new NdArray[] {x, w})[0];
    NdArray h = UnaryOp.relu().compute(op, new NdArray[] {
        ArithmeticOp.apply(ArithmeticOp.Kind.ADD, y, b)})[0];
    assertThat(fused.dtype()).isEqualTo(DType.FLOAT64);
    assertThat(fused.asDoubles()).containsExactly(h.asDoubles());
  }

  @Test
  void plan_preActivationAsked_isNotFusedAway() {
    Model model = Models.fedAvg2nn();
    Plan plan = Plan.of(model.graph(), List.of(model.loss(), "hidden1/add"), List.of(),
        Map.of(), GemmKernel.DEFAULT);
    assertThat(count(plan, Fusions.BIAS_RELU)).isEqualTo(1);
  }

  @Test
  void matmulBias_specialValuesAndTransposes_matchMatMulThenAdd() {
    SplittableRandom rnd = new SplittableRandom(9);
    int cols = SPECIAL.length;
    OpDef def = Fusions.def(Fusions.MATMUL_BIAS).orElseThrow();
    for (boolean ta : new boolean[] {false, true}) {
      for (boolean tb : new boolean[] {false, true}) {
        NdArray a = ta ? specials(rnd, 4, 6) : specials(rnd, 6, 4);
        NdArray w = tb ? specials(rnd, cols, 4) : specials(rnd, 4, cols);
        NdArray b = specials(rnd, 1, cols).reshape(cols);
        Op op = new Op("fused", Fusions.MATMUL_BIAS, List.of(), List.of(),
            OpArgs.builder().putBool("transpose_a", ta).putBool("transpose_b", tb).build());
        NdArray fused = def.compute(op, new NdArray[] {a, w, b}, null, GemmKernel.DEFAULT)[0];
        NdArray m = MatMulOp.multiply(a, w, ta, tb);
        assertSameBits(fused, ArithmeticOp.apply(ArithmeticOp.Kind.ADD, m, b));
        // Again into its own previous output, as a compiled run offers it.
        NdArray again = def.compute(op, new NdArray[] {a, w, b}, new NdArray[] {fused},
            GemmKernel.DEFAULT)[0];
        assertThat(again).isSameAs(fused);
        assertSameBits(again, ArithmeticOp.apply(ArithmeticOp.Kind.ADD, m, b));
      }
    }
  }

  @Test
  void plan_mclrTrainingStep_fusesTheProductAndItsBias() {
    Model model = Models.mclr();
    GradientGraph grads = Autodiff.gradients(model.graph(), model.loss(), model.trainableNames());
    List<String> outputs = outputs(model, grads);
    Plan fused = Plan.of(grads.graph(), outputs, List.of(), Map.of(), GemmKernel.DEFAULT);
    assertThat(count(fused, Fusions.MATMUL_BIAS)).isEqualTo(1);
    assertThat(count(fused, "add")).isZero();
    SplittableRandom rnd = new SplittableRandom(10);
    Map<String, NdArray> feeds = new HashMap<>();
    for (Map.Entry<String, Tensor> e : model.initialParameters(13).entrySet()) {
      feeds.put(e.getKey(), NdArray.fromTensor(e.getValue()));
    }
    feeds.put(model.input(), specials(rnd, 10, 60));
    feeds.put(model.labels(), labels(rnd, 10));
    assertSameOutputs(run(fused, feeds), run(Plan.of(grads.graph(), outputs, List.of(), Map.of(),
        GemmKernel.DEFAULT, false), feeds));
  }

  @Test
  void plan_productAsked_isNotFusedAway() {
    Model model = Models.mclr();
    Plan plan = Plan.of(model.graph(), List.of(model.loss(), "dense/matmul"), List.of(),
        Map.of(), GemmKernel.DEFAULT);
    assertThat(count(plan, Fusions.MATMUL_BIAS)).isZero();
  }

  @Test
  void execute_2nnGradients_matchUnfusedBitForBit() {
    Model model = Models.fedAvg2nn();
    SplittableRandom rnd = new SplittableRandom(7);
    assertFusedMatches(model, random(rnd, 32, 784), labels(rnd, 32));
  }

  @Test
  void execute_cnnGradients_matchUnfusedBitForBit() {
    Model model = Models.fedAvgCnn();
    SplittableRandom rnd = new SplittableRandom(8);
    assertFusedMatches(model, random(rnd, 3, 28 * 28).reshape(3, 28, 28, 1), labels(rnd, 3));
  }

  @Test
  void execute_biasBeforeValue_fallsBackToTheOpsOwnKernels() {
    // add(b, y): the bias is the first operand, which the one-pass loop does not take.
    GraphBuilder gb = new GraphBuilder();
    String x = gb.placeholder("x", DType.FLOAT32, -1, 5);
    String w = gb.trainable("w", DType.FLOAT32, 5, 3);
    String b = gb.trainable("b", DType.FLOAT32, 3);
    String y = gb.opNamed("mm", "matmul", OpArgs.none(), x, w);
    String z = gb.opNamed("add", "add", OpArgs.none(), b, y);
    String h = gb.opNamed("relu", "relu", OpArgs.none(), z);
    String loss = gb.opNamed("loss", "reduce_sum", OpArgs.none(), h);
    Graph graph = gb.build();
    GradientGraph grads = Autodiff.gradients(graph, loss, List.of(w, b));
    List<String> outputs = List.of(loss, grads.gradientOf(w), grads.gradientOf(b));
    SplittableRandom rnd = new SplittableRandom(9);
    Map<String, NdArray> feeds = Map.of(x, random(rnd, 6, 5), w, random(rnd, 5, 3),
        b, random(rnd, 1, 3).reshape(3));
    Plan fused = Plan.of(grads.graph(), outputs, List.of(), Map.of(), GemmKernel.DEFAULT);
    assertThat(count(fused, Fusions.BIAS_RELU)).isEqualTo(1);
    assertSameOutputs(run(fused, feeds), run(Plan.of(grads.graph(), outputs, List.of(),
        Map.of(), GemmKernel.DEFAULT, false), feeds));
  }

  @Test
  void compiledRun_sgdStepsOverChangingBatches_matchUnfusedAndReuseBuffers() {
    Model model = Models.fedAvg2nn();
    GradientGraph grads = Autodiff.gradients(model.graph(), model.loss(), model.trainableNames());
    List<String> feeds = new ArrayList<>(model.trainableNames());
    feeds.add(model.input());
    feeds.add(model.labels());
    List<Accumulation> sgd = new ArrayList<>();
    for (String t : model.trainableNames()) {
      sgd.add(new Accumulation(grads.gradientOf(t), t, -0.05));
    }
    // The loss and one bias gradient, which the fused backward op writes.
    List<String> outputs = List.of(model.loss(), grads.gradientOf("hidden2/bias"));
    CompiledRun fused = new CompiledRun(Plan.of(grads.graph(), outputs, sgd, Map.of(),
        GemmKernel.DEFAULT), feeds, outputs);
    CompiledRun plain = new CompiledRun(Plan.of(grads.graph(), outputs, sgd, Map.of(),
        GemmKernel.DEFAULT, false), feeds, outputs);
    List<NdArray> paramsFused = new ArrayList<>();
    List<NdArray> paramsPlain = new ArrayList<>();
    for (Map.Entry<String, Tensor> e : model.initialParameters(11).entrySet()) {
      paramsFused.add(NdArray.fromTensor(e.getValue()));
      paramsPlain.add(NdArray.fromTensor(e.getValue()));
    }
    assertThat(model.initialParameters(11).keySet()).containsExactlyElementsOf(
        model.trainableNames());
    SplittableRandom rnd = new SplittableRandom(12);
    NdArray lastBiasGrad = null;
    int[] sizes = {32, 32, 17, 32, 32};
    for (int s = 0; s < sizes.length; s++) {
      NdArray x = random(rnd, sizes[s], 784);
      NdArray y = labels(rnd, sizes[s]);
      NdArray[] a = fused.run(values(paramsFused, x, y));
      NdArray[] p = plain.run(values(paramsPlain, x, y));
      assertSameBits(a[0], p[0]);
      assertSameBits(a[1], p[1]);
      if (s == 4) {
        // Two steps of one batch size in a row: the fused op wrote into its own array again.
        assertThat(a[1]).isSameAs(lastBiasGrad);
      }
      lastBiasGrad = a[1];
    }
    for (int i = 0; i < paramsFused.size(); i++) {
      assertSameBits(paramsFused.get(i), paramsPlain.get(i));
    }
  }

  private static NdArray[] values(List<NdArray> params, NdArray x, NdArray y) {
    List<NdArray> v = new ArrayList<>(params);
    v.add(x);
    v.add(y);
    return v.toArray(new NdArray[0]);
  }

  private static void assertFusedMatches(Model model, NdArray x, NdArray y) {
    GradientGraph grads = Autodiff.gradients(model.graph(), model.loss(), model.trainableNames());
    List<String> outputs = outputs(model, grads);
    Map<String, NdArray> feeds = new HashMap<>();
    for (Map.Entry<String, Tensor> e : model.initialParameters(13).entrySet()) {
      feeds.put(e.getKey(), NdArray.fromTensor(e.getValue()));
    }
    feeds.put(model.input(), x);
    feeds.put(model.labels(), y);
    Plan fused = Plan.of(grads.graph(), outputs, List.of(), Map.of(), GemmKernel.DEFAULT);
    Plan plain = Plan.of(grads.graph(), outputs, List.of(), Map.of(), GemmKernel.DEFAULT, false);
    assertThat(count(fused, Fusions.BIAS_RELU)).isPositive();
    assertSameOutputs(run(fused, feeds), run(plain, feeds));
  }

  private static List<String> outputs(Model model, GradientGraph grads) {
    List<String> outputs = new ArrayList<>(List.of(model.loss()));
    for (String t : model.trainableNames()) {
      outputs.add(grads.gradientOf(t));
    }
    return outputs;
  }

  private static NdArray[] run(Plan plan, Map<String, NdArray> feeds) {
    NdArray[] env = plan.newValues();
    for (int i = 0; i < plan.needed().length; i++) {
      env[plan.neededSlots()[i]] = feeds.get(plan.needed()[i].name());
    }
    plan.execute(env, null, plan.newAccepted(), null);
    NdArray[] out = new NdArray[plan.outputSlots().length];
    for (int k = 0; k < out.length; k++) {
      out[k] = env[plan.outputSlots()[k]];
    }
    return out;
  }

  private static int count(Plan plan, String type) {
    return (int) Arrays.stream(plan.steps()).filter(s -> s.op().type().equals(type)).count();
  }

  private static void assertSameOutputs(NdArray[] a, NdArray[] b) {
    assertThat(a).hasSameSizeAs(b);
    for (int i = 0; i < a.length; i++) {
      try {
        assertSameBits(a[i], b[i]);
      } catch (AssertionError e) {
        throw new AssertionError("output " + i + ": " + e.getMessage(), e);
      }
    }
  }

  private static void assertSameBits(NdArray fused, NdArray unfused) {
    FusedPlans.assertSameBits(fused, unfused, "value");
  }

  private static NdArray random(SplittableRandom rnd, int rows, int cols) {
    float[] v = new float[rows * cols];
    for (int i = 0; i < v.length; i++) {
      v[i] = (float) rnd.nextGaussian();
    }
    return NdArray.wrapFloats(new int[] {rows, cols}, v);
  }

  /** Random picks from {@link #SPECIAL} and normal values. */
  private static NdArray specials(SplittableRandom rnd, int rows, int cols) {
    float[] v = new float[rows * cols];
    for (int i = 0; i < v.length; i++) {
      v[i] = rnd.nextBoolean() ? SPECIAL[rnd.nextInt(SPECIAL.length)] : (float) rnd.nextGaussian();
    }
    return NdArray.wrapFloats(new int[] {rows, cols}, v);
  }

  private static NdArray labels(SplittableRandom rnd, int rows) {
    long[] y = new long[rows];
    for (int i = 0; i < rows; i++) {
      y[i] = rnd.nextInt(10);
    }
    return NdArray.wrapLongs(DType.INT64, new int[] {rows}, y);
  }
}
