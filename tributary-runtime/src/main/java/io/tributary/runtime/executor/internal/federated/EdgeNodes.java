package io.tributary.runtime.executor.internal.federated;

import io.tributary.core.types.FederatedType;
import io.tributary.core.values.StructValue;
import io.tributary.runtime.LocalComputationException;
import io.tributary.runtime.ReductionTree;
import io.tributary.runtime.executor.internal.aggregation.LinearSink;
import io.tributary.runtime.executor.internal.aggregation.Sink;
import io.tributary.runtime.executor.internal.local.LocalEvaluator;
import io.tributary.runtime.executor.internal.local.LocalFn;
import io.tributary.runtime.executor.internal.local.LocalFunctionFailure;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

/**
 * Values at {@code EDGES}, computed at most once like server values: a {@code {T}@EDGES} value is
 * the list of the edges' values in edge order, a {@code T@EDGES} value the one value every edge
 * holds. Aggregations to the edges are {@link ServerNode.Aggregation}s of a per-edge sink, filled
 * in by a client pass; the nodes here compute from other edge or server values.
 */
final class EdgeNodes {
  private EdgeNodes() {}

  /** {@code federated_broadcast_to_edges}: the server's value at every edge. */
  static final class Broadcast extends ServerNode {
    private final ServerNode source;

    Broadcast(FederatedType type, ServerNode source) {
      super(type);
      this.source = source;
    }

    @Override
    Object compute() {
      return source.value();
    }

    @Override
    List<ServerNode> serverInputs() {
      return List.of(source);
    }
  }

  /** {@code federated_map_at_edges}: a local function of each edge's value. */
  static final class Map extends ServerNode {
    private final LocalFn fn;
    private final ServerNode input;
    private final int edges;
    private final LocalEvaluator evaluator;

    Map(FederatedType type, LocalFn fn, ServerNode input, int edges, LocalEvaluator evaluator) {
      super(type);
      this.fn = fn;
      this.input = input;
      this.edges = edges;
      this.evaluator = evaluator;
    }

    @Override
    Object compute() {
      List<?> in = EdgeClientNodes.perEdge(input, edges);
      List<Object> out = new ArrayList<>(edges);
      for (int e = 0; e < edges; e++) {
        try {
          out.add(evaluator.apply(fn, in.get(e)));
        } catch (LocalFunctionFailure f) {
          throw new LocalComputationException("federated_map_at_edges (" + f.operation()
              + ") failed at edge " + e + ": " + f.getMessage(), f.getCause());
        }
      }
      return Collections.unmodifiableList(out);
    }

    @Override
    List<ServerNode> serverInputs() {
      return List.of(input);
    }
  }

  /** {@code federated_zip_at_edges}: a struct of edge values as one value per edge. */
  static final class Zip extends ServerNode {
    private final Node struct;
    private final int edges;

    Zip(FederatedType type, Node struct, int edges) {
      super(type);
      this.struct = struct;
      this.edges = edges;
    }

    @Override
    Object compute() {
      List<Object> out = new ArrayList<>(edges);
      for (int e = 0; e < edges; e++) {
        out.add(zip(struct, e));
      }
      return Collections.unmodifiableList(out);
    }

    private Object zip(Node n, int edge) {
      if (n instanceof StructNode s) {
        List<Object> values = new ArrayList<>();
        for (Node x : s.elements) {
          values.add(zip(x, edge));
        }
        return StructValue.of(s.names, values);
      }
      return EdgeClientNodes.perEdge((ServerNode) n, edges).get(edge);
    }

    @Override
    List<ServerNode> serverInputs() {
      List<ServerNode> out = new ArrayList<>();
      collect(struct, out);
      return out;
    }

    private static void collect(Node n, List<ServerNode> out) {
      if (n instanceof StructNode s) {
        for (Node e : s.elements) {
          collect(e, out);
        }
      } else {
        out.add((ServerNode) n);
      }
    }
  }

  /**
   * An aggregation from the edges to the server ({@code federated_sum_from_edges} and the
   * like): the client sink of the two-tier aggregation, with each edge as one participant. Each
   * edge's value is folded into its own partial and the partials are combined by the fixed
   * {@link ReductionTree} over the edges, so for edges that are subtrees of a client pass's tree
   * the combinations above them are the flat pass's. An edge's value that the sink refuses (not
   * finite, a bad weight) fails the invocation: edges are not excluded like failed clients.
   */
  static final class FromEdges extends ServerNode {
    private final String uri;
    private final Sink sink;
    private final List<ServerNode> sources;
    private final int edges;
    private final LocalEvaluator evaluator;

    FromEdges(FederatedType type, String uri, Sink sink, List<ServerNode> sources, int edges,
        LocalEvaluator evaluator) {
      super(type);
      this.uri = uri;
      this.sink = sink;
      this.sources = List.copyOf(sources);
      this.edges = edges;
      this.evaluator = evaluator;
    }

    @Override
    Object compute() {
      ReductionTree<Object> tree = new ReductionTree<>(edges, sink::combine);
      ReductionTree.Folder<Object> folder = tree.folder(0, edges);
      for (int e = 0; e < edges; e++) {
        ClientScope scope = new ClientScope(e, evaluator);
        Object[] values = new Object[sink.inputs().size()];
        for (int k = 0; k < values.length; k++) {
          values[k] = sink.inputs().get(k).valueFor(scope);
        }
        Object partial = sink.newPartial();
        try {
          sink.commit(partial, sink.prepare(partial, values));
        } catch (IllegalArgumentException ex) {
          throw new LocalComputationException(uri + ": the value of edge " + e
              + " is refused: " + ex.getMessage(), ex);
        } catch (LocalFunctionFailure f) {
          throw new LocalComputationException(uri + " (" + f.operation() + ") failed at edge "
              + e + ": " + f.getMessage(), f.getCause());
        }
        folder.add(partial);
      }
      Object result;
      try {
        result = sink.result(tree.merge(folder.subtrees()));
      } catch (IllegalArgumentException ex) {
        throw new LocalComputationException(uri + ": " + ex.getMessage(), ex);
      }
      if (sink instanceof LinearSink) {
        Optional<String> bad = LinearSink.nonFinite(result);
        if (bad.isPresent()) {
          throw new LocalComputationException(uri + ": the aggregate overflows and is refused: "
              + bad.get().replace("the value is not finite: ", ""), null);
        }
      }
      return result;
    }

    @Override
    List<ServerNode> serverInputs() {
      return sources;
    }
  }
}
