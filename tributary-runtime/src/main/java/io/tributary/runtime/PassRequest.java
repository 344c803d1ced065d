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
 */
public record PassRequest(Computation computation, List<Object> arguments, int pass, int clients,
    int groups, byte[] earlier) {
  public PassRequest {
    Objects.requireNonNull(computation, "computation");
    arguments = java.util.Collections.unmodifiableList(new java.util.ArrayList<>(arguments));
    Objects.requireNonNull(earlier, "earlier");
    if (pass < 0 || clients < 0 || groups < 0) {
      throw new IllegalArgumentException("a pass request needs pass, clients and groups >= 0");
    }
  }
}
