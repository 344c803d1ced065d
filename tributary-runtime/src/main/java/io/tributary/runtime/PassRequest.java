package io.tributary.runtime;

import io.tributary.core.computation.Computation;
import java.util.List;
import java.util.Objects;

/**
 * One client pass of an invocation, as a {@link PassEngine} sees it on the driver.
 *
 * @param computation the computation being invoked (the same object the caller gave)
 * @param arguments the invocation's arguments, as the caller gave them
 * @param pass the pass's index within the invocation, from 0, in the order the planner runs them
 * @param clients the number of clients the pass covers
 * @param groups the number of groups (leaves of the pass's {@link ReductionTree})
 * @param earlier the results of the invocation's earlier passes, opaque bytes that a worker hands
 *     back to {@link ExecutionContext#computePassPart} so its replay needs no client work before
 *     this pass
 * @param edges the clients' edges ({@link RuntimeOptions#edges}), so that an engine may keep
 *     each edge's groups on one worker ({@link Edges#treeLevel}); the results do not depend on it
 * @param inputSource computes the pass's client-side inputs on demand ({@link #clientInputs})
 */
public record PassRequest(Computation computation, List<Object> arguments, int pass, int clients,
    int groups, byte[] earlier, java.util.Optional<Edges> edges,
    java.util.function.Supplier<PassInputs> inputSource) {
  public PassRequest {
    Objects.requireNonNull(computation, "computation");
    arguments = java.util.Collections.unmodifiableList(new java.util.ArrayList<>(arguments));
    Objects.requireNonNull(earlier, "earlier");
    Objects.requireNonNull(edges, "edges");
    Objects.requireNonNull(inputSource, "inputSource");
    if (pass < 0 || clients < 0 || groups < 0) {
      throw new IllegalArgumentException("a pass request needs pass, clients and groups >= 0");
    }
  }

  /** A request whose client-side inputs are not known (not made by the runtime's planner). */
  public PassRequest(Computation computation, List<Object> arguments, int pass, int clients,
      int groups, byte[] earlier, java.util.Optional<Edges> edges) {
    this(computation, arguments, pass, clients, groups, earlier, edges, () -> {
      throw new PassEngineException("this pass request names no client-side inputs: only the "
          + "runtime's planner names them", null);
    });
  }

  /**
   * What the pass's clients read that is not computed at the clients ({@link PassInputs}):
   * what an engine whose workers are not the operator's sends them instead of the arguments and
   * earlier results, for {@link ExecutionContext#computePassPart(Computation, PassInputs, long,
   * long)}. Computed on the driver when asked (the server values the pass broadcasts).
   *
   * @throws PassEngineException when the request was not made by the runtime's planner
   */
  public PassInputs clientInputs() {
    return inputSource.get();
  }

  /** A request of a population without edges. */
  public PassRequest(Computation computation, List<Object> arguments, int pass, int clients,
      int groups, byte[] earlier) {
    this(computation, arguments, pass, clients, groups, earlier, java.util.Optional.empty());
  }

  /**
   * The level of the pass's reduction tree whose nodes the edges are, when the request has edges
   * over exactly its clients that follow the tree ({@link Edges#treeLevel}).
   */
  public java.util.OptionalInt edgeLevel() {
    return edges.filter(e -> e.clients() == clients).map(Edges::treeLevel)
        .orElse(java.util.OptionalInt.empty());
  }
}
