package io.tributary.runtime;

import java.util.List;

/**
 * What a client pass reads that is not computed at the clients: all that a node replaying the
 * pass for its clients needs, and so all it learns of the server.
 *
 * <p>The planner names them ({@link PassRequest#clientInputs}): the invocation's arguments
 * placed at {@code CLIENTS} or unplaced, and the server values the pass's client work reads
 * (what {@code federated_broadcast} sends, the state {@code federated_select} reads), in the
 * order the planner meets them. Server-placed arguments (a server optimizer's moments, an
 * aggregator's state) and the results of earlier passes are not among them unless the pass
 * reads them at the clients. {@link ExecutionContext#computePassPart(io.tributary.core.computation.Computation,
 * PassInputs, long, long)} replays a pass from them alone, bit for bit as from everything.
 *
 * @param pass the pass's index within the invocation
 * @param clientArguments the invocation's argument leaves that are not placed at {@code SERVER}
 *     (a struct parameter's elements, depth first), in order; a {@code {T}@CLIENTS} leaf as the
 *     caller gave it, of which a replay reads only its groups' clients
 * @param serverValues the server values the pass's client work reads, in the planner's order
 */
public record PassInputs(int pass, List<Object> clientArguments, List<Object> serverValues) {
  public PassInputs {
    if (pass < 0) {
      throw new IllegalArgumentException("a pass index must be >= 0, got " + pass);
    }
    clientArguments = java.util.Collections.unmodifiableList(
        new java.util.ArrayList<>(clientArguments));
    serverValues = java.util.Collections.unmodifiableList(new java.util.ArrayList<>(serverValues));
  }
}
