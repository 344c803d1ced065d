package io.tributary.runtime.executor.internal.federated;

import io.tributary.core.types.FederatedType;
import io.tributary.core.types.Placement;
import io.tributary.core.types.TensorType;
import io.tributary.core.types.Type;
import io.tributary.runtime.Edges;
import io.tributary.tensor.DType;
import java.util.List;

/**
 * The client-side nodes of the {@code EDGES} tier: a client's edge, a value each client receives
 * from its edge, and an edge's value read as if the edge were a client (for folding edges' values
 * at the server with the client sinks).
 */
final class EdgeClientNodes {
  private EdgeClientNodes() {}

  /** The value of an {@code EDGES} node at each edge: the one value repeated, or the list. */
  static List<?> perEdge(ServerNode node, int edges) {
    Object v = node.value();
    if (((FederatedType) node.type()).allEqual()) {
      return java.util.Collections.nCopies(edges, v);
    }
    List<?> list = (List<?>) v;
    if (list.size() != edges) {
      throw new IllegalStateException("an EDGES value has " + list.size() + " members but there "
          + "are " + edges + " edges");
    }
    return list;
  }

  /**
   * A client's place in the tier, an {@link Integer} read from the population's {@link Edges}:
   * its edge index ({@link #edgeOf}, the first input of every per-edge sink) or its position
   * among its edge's clients ({@link #rankInEdge}: the leaf it is in its edge's own reduction
   * tree, the second input).
   */
  static final class ClientPlace extends ClientNode {
    private final java.util.function.IntUnaryOperator place;

    private ClientPlace(java.util.function.IntUnaryOperator place) {
      super(FederatedType.atClients(TensorType.of(DType.INT32)), false);
      this.place = place;
    }

    /** Each client's edge index. */
    static ClientPlace edgeOf(Edges edges) {
      return new ClientPlace(edges::edgeOf);
    }

    /** Each client's position among its edge's clients. */
    static ClientPlace rankInEdge(Edges edges) {
      return new ClientPlace(edges::rankInEdge);
    }

    @Override
    Object compute(ClientScope scope) {
      return place.applyAsInt(scope.client);
    }

    @Override
    List<ServerNode> serverInputs() {
      return List.of();
    }

    @Override
    public List<ClientNode> clientInputs() {
      return List.of();
    }
  }

  /**
   * {@code federated_broadcast_from_edges}: each client holds its edge's value; the same at
   * every client (computed once) when the edges' value is all-equal.
   */
  static final class FromEdge extends ClientNode {
    private final ServerNode source;
    private final ClientNode edgeOf;
    private final int edges;

    FromEdge(Type type, ServerNode source, ClientNode edgeOf, int edges) {
      super(type, ((FederatedType) source.type()).allEqual());
      this.source = source;
      this.edgeOf = edgeOf;
      this.edges = edges;
    }

    @Override
    Object compute(ClientScope scope) {
      if (uniform()) {
        return source.value();
      }
      return perEdge(source, edges).get((Integer) edgeOf.valueFor(scope));
    }

    @Override
    List<ServerNode> serverInputs() {
      return List.of(source);
    }

    @Override
    public List<ClientNode> clientInputs() {
      return uniform() ? List.of() : List.of(edgeOf);
    }
  }

  /**
   * An edge's value where a sink expects a client's: the scope's index is the edge's. Only an
   * aggregation from the edges ({@link EdgeNodes.FromEdges}) reads it, never a client pass.
   */
  static final class EdgeValue extends ClientNode {
    private final ServerNode source;
    private final int edges;

    EdgeValue(ServerNode source, int edges) {
      super(new FederatedType(((FederatedType) source.type()).member(), Placement.EDGES, false),
          false);
      this.source = source;
      this.edges = edges;
    }

    @Override
    Object compute(ClientScope scope) {
      return perEdge(source, edges).get(scope.client);
    }

    @Override
    List<ServerNode> serverInputs() {
      return List.of(source);
    }

    @Override
    public List<ClientNode> clientInputs() {
      return List.of();
    }
  }
}
