package io.tributary.graph.autodiff;

import io.tributary.graph.Graph;
import io.tributary.graph.GraphBuilder;
import io.tributary.graph.Op;
import io.tributary.graph.Variable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reverse-mode automatic differentiation over op graphs.
 *
 * <p>Walks the ops between the chosen variables and the loss in reverse dependency order, asking
 * each op's {@link GradientRule} for its inputs' gradients, and sums the gradients of variables read
 * by more than one op. A variable the loss does not depend on gets a zero gradient.
 */
public final class Autodiff {
  private Autodiff() {}

  /**
   * Extends {@code graph} with the gradient of {@code loss} with respect to each of {@code wrt}.
   * A non-scalar loss is summed (its gradient is seeded with ones).
   *
   * @throws IllegalArgumentException when a variable is unknown or not floating, or when the loss
   *     depends on a variable of {@code wrt} through an op that has no gradient
   */
  public static GradientGraph gradients(Graph graph, String loss, List<String> wrt) {
    graph.validate();
    Variable lossVar = graph.requireVariable(loss);
    requireFloating(lossVar);
    for (String w : wrt) {
      requireFloating(graph.requireVariable(w));
    }
    List<Op> order = graph.topologicalOrder();
    Set<String> fromWrt = new HashSet<>(wrt);
    for (Op op : order) {
      for (String in : op.inputs()) {
        if (fromWrt.contains(in)) {
          fromWrt.addAll(op.outputs());
          break;
        }
      }
    }
    GraphBuilder b = GraphBuilder.from(graph);
    Map<String, List<String>> pending = new HashMap<>();
    if (fromWrt.contains(loss)) {
      pending.computeIfAbsent(loss, k -> new ArrayList<>())
          .add(b.opNamed(b.uniqueName("grad/" + loss + "/seed"), "ones_like",
              io.tributary.graph.OpArgs.none(), loss));
    }
    Map<String, String> total = new HashMap<>();
    for (int i = order.size() - 1; i >= 0; i--) {
      Op op = order.get(i);
      if (op.outputs().size() != 1 || !pending.containsKey(op.outputs().get(0))) {
        continue;
      }
      String g = sum(b, op.outputs().get(0), pending.remove(op.outputs().get(0)));
      total.put(op.outputs().get(0), g);
      boolean[] needs = new boolean[op.inputs().size()];
      boolean any = false;
      for (int k = 0; k < needs.length; k++) {
        needs[k] = fromWrt.contains(op.inputs().get(k));
        any |= needs[k];
      }
      if (!any) {
        continue;
      }
      GradientRule rule = GradientRules.find(op.type()).orElseThrow(() -> new IllegalArgumentException(
          "op '" + op.name() + "' (" + op.type() + ") has no gradient, but '" + loss
              + "' depends on a differentiated variable through it"));
      String[] grads = rule.apply(new GradientContext(b, op, needs), g);
      for (int k = 0; k < needs.length; k++) {
        if (needs[k] && grads[k] != null) {
          pending.computeIfAbsent(op.inputs().get(k), x -> new ArrayList<>()).add(grads[k]);
        }
      }
    }
    Map<String, String> result = new LinkedHashMap<>();
    for (String w : wrt) {
      List<String> parts = pending.remove(w);
      String g;
      if (parts != null) {
        g = sum(b, w, parts);
      } else if (total.containsKey(w)) {
        g = total.get(w);
      } else {
        g = b.opNamed(b.uniqueName("grad/" + w + "/zero"), "zeros_like",
            io.tributary.graph.OpArgs.none(), w);
      }
      result.put(w, g);
    }
    return new GradientGraph(b.build(), loss, result);
  }

  private static void requireFloating(Variable v) {
    if (!v.dtype().isFloating()) {
      throw new IllegalArgumentException("cannot differentiate with respect to or of '" + v.name()
          + "': it is " + v.dtype());
    }
  }

  /** Adds up a variable's gradient contributions, pairwise. */
  private static String sum(GraphBuilder b, String var, List<String> parts) {
    String acc = parts.get(0);
    for (int i = 1; i < parts.size(); i++) {
      acc = b.opNamed(b.uniqueName("grad/" + var + "/accumulate"), "add",
          io.tributary.graph.OpArgs.none(), acc, parts.get(i));
    }
    return acc;
  }
}
