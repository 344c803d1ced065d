package io.tributary.graph.ops;

import io.tributary.graph.Graph;
import io.tributary.graph.Op;
import io.tributary.graph.PartialShape;
import io.tributary.graph.Variable;
import io.tributary.graph.VariableKind;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Computes once, when a plan is made, the ops whose results cannot change from one run to the
 * next, and drops the ops nothing reads afterwards. A gradient graph is full of them: the seed
 * {@code ones_like(loss)} depends only on the loss's shape, which for a scalar is fixed, and so do
 * the {@code sum_to_like}, {@code scale} and {@code unreduce} that spread it back over a term; the
 * forward ops that computed the loss itself are then read by nothing unless the loss is an output.
 * The FedProx objective's gradient {@code mu * (w - w0)} was 20 such ops per step.
 *
 * <p>An op is folded when its type is one of a fixed set of pure kernels (their results depend
 * only on their inputs and arguments) and every input is known: a graph constant, a folded
 * value, or an input the kernel reads only for its dtype and shape (the first of {@code ones_like}
 * and {@code zeros_like}, the second of {@code sum_to_like} and {@code unreduce}) whose variable
 * has a fully known shape. The value is computed by the op's own kernel, so a folded plan gives
 * the same bits as an unfolded one. An op whose kernel fails, or whose result does not fit its
 * variable, is left to run, and to report, at run time.
 */
final class Folding {
  /** The op types whose kernels are pure functions of their inputs and arguments. */
  private static final Set<String> PURE = Set.of("ones_like", "zeros_like", "sum_to_like",
      "unreduce", "scale", "add", "sub", "mul", "div", "neg", "square", "reshape");

  private Folding() {}

  /**
   * The result of {@link #fold}: the ops still to run, in their order, and the folded values by
   * variable name.
   */
  record Folded(List<Op> order, Map<String, NdArray> values) {}

  /**
   * Folds what can be folded in {@code order} (a plan's ops in topological order), then drops
   * every op that neither computes a value among {@code keep} (outputs, accumulation values and
   * targets) nor feeds one that does.
   */
  static Folded fold(Graph graph, List<Op> order, Map<String, NdArray> constants,
      Collection<String> keep, GemmKernel gemm) {
    Map<String, NdArray> folded = new HashMap<>();
    List<Op> rest = new ArrayList<>();
    for (Op op : order) {
      NdArray[] out = PURE.contains(op.type()) ? tryFold(graph, op, constants, folded, gemm) : null;
      if (out == null) {
        rest.add(op);
        continue;
      }
      for (int k = 0; k < out.length; k++) {
        folded.put(op.outputs().get(k), out[k]);
      }
    }
    return new Folded(live(rest, keep), folded);
  }

  /** The ops of {@code ops} that {@code keep} depends on, in their order. */
  private static List<Op> live(List<Op> ops, Collection<String> keep) {
    Set<String> read = new HashSet<>(keep);
    boolean[] alive = new boolean[ops.size()];
    for (int i = ops.size() - 1; i >= 0; i--) {
      Op op = ops.get(i);
      for (String o : op.outputs()) {
        if (read.contains(o)) {
          alive[i] = true;
          break;
        }
      }
      if (alive[i]) {
        read.addAll(op.inputs());
      }
    }
    List<Op> out = new ArrayList<>();
    for (int i = 0; i < ops.size(); i++) {
      if (alive[i]) {
        out.add(ops.get(i));
      }
    }
    return out;
  }

  /** The outputs of {@code op} when all its inputs are known and its kernel succeeds; else null. */
  private static NdArray[] tryFold(Graph graph, Op op, Map<String, NdArray> constants,
      Map<String, NdArray> folded, GemmKernel gemm) {
    NdArray[] in = new NdArray[op.inputs().size()];
    for (int i = 0; i < in.length; i++) {
      String name = op.inputs().get(i);
      NdArray v = folded.get(name);
      if (v == null && graph.requireVariable(name).kind() == VariableKind.CONSTANT) {
        v = constants.get(name);
      }
      if (v == null && readsShapeOnly(op.type(), i)) {
        v = standIn(graph.requireVariable(name));
      }
      if (v == null) {
        return null;
      }
      in[i] = v;
    }
    OpDef def = OpRegistry.standard().find(op.type()).orElse(null);
    if (def == null) {
      return null;
    }
    NdArray[] out;
    try {
      out = def.compute(op, in, null, gemm);
    } catch (IllegalArgumentException | ArithmeticException e) {
      return null;
    }
    if (out.length != op.outputs().size()) {
      return null;
    }
    for (int k = 0; k < out.length; k++) {
      Variable v = graph.requireVariable(op.outputs().get(k));
      if (out[k].dtype() != v.dtype() || !v.shape().accepts(io.tributary.tensor.Shape.of(
          longs(out[k].shapeRef())))) {
        return null;
      }
    }
    return out;
  }

  /** Whether input {@code i} of an op of {@code type} is read only for its dtype and shape. */
  static boolean readsShapeOnly(String type, int i) {
    return switch (type) {
      case "ones_like", "zeros_like" -> i == 0;
      case "sum_to_like", "unreduce" -> i == 1;
      default -> false;
    };
  }

  /** Zeros of {@code v}'s dtype and shape when the shape is fully known; else null. */
  private static NdArray standIn(Variable v) {
    PartialShape s = v.shape();
    if (!s.isFullyKnown() || !NdArray.supports(v.dtype())) {
      return null;
    }
    int[] dims = new int[s.rank()];
    for (int d = 0; d < dims.length; d++) {
      if (s.dim(d) > Integer.MAX_VALUE) {
        return null;
      }
      dims[d] = (int) s.dim(d);
    }
    // A shape stands in for the value only when it is small: the stand-in is allocated once.
    if (s.knownSize() > MAX_STAND_IN) {
      return null;
    }
    return NdArray.zeros(v.dtype(), dims);
  }

  /** The most elements of a stand-in array (a folded result is at most as large). */
  private static final long MAX_STAND_IN = 1L << 24;

  private static long[] longs(int[] a) {
    long[] r = new long[a.length];
    for (int i = 0; i < a.length; i++) {
      r[i] = a[i];
    }
    return r;
  }
}
