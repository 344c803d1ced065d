package io.tributary.graph.ops;

import io.tributary.graph.Graph;
import io.tributary.graph.GraphExecutionException;
import io.tributary.graph.Op;
import io.tributary.tensor.DType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * An {@link Accumulation} onto a parameter {@code p} whose value is the gradient of a FedProx
 * objective, applied in one pass over the parameter. Autodiff writes the proximal term's part of
 * the gradient as four element-wise ops, which a plan would run as steps of their own (ten steps a
 * training step for a dense layer's kernel and bias):
 *
 * <pre>
 *   d = sub(p, anchor)
 *   s = scale(d; f)
 *   m = mul(k, s)            (k: the folded gradient of the squared norm, a constant)
 *   x = sum_to_like(m, p)    (absent, or nothing to sum: m has p's shape)
 *   v = add(x, y)            (y: the model's own gradient; either order)
 *   p += scale * v
 * </pre>
 *
 * <p>Each element then takes the same float operations, in the same order, as the kernels would
 * ({@link ArithmeticOp}'s same-shape loops, {@link ScaleOp}'s product in double rounded to float,
 * the accumulation's {@code p += (float) scale * v}), so the bits are theirs. Multiplication and
 * addition are commutative to the bit except for which NaN payload survives, which the JIT does
 * not fix either, so operand order is not kept. Where the arrays do not all have p's shape, or one
 * of them shares storage with a target, the four ops run as steps after all (see {@link
 * Accumulations}).
 */
final class ProximalUpdate {
  /**
   * A match found in a plan: the ops it replaces (sub, scale, mul, sum_to_like when present, add),
   * and the names of the anchor, the constant k and the model's gradient y.
   */
  record Match(Accumulation accumulation, List<Op> chain, String anchor, String k, String y,
      double factor) {}

  /** The ops that compute the value, as steps: run only when the one-pass loop cannot. */
  private final Plan.Step[] chain;
  private final int target;
  private final int anchor;
  private final int k;
  private final int y;
  private final int value;
  private final double factor;
  private final double scale;
  private final String what;

  ProximalUpdate(Match match, Plan.Step[] chain, Map<String, Integer> slots) {
    Accumulation a = match.accumulation();
    this.chain = chain;
    this.target = slots.get(a.target());
    this.anchor = slots.get(match.anchor());
    this.k = slots.get(match.k());
    this.y = slots.get(match.y());
    this.value = slots.get(a.output());
    this.factor = match.factor();
    this.scale = a.scale();
    this.what = Accumulation.describe(a.output(), a.target());
  }

  int target() {
    return target;
  }

  double scale() {
    return scale;
  }

  String what() {
    return what;
  }

  /** The slots the update reads besides its target. */
  int[] reads() {
    return new int[] {anchor, k, y};
  }

  /**
   * Finds the accumulations of {@code accumulations} whose value has the form above in {@code
   * order} (a plan's ops, fused and folded), where nothing but the next op of the chain reads an
   * intermediate value and none of them is an output or another accumulation's value or target.
   * The returned chains' ops are to be removed from the plan.
   */
  static Map<Accumulation, Match> find(Graph graph, List<Op> order, List<String> outputs,
      List<Accumulation> accumulations) {
    Map<String, Op> writer = new HashMap<>();
    Map<String, Integer> reads = new HashMap<>();
    for (Op op : order) {
      for (String o : op.outputs()) {
        writer.put(o, op);
      }
      for (String in : op.inputs()) {
        reads.merge(in, 1, Integer::sum);
      }
    }
    Set<String> pinned = new HashSet<>(outputs);
    Set<String> targets = new HashSet<>();
    Map<String, Integer> values = new HashMap<>();
    for (Accumulation a : accumulations) {
      pinned.add(a.target());
      targets.add(a.target());
      values.merge(a.output(), 1, Integer::sum);
    }
    Map<Accumulation, Match> found = new LinkedHashMap<>();
    for (Accumulation a : accumulations) {
      String p = a.target();
      Op add = writer.get(a.output());
      if (add == null || !add.type().equals("add") || add.inputs().size() != 2
          || add.outputs().size() != 1 || values.get(a.output()) != 1
          || reads.containsKey(a.output()) || pinned.contains(a.output())
          || graph.requireVariable(p).dtype() != DType.FLOAT32) {
        continue;
      }
      for (int side = 0; side < 2; side++) {
        String x = add.inputs().get(side);
        String y = add.inputs().get(1 - side);
        Match m = x.equals(y) ? null
            : chainOf(a, x, y, add, writer, reads, pinned, values, targets);
        if (m != null) {
          found.put(a, m);
          break;
        }
      }
    }
    return found;
  }

  /** The match where {@code x} is the proximal part of {@code add}'s value, or null. */
  private static Match chainOf(Accumulation a, String x, String y, Op add, Map<String, Op> writer,
      Map<String, Integer> reads, Set<String> pinned, Map<String, Integer> values,
      Set<String> targets) {
    String p = a.target();
    Op top = intermediate(x, writer, reads, pinned, values);
    if (top == null) {
      return null;
    }
    List<Op> chain = new ArrayList<>();
    Op mul = top;
    if (top.type().equals("sum_to_like")) {
      if (top.inputs().size() != 2 || !top.inputs().get(1).equals(p)) {
        return null;
      }
      chain.add(top);
      mul = intermediate(top.inputs().get(0), writer, reads, pinned, values);
    }
    if (mul == null || !mul.type().equals("mul") || mul.inputs().size() != 2) {
      return null;
    }
    int at = -1;
    Op scale = null;
    for (int i = 0; i < 2 && scale == null; i++) {
      Op w = intermediate(mul.inputs().get(i), writer, reads, pinned, values);
      if (w != null && w.type().equals("scale") && w.inputs().size() == 1) {
        scale = w;
        at = i;
      }
    }
    if (scale == null) {
      return null;
    }
    String k = mul.inputs().get(1 - at);
    double factor = scale.args().getFloat("factor", 1.0);
    Op sub = intermediate(scale.inputs().get(0), writer, reads, pinned, values);
    if (sub == null || !sub.type().equals("sub") || sub.inputs().size() != 2
        || !sub.inputs().get(0).equals(p)) {
      return null;
    }
    String anchor = sub.inputs().get(1);
    if (writer.containsKey(k) || writer.containsKey(anchor) || targets.contains(k)
        || targets.contains(anchor) || k.equals(p) || anchor.equals(p)
        || !Double.isFinite(factor)) {
      return null;
    }
    chain.add(mul);
    chain.add(scale);
    chain.add(sub);
    java.util.Collections.reverse(chain);
    chain.add(add);
    return new Match(a, List.copyOf(chain), anchor, k, y, factor);
  }

  /**
   * The op that writes {@code name} when {@code name} is a plain intermediate: written by one
   * op of one output, read once, and neither kept nor accumulated; else null.
   */
  private static Op intermediate(String name, Map<String, Op> writer, Map<String, Integer> reads,
      Set<String> pinned, Map<String, Integer> values) {
    Op w = writer.get(name);
    if (w == null || w.outputs().size() != 1 || reads.getOrDefault(name, 0) != 1
        || pinned.contains(name) || values.containsKey(name)) {
      return null;
    }
    return w;
  }

  /**
   * Adds the scaled value onto the target in {@code env}: in one pass when every array has the
   * target's shape and dtype, else by running the chain's steps, then adding.
   */
  void apply(NdArray[] env, GemmKernel gemm) {
    NdArray p = env[target];
    NdArray a = env[anchor];
    NdArray kv = env[k];
    NdArray g = env[y];
    int[] shape = p.shapeRef();
    if (p.dtype() == DType.FLOAT32 && a.dtype() == DType.FLOAT32 && kv.dtype() == DType.FLOAT32
        && g.dtype() == DType.FLOAT32 && Arrays.equals(shape, a.shapeRef())
        && Arrays.equals(shape, kv.shapeRef()) && Arrays.equals(shape, g.shapeRef())) {
      update(p.floats(), a.floats(), kv.floats(), g.floats(), factor, (float) scale);
      return;
    }
    Accumulations.addScaled(p, scale, value(env, gemm), what);
  }

  /** The value, computed by the chain's steps into {@code env} (before any target changes). */
  NdArray value(NdArray[] env, GemmKernel gemm) {
    for (Plan.Step step : chain) {
      NdArray[] out = Plan.run(step, Plan.inputs(step, env), null, null, gemm);
      if (out[0].dtype() != step.outVars()[0].dtype()) {
        throw new GraphExecutionException(what + ": op '" + step.op().name()
            + "' computed " + out[0]);
      }
      if (step.out()[0] >= 0) {
        env[step.out()[0]] = out[0];
      }
    }
    return env[value];
  }

  /**
   * {@code p += s * (k * (float) ((p - a) * f) + y)}, element by element, each operation rounded
   * to float as the unfused kernels round it.
   */
  private static void update(float[] p, float[] a, float[] k, float[] y, double f, float s) {
    for (int i = 0; i < p.length; i++) {
      float d = p[i] - a[i];
      float m = k[i] * (float) (d * f);
      p[i] += s * (m + y[i]);
    }
  }
}
