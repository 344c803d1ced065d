package io.tributary.runtime.executor.internal.pass;

import io.tributary.runtime.executor.internal.aggregation.Sink;
import io.tributary.runtime.executor.internal.federated.ClientNode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

/**
 * A guess at how much work each client of a pass is: the bytes of tensor data in its in-memory
 * arguments, and a generated argument's own guess where it has one ({@link
 * io.tributary.runtime.ClientValues#cost}). A pass starts the costliest clients first, so that
 * with a few workers a round does not end with one worker on a large client while the others
 * idle (longest processing time first). The guess only orders the work; results never depend
 * on it.
 */
public final class ClientCosts {
  private ClientCosts() {}

  /**
   * Each client's cost, or an empty array when no sink reads an in-memory argument or one with
   * costs (then every client is taken to cost the same).
   */
  public static long[] of(List<Sink> sinks, int clients) {
    List<ClientNode.Argument> arguments = new ArrayList<>();
    Set<ClientNode> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    for (Sink s : sinks) {
      for (ClientNode c : s.inputs()) {
        collect(c, arguments, seen);
      }
    }
    if (arguments.isEmpty()) {
      return new long[0];
    }
    long[] cost = new long[clients];
    for (ClientNode.Argument a : arguments) {
      for (int k = 0; k < clients && k < a.values.size(); k++) {
        cost[k] += a.values.inMemory() ? TensorBytes.withSequences(a.values.get(k))
            : a.values.cost(k);
      }
    }
    return cost;
  }

  private static void collect(ClientNode n, List<ClientNode.Argument> out, Set<ClientNode> seen) {
    if (!seen.add(n)) {
      return;
    }
    if (n instanceof ClientNode.Argument a && (a.values.inMemory() || a.values.hasCosts())) {
      out.add(a);
    }
    for (ClientNode c : n.clientInputs()) {
      collect(c, out, seen);
    }
  }
}
