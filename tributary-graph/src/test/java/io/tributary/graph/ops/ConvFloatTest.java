package io.tributary.graph.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.tributary.graph.Graph;
import io.tributary.graph.GraphBuilder;
import io.tributary.graph.OpArgs;
import io.tributary.graph.ops.Gemm.Kernel;
import io.tributary.tensor.DType;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The float32 convolution and pooling kernels: against the float64 path, and the same bits on
 * every Java implementation and thread count.
 */
class ConvFloatTest {
  private static final List<String> OUTPUTS = List.of("y", "dx", "dw", "p", "dp");

  /** A conv2d, its two gradients, a max-pool of its output and the pool's gradient. */
  private static Graph graph(DType dt, int n, int h, int w, int cin, int kh, int kw, int cout,
      int stride, int pad, int pool, int poolStride) {
    GraphBuilder b = new GraphBuilder();
    b.placeholder("x", dt, n, h, w, cin);
    b.placeholder("w", dt, kh, kw, cin, cout);
    OpArgs conv = OpArgs.builder().putInt("stride_h", stride).putInt("stride_w", stride)
        .putInt("pad_h", pad).putInt("pad_w", pad).build();
    b.opNamed("y", "conv2d", conv, "x", "w");
    b.placeholder("g", dt, -1, -1, -1, cout);
    b.opNamed("dx", "conv2d_input_grad", conv, "g", "x", "w");
    b.opNamed("dw", "conv2d_filter_grad", conv, "g", "x", "w");
    OpArgs pooling = OpArgs.builder().putInt("kernel_h", pool).putInt("kernel_w", pool)
        .putInt("stride_h", poolStride).putInt("stride_w", poolStride).build();
    b.opNamed("p", "max_pool", pooling, "y");
    b.placeholder("gp", dt, -1, -1, -1, cout);
    b.opNamed("dp", "max_pool_grad", pooling, "gp", "y");
    return b.build();
  }

  static Stream<Arguments> shapes() {
    // n, h, w, cin, kh, kw, cout, stride, pad, pool, pool stride
    return Stream.of(
        Arguments.of(32, 28, 28, 1, 5, 5, 32, 1, 2, 2, 2),
        Arguments.of(6, 14, 14, 32, 5, 5, 64, 1, 2, 2, 2),
        Arguments.of(5, 9, 7, 3, 3, 2, 17, 2, 1, 3, 2),
        Arguments.of(3, 6, 6, 5, 1, 1, 9, 1, 0, 2, 1),
        Arguments.of(1, 4, 5, 2, 4, 5, 3, 1, 0, 1, 1));
  }

  private static Map<String, NdArray> run(Graph graph, GemmKernel kernel, DType dt, int[] xs,
      int[] ws, int[] ys, int[] ps) {
    SplittableRandom rnd = new SplittableRandom(7);
    return new GraphExecutor(graph, kernel).run(Map.of(
        "x", random(dt, xs, rnd), "w", random(dt, ws, rnd), "g", random(dt, ys, rnd),
        "gp", random(dt, ps, rnd)), OUTPUTS);
  }

  private static NdArray random(DType dt, int[] shape, SplittableRandom rnd) {
    double[] v = new double[NdArray.sizeOf(shape)];
    for (int i = 0; i < v.length; i++) {
      // Multiples of 1/64, so that float32 holds them exactly and both dtypes see one input.
      v[i] = rnd.nextInt(-64, 65) / 64.0;
    }
    return NdArray.fromDoubles(dt, shape, v);
  }

  private static int out(int in, int k, int stride, int pad) {
    return (in + 2 * pad - k) / stride + 1;
  }

  @ParameterizedTest
  @MethodSource("shapes")
  void float32_anyShape_matchesFloat64AndGivesTheSameBitsOnEveryKernelAndThreadCount(int n, int h,
      int w, int cin, int kh, int kw, int cout, int stride, int pad, int pool, int poolStride) {
    int oh = out(h, kh, stride, pad);
    int ow = out(w, kw, stride, pad);
    int[] xs = {n, h, w, cin};
    int[] ws = {kh, kw, cin, cout};
    int[] ys = {n, oh, ow, cout};
    int[] ps = {n, out(oh, pool, poolStride, 0), out(ow, pool, poolStride, 0), cout};
    Graph g32 = graph(DType.FLOAT32, n, h, w, cin, kh, kw, cout, stride, pad, pool, poolStride);
    Graph g64 = graph(DType.FLOAT64, n, h, w, cin, kh, kw, cout, stride, pad, pool, poolStride);

    Map<String, NdArray> reference = run(g64, GemmKernel.DEFAULT, DType.FLOAT64, xs, ws, ys, ps);
    Map<String, NdArray> one = run(g32, GemmKernel.DEFAULT, DType.FLOAT32, xs, ws, ys, ps);

    for (String name : List.of("y", "dx", "dw")) {
      NdArray r = reference.get(name);
      NdArray f = one.get(name);
      assertThat(f.shape()).isEqualTo(r.shape());
      for (int i = 0; i < r.size(); i++) {
        assertThat(f.get(i)).as("%s[%d]", name, i)
            .isCloseTo(r.get(i), within(1e-5 * (1 + Math.abs(r.get(i)))));
      }
    }
    for (Kernel impl : List.of(Kernel.VECTOR, Kernel.PORTABLE)) {
      for (int threads = 1; threads <= 3; threads++) {
        GemmKernel k = GemmKernel.of(impl).withThreads(threads);
        Map<String, NdArray> other = run(g32, k, DType.FLOAT32, xs, ws, ys, ps);
        for (String name : OUTPUTS) {
          assertThat(other.get(name).floats()).as("%s on %s", name, k)
              .isEqualTo(one.get(name).floats());
        }
      }
    }
  }

