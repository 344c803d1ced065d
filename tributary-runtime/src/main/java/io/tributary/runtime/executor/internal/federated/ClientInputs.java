package io.tributary.runtime.executor.internal.federated;

import io.tributary.core.types.FederatedType;
import io.tributary.core.types.Placement;
import io.tributary.core.types.StructType;
import io.tributary.core.types.Type;
import io.tributary.core.types.Types;
import io.tributary.core.values.StructValue;
import io.tributary.runtime.PassEngineException;
import io.tributary.runtime.PassInputs;
import io.tributary.runtime.ValueChecker;
import io.tributary.runtime.ValueMismatchException;
import io.tributary.runtime.executor.internal.aggregation.Sink;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * What a client pass reads from outside the clients, named by the planner so that a node's
 * replay can be given only that ({@link io.tributary.runtime.PassInputs}): the argument leaves
 * not placed at the server, and the server values the pass's client nodes read.
 *
 * <p>The server values are found by walking the client nodes the pass's aggregations read, in
 * order, and taking the server nodes each reads directly ({@code federated_broadcast}'s source,
 * {@code federated_select}'s state and key bound, an edge's value): the values that cross from
 * the server to the clients. Planning depends only on the computation, so the driver and a
 * node's replay find the same nodes in the same order.
 */
public final class ClientInputs {
  /** Stands for a server-placed argument leaf in a node's replay; reading it fails. */
  public static final class Withheld {
    private Withheld() {}
  }

  /** The one marker: it carries nothing, so sharing it is safe. */
  static final Withheld WITHHELD = new Withheld();

  private ClientInputs() {}

  /**
   * The leaves of {@code argument} (of type {@code param}) that are not placed at the server
   * (nor at edges), depth first through structs of placed values, as the client arguments of
   * the inputs of pass {@code pass} with {@code serverValues}.
   */
  static PassInputs inputs(int pass, Optional<Type> param, Optional<Object> argument,
      List<Object> serverValues) {
    List<Object> leaves = new ArrayList<>();
    List<Integer> perClient = new ArrayList<>();
    if (param.isPresent() && argument.isPresent()) {
      split(param.get(), argument.get(), leaves, perClient, "the argument");
    }
    return new PassInputs(pass, leaves, perClient, serverValues);
  }

  private static void split(Type type, Object value, List<Object> out, List<Integer> perClient,
      String where) {
    if (isClientSide(type)) {
      if (type instanceof FederatedType f && !f.allEqual()) {
        perClient.add(out.size());
      }
      out.add(value);
      return;
    }
    if (type instanceof StructType st) {
      StructValue sv = struct(st, value, where);
      for (int i = 0; i < st.size(); i++) {
        split(st.get(i), sv.get(i), out, perClient, where + "[" + i + "]");
      }
    }
  }

  /**
   * The argument a node's replay runs on: the leaves of {@code clientSide} where they were,
   * and {@link Withheld} for every leaf placed at the server.
   *
   * @throws PassEngineException when the number of leaves does not fit the parameter
   */
  public static Optional<Object> rebuild(Optional<Type> param, List<Object> clientSide) {
    if (param.isEmpty()) {
      if (!clientSide.isEmpty()) {
        throw new PassEngineException("the pass inputs hold " + clientSide.size()
            + " argument leaves, but the computation takes no argument", null);
      }
      return Optional.empty();
    }
    int[] next = {0};
    Object argument = join(param.get(), clientSide, next);
    if (next[0] != clientSide.size()) {
      throw new PassEngineException("the pass inputs hold " + clientSide.size() + " argument "
          + "leaves, but the computation's parameter " + param.get() + " has " + next[0]
          + " not placed at the server", null);
    }
    return Optional.of(argument);
  }

  private static Object join(Type type, List<Object> leaves, int[] next) {
    if (isClientSide(type)) {
      if (next[0] >= leaves.size()) {
        throw new PassEngineException("the pass inputs hold " + leaves.size() + " argument "
            + "leaves, fewer than the computation's parameter has", null);
      }
      return leaves.get(next[0]++);
    }
    if (type instanceof StructType st) {
      List<Object> values = new ArrayList<>();
      for (int i = 0; i < st.size(); i++) {
        values.add(join(st.get(i), leaves, next));
      }
      return StructValue.of(st.elements().stream().map(StructType.Element::name).toList(),
          values);
    }
    return WITHHELD;
  }

  private static boolean isClientSide(Type type) {
    return Types.isLocal(type)
        || (type instanceof FederatedType f && f.placement().equals(Placement.CLIENTS));
  }

  private static StructValue struct(StructType st, Object value, String where) {
    if (!(value instanceof StructValue sv) || sv.size() != st.size()) {
      throw new ValueMismatchException(where + ": expected a StructValue of " + st.size()
          + " elements for " + st + " but found " + ValueChecker.describe(value));
    }
    return sv;
  }

  /** The server nodes the client work of a pass with {@code sinks} reads, in order. */
  static List<ServerNode> boundary(List<Sink> sinks) {
    List<ServerNode> out = new ArrayList<>();
    Set<Object> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    for (Sink s : sinks) {
      for (ClientNode c : s.inputs()) {
        walk(c, out, seen);
      }
    }
    return out;
  }

  private static void walk(ClientNode c, List<ServerNode> out, Set<Object> seen) {
    if (!seen.add(c)) {
      return;
    }
    for (ServerNode s : c.serverInputs()) {
      if (seen.add(s)) {
        out.add(s);
      }
    }
    for (ClientNode in : c.clientInputs()) {
      walk(in, out, seen);
    }
  }

  /**
   * Gives the boundary nodes of a node's replay the values the pass's inputs hold, each checked
   * against its node's type.
   *
   * @throws PassEngineException when the count or a value does not fit
   */
  static void supply(List<ServerNode> boundary, List<Object> values, int pass) {
    if (boundary.size() != values.size()) {
      throw new PassEngineException("pass " + pass + "'s clients read " + boundary.size()
          + " server values, but its inputs hold " + values.size(), null);
    }
    for (int i = 0; i < values.size(); i++) {
      ServerNode n = boundary.get(i);
      Object v = values.get(i);
      if (v == null) {
        throw new PassEngineException("server value " + i + " of pass " + pass + "'s inputs is "
            + "missing", null);
      }
      if (n.type() instanceof FederatedType f && f.allEqual()) {
        Optional<String> bad = ValueChecker.problem(f.member(), v, "");
        if (bad.isPresent()) {
          throw new PassEngineException("server value " + i + " of pass " + pass + "'s inputs "
              + "does not fit " + f + ": " + bad.get(), null);
        }
      }
      n.set(v);
    }
  }
}
