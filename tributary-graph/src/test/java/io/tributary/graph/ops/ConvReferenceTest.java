package io.tributary.graph.ops;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.graph.Graph;
import io.tributary.graph.GraphBuilder;
import io.tributary.graph.OpArgs;
import io.tributary.tensor.DType;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The float32 convolution and its two gradients against straightforward loops that compute the
 * arithmetic {@link ConvFloat} documents, bit for bit: on both Java implementations, on one to
 * three threads, and through a compiled run's kept buffers (runs with other values and a smaller
 * batch); and the convolution fused with its bias and ReLU ({@link ConvBiasReluOp}) against the
 * same loops followed by {@code max(y + b, 0)}.
 * Values are arbitrary floats, so that any other order of the sums would show.
 */
class ConvReferenceTest {
  private static final List<String> OUTPUTS = List.of("y", "dx", "dw");

  static Stream<Arguments> shapes() {
    // n, h, w, cin, kh, kw, cout, sh, sw, ph, pw
    return Stream.of(
        Arguments.of(2, 14, 14, 32, 5, 5, 64, 1, 1, 2, 2),
        Arguments.of(3, 28, 28, 1, 5, 5, 32, 1, 1, 2, 2),
        Arguments.of(2, 7, 6, 3, 3, 2, 5, 1, 1, 1, 0),
        Arguments.of(3, 9, 8, 2, 3, 3, 17, 2, 3, 1, 2),
        Arguments.of(2, 4, 4, 20, 2, 2, 16, 2, 2, 0, 0),
        Arguments.of(1, 3, 3, 2, 2, 2, 4, 1, 1, 3, 3),
        Arguments.of(1, 5, 6, 4, 5, 6, 33, 1, 1, 0, 0),
        Arguments.of(4, 10, 9, 7, 4, 3, 70, 3, 2, 2, 1));
  }

  @ParameterizedTest
  @MethodSource("shapes")
  void conv2dAndGradients_anyGeometry_equalTheReferenceLoopsBitForBit(int n, int h, int w,
      int cin, int kh, int kw, int cout, int sh, int sw, int ph, int pw) {
    int oh = (h + 2 * ph - kh) / sh + 1;
    int ow = (w + 2 * pw - kw) / sw + 1;
    GraphBuilder b = new GraphBuilder();
    b.placeholder("x", DType.FLOAT32, -1, h, w, cin);
    b.placeholder("w", DType.FLOAT32, kh, kw, cin, cout);
    b.placeholder("g", DType.FLOAT32, -1, oh, ow, cout);
    OpArgs conv = OpArgs.builder().putInt("stride_h", sh).putInt("stride_w", sw)
        .putInt("pad_h", ph).putInt("pad_w", pw).build();
    b.opNamed("y", "conv2d", conv, "x", "w");
    b.opNamed("dx", "conv2d_input_grad", conv, "g", "x", "w");
    b.opNamed("dw", "conv2d_filter_grad", conv, "g", "x", "w");
    Graph graph = b.build();

    for (GemmKernel kernel : kernels()) {
      CompiledRun run = new GraphExecutor(graph, kernel).compile(List.of("x", "w", "g"),
          OUTPUTS);
      // The same batch again, then a smaller one (the kept buffers' front), then the first again.
      int[] batches = {n, n, Math.max(1, n - 1), n};
      for (int r = 0; r < batches.length; r++) {
        int seed = r + 1;
        int m = batches[r];
        Geometry geo = new Geometry(m, h, w, cin, kh, kw, cout, sh, sw, ph, pw, oh, ow);
        SplittableRandom rnd = new SplittableRandom(seed * 1000L + n + h + cout);
        float[] x = random(m * h * w * cin, rnd);
        float[] f = random(kh * kw * cin * cout, rnd);
        float[] g = random(m * oh * ow * cout, rnd);
        NdArray[] out = run.run(NdArray.wrapFloats(new int[] {m, h, w, cin}, x),
            NdArray.wrapFloats(new int[] {kh, kw, cin, cout}, f),
            NdArray.wrapFloats(new int[] {m, oh, ow, cout}, g));
        String on = kernel + ", batch " + m + ", seed " + seed;
        assertThat(out[0].floats()).as("y on %s", on).isEqualTo(forward(geo, x, f));
        assertThat(out[1].floats()).as("dx on %s", on).isEqualTo(inputGrad(geo, g, f));
        assertThat(out[2].floats()).as("dw on %s", on).isEqualTo(filterGrad(geo, g, x));
      }
      Map<String, NdArray> once = new GraphExecutor(graph, kernel).run(Map.of(
          "x", NdArray.zeros(DType.FLOAT32, n, h, w, cin),
          "w", NdArray.zeros(DType.FLOAT32, kh, kw, cin, cout),
          "g", NdArray.zeros(DType.FLOAT32, n, oh, ow, cout)), OUTPUTS);
      assertThat(once.get("y").shape()).containsExactly(n, oh, ow, cout);
    }
  }

