package io.tributary.graph.autodiff;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.graph.Graph;
import io.tributary.graph.GraphBuilder;
import io.tributary.graph.OpArgs;
import io.tributary.graph.ops.GraphExecutor;
import io.tributary.graph.ops.NdArray;
import io.tributary.tensor.DType;
import io.tributary.tensor.Tensor;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Checks every differentiable op's gradient against central finite differences, in float64.
 *
 * <p>Each case feeds seeded random inputs to one op, forms loss = sum(out * R) with a fixed random R
 * (so every output element gets a different upstream gradient), builds the gradient graph with
 * {@link Autodiff}, and compares each gradient element with (L(x + h) - L(x - h)) / 2h.
 */
class GradientCheckTest {
  private static final double H = 1e-6;

  /** How an input is filled. */
  enum Fill {
    /** Uniform in [-1, 1). */
    ANY,
    /** Magnitude in [0.2, 1), random sign: keeps relu and max away from their kinks. */
    AWAY_FROM_ZERO,
    /** Uniform in [0.5, 2): denominators and logarithms. */
    POSITIVE,
    /** Rows that sum to 1: dense labels. */
    DISTRIBUTION,
    /** Class indices in [0, last dim of input 0): sparse labels (int64, not differentiated). */
    LABELS
  }

  record In(Fill fill, long... dims) {}

  record Case(String name, String type, OpArgs args, List<In> inputs) {
    @Override
    public String toString() {
      return name;
    }
  }

  static In in(long... dims) {
    return new In(Fill.ANY, dims);
  }

  static In in(Fill fill, long... dims) {
    return new In(fill, dims);
  }

  static Case c(String name, String type, OpArgs args, In... inputs) {
    return new Case(name, type, args, List.of(inputs));
  }

  static Case c(String type, In... inputs) {
    return c(type, type, OpArgs.none(), inputs);
  }

  static OpArgs.Builder args() {
    return OpArgs.builder();
  }

  static Stream<Case> cases() {
    OpArgs conv = args().putInt("stride_h", 1).putInt("stride_w", 2).putInt("pad_h", 1)
        .putInt("pad_w", 1).build();
    return Stream.of(
        c("matmul", in(3, 4), in(4, 5)),
        c("matmul_ta", "matmul", args().putBool("transpose_a", true).build(), in(4, 3), in(4, 5)),
        c("matmul_tb", "matmul", args().putBool("transpose_b", true).build(), in(3, 4), in(5, 4)),
        c("matmul_ta_tb", "matmul",
            args().putBool("transpose_a", true).putBool("transpose_b", true).build(), in(4, 3),
            in(5, 4)),
        c("add", in(3, 4), in(3, 4)),
        c("add_bias", "add", OpArgs.none(), in(3, 4), in(4)),
        c("add_broadcast_both", "add", OpArgs.none(), in(3, 1), in(1, 4)),
        c("sub", in(2, 3), in(3)),
        c("mul", in(2, 3), in(2, 1)),
        c("div", in(2, 3), in(Fill.POSITIVE, 3)),
        c("relu", in(Fill.AWAY_FROM_ZERO, 3, 4)),
        c("sigmoid", in(3, 4)),
        c("tanh", in(3, 4)),
        c("neg", in(5)),
        c("exp", in(2, 3)),
        c("log", in(Fill.POSITIVE, 2, 3)),
        c("square", in(2, 3)),
        c("scale", "scale", args().putFloat("factor", -1.5).build(), in(2, 3)),
        c("softmax", in(3, 5)),
        c("softmax_axis0", "softmax", args().putInt("axis", 0).build(), in(3, 5)),
        c("log_softmax", in(3, 5)),
        c("log_softmax_3d", "log_softmax", args().putInt("axis", 1).build(), in(2, 3, 2)),
        c("sparse_softmax_cross_entropy", in(4, 5), in(Fill.LABELS, 4)),
        c("softmax_cross_entropy", in(4, 5), in(Fill.DISTRIBUTION, 4, 5)),
        c("reduce_sum", in(3, 4)),
        c("reduce_sum_axis1_keep", "reduce_sum",
            args().putIntList("axes", 1).putBool("keep_dims", true).build(), in(3, 4)),
        c("reduce_mean", in(3, 4)),
        c("reduce_mean_axis0", "reduce_mean", args().putIntList("axes", 0).build(), in(3, 4, 2)),
        c("reduce_max", in(Fill.AWAY_FROM_ZERO, 3, 4)),
        c("reduce_max_axis_neg1", "reduce_max", args().putIntList("axes", -1).build(),
            in(Fill.AWAY_FROM_ZERO, 3, 4)),
        c("reshape", "reshape", args().putIntList("shape", 4, -1).build(), in(2, 6)),
        c("flatten", in(2, 3, 2)),
        c("transpose", "transpose", args().putIntList("perm", 1, 2, 0).build(), in(2, 3, 4)),
        c("transpose_default", "transpose", OpArgs.none(), in(2, 3)),
        c("concat", "concat", args().putInt("axis", 1).build(), in(2, 3), in(2, 1), in(2, 2)),
        c("concat_axis0", "concat", args().putInt("axis", 0).build(), in(1, 3), in(2, 3)),
        c("conv2d", "conv2d", conv, in(2, 4, 5, 2), in(3, 3, 2, 3)),
        c("conv2d_valid", "conv2d", OpArgs.none(), in(1, 5, 5, 1), in(2, 2, 1, 2)),
        c("max_pool", "max_pool", args().putInt("kernel_h", 2).putInt("kernel_w", 2).build(),
            in(Fill.AWAY_FROM_ZERO, 2, 4, 4, 3)),
        c("max_pool_overlap", "max_pool", args().putInt("kernel_h", 3).putInt("kernel_w", 2)
            .putInt("stride_h", 1).putInt("stride_w", 1).build(), in(Fill.AWAY_FROM_ZERO, 1, 4, 3, 2)));
  }