  @Test
  void maxPool_float32_equalsTheFloat64PathExactly() {
    Graph g32 = graph(DType.FLOAT32, 4, 8, 8, 3, 3, 3, 6, 1, 1, 2, 2);
    Graph g64 = graph(DType.FLOAT64, 4, 8, 8, 3, 3, 3, 6, 1, 1, 2, 2);
    int[] xs = {4, 8, 8, 3};
    int[] ws = {3, 3, 3, 6};
    int[] ys = {4, 8, 8, 6};
    int[] ps = {4, 4, 4, 6};

    Map<String, NdArray> f = run(g32, GemmKernel.DEFAULT, DType.FLOAT32, xs, ws, ys, ps);
    Map<String, NdArray> d = run(g64, GemmKernel.DEFAULT, DType.FLOAT64, xs, ws, ys, ps);

    // The pool picks an input and each input gets at most one gradient: no rounding at all, given
    // the same input (the convolution's output, rounded to float32 for both).
    NdArray y = f.get("y");
    double[] ys64 = new double[y.size()];
    for (int i = 0; i < ys64.length; i++) {
      ys64[i] = y.get(i);
    }
    SplittableRandom rnd = new SplittableRandom(3);
    NdArray gp = random(DType.FLOAT64, ps, rnd);
    Graph only = poolGraph(DType.FLOAT64);
    Graph only32 = poolGraph(DType.FLOAT32);
    Map<String, NdArray> p64 = new GraphExecutor(only).run(Map.of("y",
        NdArray.fromDoubles(DType.FLOAT64, ys, ys64), "gp", gp), List.of("p", "dp"));
    Map<String, NdArray> p32 = new GraphExecutor(only32).run(Map.of("y", y, "gp",
        NdArray.fromDoubles(DType.FLOAT32, ps, gp.asDoubles())), List.of("p", "dp"));
    for (String name : List.of("p", "dp")) {
      for (int i = 0; i < p64.get(name).size(); i++) {
        assertThat(p32.get(name).get(i)).as("%s[%d]", name, i).isEqualTo(p64.get(name).get(i));
      }
    }
    assertThat(d.get("p").shape()).isEqualTo(f.get("p").shape());
  }

  private static Graph poolGraph(DType dt) {
    GraphBuilder b = new GraphBuilder();
    b.placeholder("y", dt, 4, 8, 8, 6);
    OpArgs pooling = OpArgs.builder().putInt("kernel_h", 2).putInt("kernel_w", 2).build();
    b.opNamed("p", "max_pool", pooling, "y");
    b.placeholder("gp", dt, 4, 4, 4, 6);
    b.opNamed("dp", "max_pool_grad", pooling, "gp", "y");
    return b.build();
  }

  @Test
  void compiledRun_repeatedSteps_reusesBuffersAndGivesTheSameResults() {
    Graph g = graph(DType.FLOAT32, 8, 12, 12, 4, 5, 5, 16, 1, 2, 2, 2);
    GraphExecutor ex = new GraphExecutor(g, GemmKernel.DEFAULT.withThreads(2));
    CompiledRun run = ex.compile(List.of("x", "w", "g", "gp"), OUTPUTS);
    SplittableRandom rnd = new SplittableRandom(11);
    NdArray x = random(DType.FLOAT32, new int[] {8, 12, 12, 4}, rnd);
    NdArray w = random(DType.FLOAT32, new int[] {5, 5, 4, 16}, rnd);
    NdArray gy = random(DType.FLOAT32, new int[] {8, 12, 12, 16}, rnd);
    NdArray gp = random(DType.FLOAT32, new int[] {8, 6, 6, 16}, rnd);
    Map<String, NdArray> fresh = ex.run(Map.of("x", x, "w", w, "g", gy, "gp", gp), OUTPUTS);

    NdArray[] first = run.run(x, w, gy, gp);
    float[][] kept = new float[first.length][];
    for (int i = 0; i < first.length; i++) {
      kept[i] = first[i].floats().clone();
    }
    NdArray[] second = run.run(x, w, gy, gp);

    for (int i = 0; i < OUTPUTS.size(); i++) {
      assertThat(second[i].floats()).as(OUTPUTS.get(i)).isEqualTo(kept[i])
          .isEqualTo(fresh.get(OUTPUTS.get(i)).floats());
    }
  }
}
