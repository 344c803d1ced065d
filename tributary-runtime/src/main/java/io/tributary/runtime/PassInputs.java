package io.tributary.runtime;

import io.tributary.runtime.executor.internal.pass.KeptClients;
import java.util.ArrayList;
import java.util.Collections;
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
 * {@link #forClients} leaves out the other clients' values, for a node that computes some
 * clients only.
 *
 * @param pass the pass's index within the invocation
 * @param clientArguments the invocation's argument leaves that are not placed at {@code SERVER}
 *     (a struct parameter's elements, depth first), in order; a {@code {T}@CLIENTS} leaf as the
 *     caller gave it (a list or {@link ClientValues}), of which a replay reads only its groups'
 *     clients
 * @param perClient the indices of {@code clientArguments} that hold one value per client
 *     ({@code {T}@CLIENTS}), ascending
 * @param serverValues the server values the pass's client work reads, in the planner's order
 */
public record PassInputs(int pass, List<Object> clientArguments, List<Integer> perClient,
    List<Object> serverValues) {
  public PassInputs {
    if (pass < 0) {
      throw new IllegalArgumentException("a pass index must be >= 0, got " + pass);
    }
    clientArguments = Collections.unmodifiableList(new ArrayList<>(clientArguments));
    perClient = List.copyOf(perClient);
    for (int k = 0; k < perClient.size(); k++) {
      int i = perClient.get(k);
      if (i < 0 || i >= clientArguments.size() || (k > 0 && i <= perClient.get(k - 1))) {
        throw new IllegalArgumentException("per-client argument " + i + " is not one of the "
            + clientArguments.size() + " argument leaves in ascending order");
      }
    }
    serverValues = Collections.unmodifiableList(new ArrayList<>(serverValues));
  }

  /**
   * These inputs for a node that computes clients {@code [fromClient, toClient)} only (with one
   * client per group, client {@code c} is group {@code c}): each per-client argument keeps the
   * population's size but holds only those clients' values, so that nothing of another client
   * is handed on. A replay of those clients' groups gives the same part as from all values.
   *
   * @throws IllegalArgumentException when the range is not inside a per-client argument, or an
   *     argument leaf named per-client is not a list or {@link ClientValues}
   */
  public PassInputs forClients(int fromClient, int toClient) {
    List<Object> out = new ArrayList<>(clientArguments);
    for (int i : perClient) {
      ClientValues all = switch (clientArguments.get(i)) {
        case ClientValues c -> c;
        case List<?> l -> ClientValues.of(l);
        default -> throw new IllegalArgumentException("argument leaf " + i + " holds one value "
            + "per client but is neither a List nor ClientValues");
      };
      if (fromClient < 0 || toClient < fromClient || toClient > all.size()) {
        throw new IllegalArgumentException("clients [" + fromClient + ", " + toClient
            + ") are not inside the " + all.size() + " clients of argument leaf " + i);
      }
      List<Object> kept = new ArrayList<>(toClient - fromClient);
      for (int c = fromClient; c < toClient; c++) {
        kept.add(all.get(c));
      }
      // The range keeps its clients' costs, so a node orders its part as the local run would.
      out.set(i, KeptClients.of(all.size(), fromClient, kept,
          all.inMemory() ? KeptClients.bytes(fromClient, kept)
          : all.hasCosts() ? all::cost : null));
    }
    return new PassInputs(pass, out, perClient, serverValues);
  }

  /**
   * The bytes of {@link #forClients forClients(fromClient, toClient)}: what an engine sends a
   * node that computes those clients, in the runtime's value format
   * ({@link PassEngine#encodeValue}); {@link #decode} reads them back.
   *
   * @throws IllegalArgumentException when the range is not inside a per-client argument
   * @throws PassEngineException for a value that cannot travel (tensors, structs and lists can)
   */
  public byte[] encode(int fromClient, int toClient) {
    return io.tributary.runtime.executor.internal.pass.InputsCodec.encode(this, fromClient,
        toClient);
  }

  /**
   * The inputs whose bytes {@link #encode} gave, every count checked before allocating: each
   * per-client argument holds the population's size and the encoded clients' values only.
   *
   * @throws PassEngineException when the bytes are malformed
   */
  public static PassInputs decode(byte[] bytes) {
    return io.tributary.runtime.executor.internal.pass.InputsCodec.decode(bytes);
  }
}