  @ParameterizedTest
  @MethodSource("shapes")
  void conv2dBiasRelu_fused_equalsTheReferenceLoopsThenBiasAndReluBitForBit(int n, int h, int w,
      int cin, int kh, int kw, int cout, int sh, int sw, int ph, int pw) {
    int oh = (h + 2 * ph - kh) / sh + 1;
    int ow = (w + 2 * pw - kw) / sw + 1;
    GraphBuilder b = new GraphBuilder();
    b.placeholder("x", DType.FLOAT32, -1, h, w, cin);
    b.placeholder("w", DType.FLOAT32, kh, kw, cin, cout);
    b.placeholder("b", DType.FLOAT32, cout);
    OpArgs conv = OpArgs.builder().putInt("stride_h", sh).putInt("stride_w", sw)
        .putInt("pad_h", ph).putInt("pad_w", pw).build();
    b.opNamed("y", "conv2d", conv, "x", "w");
    b.opNamed("z", "add", OpArgs.none(), "y", "b");
    b.opNamed("h", "relu", OpArgs.none(), "z");
    Graph graph = b.build();
    for (GemmKernel kernel : kernels()) {
      CompiledRun run = new GraphExecutor(graph, kernel).compile(List.of("x", "w", "b"),
          List.of("h"));
      int[] batches = {n, n, Math.max(1, n - 1), n};
      for (int r = 0; r < batches.length; r++) {
        int m = batches[r];
        Geometry geo = new Geometry(m, h, w, cin, kh, kw, cout, sh, sw, ph, pw, oh, ow);
        SplittableRandom rnd = new SplittableRandom(r * 1000L + n + h + cout);
        float[] x = random(m * h * w * cin, rnd);
        float[] f = random(kh * kw * cin * cout, rnd);
        float[] bias = random(cout, rnd);
        bias[0] = -0f;
        float[] expected = forward(geo, x, f);
        for (int i = 0; i < expected.length; i++) {
          expected[i] = Math.max(expected[i] + bias[i % cout], 0f);
        }
        NdArray[] out = run.run(NdArray.wrapFloats(new int[] {m, h, w, cin}, x),
            NdArray.wrapFloats(new int[] {kh, kw, cin, cout}, f),
            NdArray.wrapFloats(new int[] {cout}, bias));
        assertThat(out[0].floats()).as("h on %s, batch %d", kernel, m).isEqualTo(expected);
      }
    }
  }

  /** Both Java implementations that are present, each on one to three threads. */
  private static List<GemmKernel> kernels() {
    List<GemmKernel> kernels = new java.util.ArrayList<>();
    for (Gemm.Kernel impl : List.of(Gemm.Kernel.VECTOR, Gemm.Kernel.PORTABLE)) {
      if (Gemm.isAvailable(impl)) {
        for (int t = 1; t <= 3; t++) {
          kernels.add(GemmKernel.of(impl).withThreads(t));
        }
      }
    }
    return kernels;
  }

  private record Geometry(int n, int h, int w, int cin, int kh, int kw, int cout, int sh, int sw,
      int ph, int pw, int oh, int ow) {}

  private static float[] random(int size, SplittableRandom rnd) {
    float[] v = new float[size];
    for (int i = 0; i < size; i++) {
      v[i] = (float) rnd.nextDouble(-1, 1);
    }
    return v;
  }