  @Test
  void cases_coverEveryDifferentiableOp() {
    Set<String> covered = new HashSet<>();
    cases().forEach(c -> covered.add(c.type()));
    Set<String> expected = new HashSet<>(GradientRules.differentiableTypes());
    expected.removeAll(Set.of("ones_like", "zeros_like"));
    assertThat(covered).containsAll(expected);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void gradient_randomInputs_matchesFiniteDifferences(Case tc) {
    SplittableRandom rnd = new SplittableRandom(tc.name().hashCode());
    GraphBuilder b = new GraphBuilder();
    List<String> names = new ArrayList<>();
    Map<String, NdArray> feeds = new HashMap<>();
    List<String> wrt = new ArrayList<>();
    long classes = tc.inputs().get(0).dims()[tc.inputs().get(0).dims().length - 1];
    for (int i = 0; i < tc.inputs().size(); i++) {
      In spec = tc.inputs().get(i);
      String name = "x" + i;
      boolean labels = spec.fill() == Fill.LABELS;
      b.placeholder(name, labels ? DType.INT64 : DType.FLOAT64, spec.dims());
      names.add(name);
      feeds.put(name, fill(spec, classes, rnd));
      if (!labels) {
        wrt.add(name);
      }
    }
    String out = b.op(tc.type(), tc.args(), names.toArray(String[]::new));
    long[] outDims = b.typeOf(out).shape().dims();
    double[] weights = new double[(int) io.tributary.tensor.Shape.of(outDims).size()];
    for (int i = 0; i < weights.length; i++) {
      weights[i] = rnd.nextDouble(-1, 1);
    }
    String r = b.constant("R", Tensor.ofDoubles(io.tributary.tensor.Shape.of(outDims), weights));
    String loss = b.op("reduce_sum", b.op("mul", out, r));
    Graph forward = b.build();
    GradientGraph gg = Autodiff.gradients(forward, loss, wrt);
    GraphExecutor exec = new GraphExecutor(gg.graph());
    List<String> outputs = new ArrayList<>();
    for (String w : wrt) {
      outputs.add(gg.gradientOf(w));
    }
    Map<String, NdArray> grads = exec.run(feeds, outputs);
    GraphExecutor fwd = new GraphExecutor(forward);
    for (String w : wrt) {
      NdArray analytic = grads.get(gg.gradientOf(w));
      NdArray x = feeds.get(w);
      assertThat(analytic.shape()).as("gradient shape of %s", w).isEqualTo(x.shape());
      for (int i = 0; i < x.size(); i++) {
        double orig = x.get(i);
        x.set(i, orig + H);
        double up = fwd.run(feeds, List.of(loss)).get(loss).get(0);
        x.set(i, orig - H);
        double down = fwd.run(feeds, List.of(loss)).get(loss).get(0);
        x.set(i, orig);
        double numeric = (up - down) / (2 * H);
        assertThat(analytic.get(i))
            .as("%s: d loss / d %s[%d]", tc.name(), w, i)
            .isCloseTo(numeric, org.assertj.core.data.Offset.offset(1e-6 + 1e-5 * Math.abs(numeric)));
      }
    }
  }

  static NdArray fill(In spec, long classes, SplittableRandom rnd) {
    int[] shape = new int[spec.dims().length];
    for (int i = 0; i < shape.length; i++) {
      shape[i] = (int) spec.dims()[i];
    }
    int n = NdArray.sizeOf(shape);
    if (spec.fill() == Fill.LABELS) {
      long[] l = new long[n];
      for (int i = 0; i < n; i++) {
        l[i] = rnd.nextLong(classes);
      }
      return NdArray.wrapLongs(DType.INT64, shape, l);
    }
    double[] d = new double[n];
    for (int i = 0; i < n; i++) {
      d[i] = switch (spec.fill()) {
        case ANY -> rnd.nextDouble(-1, 1);
        case AWAY_FROM_ZERO -> rnd.nextDouble(0.2, 1) * (rnd.nextBoolean() ? 1 : -1);
        case POSITIVE -> rnd.nextDouble(0.5, 2);
        default -> rnd.nextDouble(0.1, 1);
      };
    }
    if (spec.fill() == Fill.DISTRIBUTION) {
      int w = shape[shape.length - 1];
      for (int row = 0; row < n / w; row++) {
        double s = 0;
        for (int j = 0; j < w; j++) {
          s += d[row * w + j];
        }
        for (int j = 0; j < w; j++) {
          d[row * w + j] /= s;
        }
      }
    }
    return NdArray.wrapDoubles(shape, d);
  }
}
