package io.tributary.graph.ops;

import io.tributary.graph.Graph;
import io.tributary.graph.Op;
import io.tributary.graph.OpArgs;
import io.tributary.tensor.DType;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Fuses a training step's loss and its gradient into one op ({@link CrossEntropyMeanOp}): the
 * pattern autodiff writes for the mean sparse softmax cross-entropy of float32 logits,
 *
 * <pre>
 *   p = sparse_softmax_cross_entropy(logits, labels)
 *   loss = reduce_mean(p)
 *   g = unreduce(seed, p; mean)
 *   d = sparse_softmax_cross_entropy_grad(g, logits, labels)
 * </pre>
 *
 * becomes {@code loss, d = fused_sparse_softmax_cross_entropy_mean(logits, labels, seed)}, in the
 * place of the first op. Four kernels and their per-example arrays become one pass, and a step of
 * softmax regression runs three ops instead of six. It applies only when nothing else reads p or
 * g, neither is among the values to keep, both reductions are over every axis without kept
 * dimensions, and no op computes the seed (it is a constant or folded value, the gradient of a
 * scalar loss; an op's seed could depend on the loss itself).
 */
final class LossFusion {
  static final String TYPE = "fused_sparse_softmax_cross_entropy_mean";

  private LossFusion() {}

  /** {@code ops} (a plan's, in order) with each loss and gradient pattern fused. */
  static List<Op> fuse(Graph graph, List<Op> ops, Set<String> keep) {
    Map<String, List<Integer>> readers = Fusions.readers(ops);
    Set<String> written = new HashSet<>();
    for (Op op : ops) {
      written.addAll(op.outputs());
    }
    Op[] out = ops.toArray(new Op[0]);
    boolean[] dropped = new boolean[out.length];
    for (int a = 0; a < out.length; a++) {
      Op ce = out[a];
      if (dropped[a] || !ce.type().equals("sparse_softmax_cross_entropy")
          || ce.inputs().size() != 2 || ce.outputs().size() != 1) {
        continue;
      }
      String logits = ce.inputs().get(0);
      String labels = ce.inputs().get(1);
      String p = ce.outputs().get(0);
      if (keep.contains(p) || graph.requireVariable(logits).dtype() != DType.FLOAT32) {
        continue;
      }
      int mean = -1;
      int spread = -1;
      for (int r : new HashSet<>(readers.getOrDefault(p, List.of()))) {
        Op reader = out[r];
        if (mean < 0 && reader.type().equals("reduce_mean") && allAxes(reader.args())
            && reader.outputs().size() == 1) {
          mean = r;
        } else if (spread < 0 && reader.type().equals("unreduce") && allAxes(reader.args())
            && reader.args().getBool("mean", false) && reader.inputs().size() == 2
            && reader.inputs().get(1).equals(p) && !reader.inputs().get(0).equals(p)) {
          spread = r;
        } else {
          mean = -2;
          break;
        }
      }
      if (mean < 0 || spread < 0) {
        continue;
      }
      String g = out[spread].outputs().get(0);
      String seed = out[spread].inputs().get(0);
      List<Integer> gradReaders = readers.getOrDefault(g, List.of());
      if (keep.contains(g) || written.contains(seed) || gradReaders.size() != 1) {
        continue;
      }
      int d = gradReaders.get(0);
      Op grad = out[d];
      if (!grad.type().equals("sparse_softmax_cross_entropy_grad")
          || !grad.inputs().equals(List.of(g, logits, labels)) || grad.outputs().size() != 1) {
        continue;
      }
      String loss = out[mean].outputs().get(0);
      out[a] = new Op(ce.name() + "+" + out[mean].name() + "+" + grad.name(), TYPE,
          List.of(logits, labels, seed), List.of(loss, grad.outputs().get(0)), OpArgs.none());
      dropped[mean] = true;
      dropped[spread] = true;
      dropped[d] = true;
    }
    List<Op> result = new ArrayList<>();
    for (int i = 0; i < out.length; i++) {
      if (!dropped[i]) {
        result.add(out[i]);
      }
    }
    return result;
  }

  /** A reduction over every axis, its result without kept dimensions. */
  private static boolean allAxes(OpArgs args) {
    return args.getIntList("axes") == null && !args.getBool("keep_dims", false);
  }
}
