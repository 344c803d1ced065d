package io.tributary.graph.autodiff;

import io.tributary.graph.OpArgs;
import io.tributary.graph.ops.ValueType;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The gradient rule of every differentiable op type. Ops with no rule here (argmax, accuracy, the
 * gradient ops themselves) stop differentiation: a loss that depends on a trainable only through
 * them is an error.
 */
public final class GradientRules {
  private static final Map<String, GradientRule> RULES;

  static {
    Map<String, GradientRule> m = new HashMap<>();
    m.put("matmul", GradientRules::matmul);
    m.put("add", (c, g) -> new String[] {sumTo(c, g, 0), sumTo(c, g, 1)});
    m.put("sub", (c, g) -> new String[] {sumTo(c, g, 0),
        c.needs(1) ? c.emit("sum_to_like", c.emit("neg", g), c.in(1)) : null});
    m.put("mul", (c, g) -> new String[] {
        c.needs(0) ? c.emit("sum_to_like", c.emit("mul", g, c.in(1)), c.in(0)) : null,
        c.needs(1) ? c.emit("sum_to_like", c.emit("mul", g, c.in(0)), c.in(1)) : null});
    m.put("div", (c, g) -> new String[] {
        c.needs(0) ? c.emit("sum_to_like", c.emit("div", g, c.in(1)), c.in(0)) : null,
        c.needs(1) ? c.emit("sum_to_like",
            c.emit("neg", c.emit("mul", g, c.emit("div", c.out(), c.in(1)))), c.in(1)) : null});
    m.put("relu", (c, g) -> new String[] {c.emit("relu_grad", g, c.in(0))});
    m.put("sigmoid", (c, g) -> new String[] {c.emit("sigmoid_grad", g, c.out())});
    m.put("tanh", (c, g) -> new String[] {c.emit("tanh_grad", g, c.out())});
    m.put("neg", (c, g) -> new String[] {c.emit("neg", g)});
    m.put("exp", (c, g) -> new String[] {c.emit("mul", g, c.out())});
    m.put("log", (c, g) -> new String[] {c.emit("div", g, c.in(0))});
    m.put("square", (c, g) -> new String[] {
        c.emit("mul", g, c.emit("scale", OpArgs.builder().putFloat("factor", 2.0).build(), c.in(0)))});
    m.put("scale", (c, g) -> new String[] {c.emit("scale", c.op().args(), g)});
    m.put("ones_like", (c, g) -> new String[] {null});
    m.put("zeros_like", (c, g) -> new String[] {null});
    m.put("softmax", (c, g) -> new String[] {c.emit("softmax_grad", c.op().args(), g, c.out())});
    m.put("log_softmax",
        (c, g) -> new String[] {c.emit("log_softmax_grad", c.op().args(), g, c.out())});
    m.put("sparse_softmax_cross_entropy", (c, g) -> new String[] {
        c.needs(0) ? c.emit("sparse_softmax_cross_entropy_grad", g, c.in(0), c.in(1)) : null, null});
    m.put("softmax_cross_entropy", (c, g) -> new String[] {
        c.needs(0) ? c.emit("softmax_cross_entropy_grad", g, c.in(0), c.in(1)) : null,
        c.needs(1) ? c.emit("softmax_cross_entropy_labels_grad", g, c.in(0)) : null});
    m.put("reduce_sum", (c, g) -> new String[] {c.emit("unreduce", withMean(c, false), g, c.in(0))});
    m.put("reduce_mean", (c, g) -> new String[] {c.emit("unreduce", withMean(c, true), g, c.in(0))});
    m.put("reduce_max",
        (c, g) -> new String[] {c.emit("reduce_max_grad", c.op().args(), g, c.in(0), c.out())});
    m.put("reshape", (c, g) -> new String[] {c.emit("reshape_like", g, c.in(0))});
    m.put("flatten", (c, g) -> new String[] {c.emit("reshape_like", g, c.in(0))});
    m.put("transpose", GradientRules::transpose);
    m.put("concat", GradientRules::concat);
    m.put("conv2d", (c, g) -> new String[] {
        c.needs(0) ? c.emit("conv2d_input_grad", c.op().args(), g, c.in(0), c.in(1)) : null,
        c.needs(1) ? c.emit("conv2d_filter_grad", c.op().args(), g, c.in(0), c.in(1)) : null});
    m.put("max_pool", (c, g) -> new String[] {c.emit("max_pool_grad", c.op().args(), g, c.in(0))});
    RULES = Collections.unmodifiableMap(m);
  }

  private GradientRules() {}

  /** The rule for an op type, if it is differentiable. */
  public static Optional<GradientRule> find(String type) {
    return Optional.ofNullable(RULES.get(type));
  }

  /** Every differentiable op type. */
  public static Set<String> differentiableTypes() {
    return RULES.keySet();
  }

  private static String sumTo(GradientContext c, String g, int i) {
    return c.needs(i) ? c.emit("sum_to_like", g, c.in(i)) : null;
  }

  private static OpArgs withMean(GradientContext c, boolean mean) {
    OpArgs a = c.op().args();
    OpArgs.Builder b = OpArgs.builder();
    long[] iv = a.intValues();
    for (int i = 0; i < iv.length; i++) {
      b.putInt(a.intNames().get(i), iv[i]);
    }
    b.putBool("keep_dims", a.getBool("keep_dims", false));
    b.putBool("mean", mean);
    return b.build();
  }

  /** C = op(A) op(B); the four transpose cases each have their own pair of products. */
  private static String[] matmul(GradientContext c, String g) {
    boolean ta = c.op().args().getBool("transpose_a", false);
    boolean tb = c.op().args().getBool("transpose_b", false);
    String a = c.in(0);
    String b = c.in(1);
    String da = null;
    String db = null;
    if (c.needs(0)) {
      da = ta ? mm(c, b, g, tb, true) : mm(c, g, b, false, !tb);
    }
    if (c.needs(1)) {
      db = tb ? mm(c, g, a, true, ta) : mm(c, a, g, !ta, false);
    }
    return new String[] {da, db};
  }

  private static String mm(GradientContext c, String x, String y, boolean tx, boolean ty) {
    return c.emit("matmul", OpArgs.builder().putBool("transpose_a", tx).putBool("transpose_b", ty)
        .build(), x, y);
  }

  private static String[] transpose(GradientContext c, String g) {
    ValueType x = c.builder().typeOf(c.in(0));
    int rank = x.shape().rank();
    long[] perm = c.op().args().getIntList("perm");
    long[] inverse = new long[rank];
    for (int i = 0; i < rank; i++) {
      int p = perm == null ? rank - 1 - i : (int) perm[i];
      inverse[p] = i;
    }
    return new String[] {c.emit("transpose", OpArgs.builder().putIntList("perm", inverse).build(), g)};
  }

  private static String[] concat(GradientContext c, String g) {
    int n = c.op().inputs().size();
    String[] out = new String[n];
    String[] ins = new String[n + 1];
    ins[0] = g;
    for (int i = 0; i < n; i++) {
      ins[i + 1] = c.in(i);
    }
    for (int i = 0; i < n; i++) {
      if (c.needs(i)) {
        out[i] = c.emit("split_like", OpArgs.builder()
            .putInt("axis", c.op().args().getInt("axis", 0)).putInt("index", i).build(), ins);
      }
    }
    return out;
  }
}