  /** Each output: one chain over (ky, kx, ci), padding as zeros. */
  private static float[] forward(Geometry s, float[] x, float[] f) {
    float[] out = new float[s.n() * s.oh() * s.ow() * s.cout()];
    for (int b = 0; b < s.n(); b++) {
      for (int oy = 0; oy < s.oh(); oy++) {
        for (int ox = 0; ox < s.ow(); ox++) {
          for (int co = 0; co < s.cout(); co++) {
            float acc = 0f;
            for (int ky = 0; ky < s.kh(); ky++) {
              for (int kx = 0; kx < s.kw(); kx++) {
                for (int ci = 0; ci < s.cin(); ci++) {
                  acc = Math.fma(input(s, x, b, oy * s.sh() - s.ph() + ky,
                      ox * s.sw() - s.pw() + kx, ci), f[filter(s, ky, kx, ci, co)], acc);
                }
              }
            }
            out[((b * s.oh() + oy) * s.ow() + ox) * s.cout() + co] = acc;
          }
        }
      }
    }
    return out;
  }

  /** Each filter element: one chain over the batch's output positions, padding as zeros. */
  private static float[] filterGrad(Geometry s, float[] g, float[] x) {
    float[] dw = new float[s.kh() * s.kw() * s.cin() * s.cout()];
    for (int ky = 0; ky < s.kh(); ky++) {
      for (int kx = 0; kx < s.kw(); kx++) {
        for (int ci = 0; ci < s.cin(); ci++) {
          for (int co = 0; co < s.cout(); co++) {
            float acc = 0f;
            for (int b = 0; b < s.n(); b++) {
              for (int oy = 0; oy < s.oh(); oy++) {
                for (int ox = 0; ox < s.ow(); ox++) {
                  float v = input(s, x, b, oy * s.sh() - s.ph() + ky, ox * s.sw() - s.pw() + kx,
                      ci);
                  acc = Math.fma(v, g[((b * s.oh() + oy) * s.ow() + ox) * s.cout() + co], acc);
                }
              }
            }
            dw[filter(s, ky, kx, ci, co)] = acc;
          }
        }
      }
    }
    return dw;
  }

  /**
   * Each input element: one chain over (ky, kx, co) of the gradient of the output whose window
   * puts (ky, kx) on it, times the filter, or of zero where no output does.
   */
  private static float[] inputGrad(Geometry s, float[] g, float[] f) {
    float[] dx = new float[s.n() * s.h() * s.w() * s.cin()];
    for (int b = 0; b < s.n(); b++) {
      for (int iy = 0; iy < s.h(); iy++) {
        for (int ix = 0; ix < s.w(); ix++) {
          for (int ci = 0; ci < s.cin(); ci++) {
            float acc = 0f;
            for (int ky = 0; ky < s.kh(); ky++) {
              for (int kx = 0; kx < s.kw(); kx++) {
                int ty = iy + s.ph() - ky;
                int tx = ix + s.pw() - kx;
                boolean hit = ty >= 0 && tx >= 0 && ty % s.sh() == 0 && tx % s.sw() == 0
                    && ty / s.sh() < s.oh() && tx / s.sw() < s.ow();
                for (int co = 0; co < s.cout(); co++) {
                  float v = hit
                      ? g[((b * s.oh() + ty / s.sh()) * s.ow() + tx / s.sw()) * s.cout() + co]
                      : 0f;
                  acc = Math.fma(v, f[filter(s, ky, kx, ci, co)], acc);
                }
              }
            }
            dx[((b * s.h() + iy) * s.w() + ix) * s.cin() + ci] = acc;
          }
        }
      }
    }
    return dx;
  }

  private static float input(Geometry s, float[] x, int b, int iy, int ix, int ci) {
    if (iy < 0 || iy >= s.h() || ix < 0 || ix >= s.w()) {
      return 0f;
    }
    return x[((b * s.h() + iy) * s.w() + ix) * s.cin() + ci];
  }

  private static int filter(Geometry s, int ky, int kx, int ci, int co) {
    return ((ky * s.kw() + kx) * s.cin() + ci) * s.cout() + co;
  }
}
