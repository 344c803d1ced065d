package io.tributary.runtime.executor.internal.federated;

import static io.tributary.runtime.executor.internal.federated.IntrinsicCalls.clients;
import static io.tributary.runtime.executor.internal.federated.IntrinsicCalls.fn;
import static io.tributary.runtime.executor.internal.federated.IntrinsicCalls.part;
import static io.tributary.runtime.executor.internal.federated.IntrinsicCalls.server;
import static io.tributary.runtime.executor.internal.federated.IntrinsicCalls.unplaced;

import io.tributary.core.compiler.Intrinsic;
import io.tributary.core.types.FederatedType;
import io.tributary.core.types.Placement;
import io.tributary.runtime.Edges;
import io.tributary.runtime.LocalComputationException;
import io.tributary.runtime.RuntimeOptions;
import io.tributary.runtime.executor.internal.aggregation.AggregateSink;
import io.tributary.runtime.executor.internal.aggregation.LinearSink;
import io.tributary.runtime.executor.internal.aggregation.MinMaxSink;
import io.tributary.runtime.executor.internal.aggregation.PerEdgeSink;
import io.tributary.runtime.executor.internal.aggregation.Sink;
import java.util.List;

/**
 * The tier intrinsics: calls that move values to, from or within {@code EDGES}. An aggregation to
 * the edges is the two-tier aggregation's sink run per edge ({@link PerEdgeSink}) in a client
 * pass; one from the edges is that sink run over the edges' values ({@link EdgeNodes.FromEdges}).
 */
final class EdgeCalls {
  private EdgeCalls() {}

  static Node call(FederatingExecutor ex, Intrinsic intrinsic, Node arg) {
    String uri = intrinsic.uri();
    FederatedType result = (FederatedType) FederatingExecutor.resultType(intrinsic);
    Edges edges = ex.requireEdges(uri);
    int count = edges.count();
    RuntimeOptions options = ex.options();
    return switch (uri) {
      case "federated_broadcast_to_edges" -> new EdgeNodes.Broadcast(result, server(arg, uri));
      case "federated_broadcast_from_edges" -> new EdgeClientNodes.FromEdge(result,
          edges(arg, uri), ex.edgeOf(), count);
      case "federated_map_at_edges" -> new EdgeNodes.Map(result, fn(part(arg, 0), uri),
          edges(part(arg, 1), uri), count, ex.evaluator());
      case "federated_zip_at_edges" -> new EdgeNodes.Zip(result, arg, count);
      case "federated_sum_to_edges" -> toEdges(ex, result, uri,
          LinearSink.sum(uri, clients(arg, uri), options));
      case "federated_mean_to_edges" -> toEdges(ex, result, uri,
          LinearSink.mean(clients(arg, uri), options));
      case "federated_weighted_mean_to_edges" -> toEdges(ex, result, uri,
          LinearSink.weightedMean(clients(part(arg, 0), uri), clients(part(arg, 1), uri),
              options));
      case "federated_min_to_edges", "federated_max_to_edges" -> toEdges(ex, result, uri,
          new MinMaxSink(uri.startsWith("federated_max"), clients(arg, uri)));
      case "federated_aggregate_to_edges" -> toEdges(ex, result, uri,
          new AggregateSink(clients(part(arg, 0), uri), unplaced(part(arg, 1), uri),
              fn(part(arg, 2), uri), fn(part(arg, 3), uri), fn(part(arg, 4), uri),
              ex.evaluator()));
      case "federated_secure_sum_to_edges", "federated_secure_sum_bitwidth_to_edges" ->
          toEdges(ex, result, uri, LinearSink.secure(uri, clients(part(arg, 0), uri),
              unplaced(part(arg, 1), uri), uri.contains("bitwidth"), options,
              ex.secureMode(uri, true)));
      case "federated_sum_from_edges" -> {
        ServerNode v = edges(arg, uri);
        yield fromEdges(ex, result, uri, LinearSink.sum(uri, edgeValue(v, count), options),
            List.of(v), count);
      }
      case "federated_mean_from_edges" -> {
        ServerNode v = edges(arg, uri);
        yield fromEdges(ex, result, uri, LinearSink.mean(edgeValue(v, count), options),
            List.of(v), count);
      }
      case "federated_weighted_mean_from_edges" -> {
        ServerNode v = edges(part(arg, 0), uri);
        ServerNode w = edges(part(arg, 1), uri);
        // An edge's weight is a sum of its clients' weights: the bound on one client's weight
        // does not apply to it.
        RuntimeOptions unbounded = options.withMaxWeight(Double.POSITIVE_INFINITY,
            RuntimeOptions.WeightPolicy.CLIP);
        yield fromEdges(ex, result, uri, LinearSink.weightedMean(edgeValue(v, count),
            edgeValue(w, count), unbounded), List.of(v, w), count);
      }
      case "federated_min_from_edges", "federated_max_from_edges" -> {
        ServerNode v = edges(arg, uri);
        yield fromEdges(ex, result, uri, new MinMaxSink(uri.startsWith("federated_max"),
            edgeValue(v, count)), List.of(v), count);
      }
      case "federated_aggregate_from_edges" -> {
        ServerNode v = edges(part(arg, 0), uri);
        yield fromEdges(ex, result, uri, new AggregateSink(edgeValue(v, count),
            unplaced(part(arg, 1), uri), fn(part(arg, 2), uri), fn(part(arg, 3), uri),
            fn(part(arg, 4), uri), ex.evaluator()), List.of(v), count);
      }
      default -> throw new LocalComputationException("the intrinsic " + uri
          + " has no implementation in the federating executor");
    };
  }

  private static Node toEdges(FederatingExecutor ex, FederatedType result, String uri,
      Sink inner) {
    return new ServerNode.Aggregation(result, uri,
        new PerEdgeSink(uri, inner, ex.edgeOf(), ex.rankInEdge(), ex.requireEdges(uri)));
  }

  private static Node fromEdges(FederatingExecutor ex, FederatedType result, String uri,
      Sink sink, List<ServerNode> sources, int count) {
    return new EdgeNodes.FromEdges(result, uri, sink, sources, count, ex.evaluator());
  }

  private static ClientNode edgeValue(ServerNode source, int count) {
    return new EdgeClientNodes.EdgeValue(source, count);
  }

  /** A value at EDGES (an edge node, or an aggregation to the edges). */
  static ServerNode edges(Node n, String uri) {
    if (n instanceof ServerNode s && s.type() instanceof FederatedType f
        && f.placement().equals(Placement.EDGES)) {
      return s;
    }
    throw new LocalComputationException(uri + " needs a value at EDGES, got one of type "
        + n.type());
  }
}
