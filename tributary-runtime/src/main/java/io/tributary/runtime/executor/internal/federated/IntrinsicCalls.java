package io.tributary.runtime.executor.internal.federated;

import io.tributary.core.compiler.Intrinsic;
import io.tributary.core.types.Type;
import io.tributary.core.values.StructValue;
import io.tributary.runtime.ExecutionFailedException;
import io.tributary.runtime.LocalComputationException;
import io.tributary.runtime.executor.internal.aggregation.AggregateSink;
import io.tributary.runtime.executor.internal.aggregation.LinearSink;
import io.tributary.runtime.executor.internal.aggregation.MinMaxSink;
import io.tributary.runtime.executor.internal.local.LocalFn;
import io.tributary.runtime.executor.internal.local.LocalFunctionFailure;

/**
 * Turns a call of a federated intrinsic into a node of the lazy graph. The type checker has
 * already vouched for the argument's shape; what is checked here is what only the values can
 * tell.
 */
public final class IntrinsicCalls {
  private IntrinsicCalls() {}

  static Node call(FederatingExecutor ex, Intrinsic intrinsic, Node arg) {
    String uri = intrinsic.uri();
    Type result = FederatingExecutor.resultType(intrinsic);
    try {
      return switch (uri) {
        case "federated_broadcast" -> new ClientNode.Broadcast(result, server(arg, uri));
        case "federated_map", "federated_map_all_equal" ->
            new ClientNode.Map(result, uri, fn(part(arg, 0), uri), clients(part(arg, 1), uri));
        case "federated_apply" -> new ServerNode.Apply(result, fn(part(arg, 0), uri),
            server(part(arg, 1), uri), ex.evaluator());
        case "federated_sum" -> new ServerNode.Aggregation(result, uri,
            LinearSink.sum(uri, clients(arg, uri), ex.options()));
        case "federated_mean" -> new ServerNode.Aggregation(result, uri,
            LinearSink.mean(clients(arg, uri), ex.options()));
        case "federated_weighted_mean" -> new ServerNode.Aggregation(result, uri,
            LinearSink.weightedMean(clients(part(arg, 0), uri), clients(part(arg, 1), uri),
                ex.options()));
        case "federated_min", "federated_max" -> new ServerNode.Aggregation(result, uri,
            new MinMaxSink(uri.equals("federated_max"), clients(arg, uri)));
        case "federated_aggregate" -> new ServerNode.Aggregation(result, uri,
            new AggregateSink(clients(part(arg, 0), uri), unplaced(part(arg, 1), uri),
                fn(part(arg, 2), uri), fn(part(arg, 3), uri), fn(part(arg, 4), uri),
                ex.evaluator()));
        case "federated_secure_sum", "federated_secure_sum_bitwidth" ->
            new ServerNode.Aggregation(result, uri, LinearSink.secure(uri,
                clients(part(arg, 0), uri), unplaced(part(arg, 1), uri),
                uri.endsWith("bitwidth"), ex.options(), ex.secureMode(uri, false)));
        case "federated_zip_at_clients" ->
            new ClientNode.Zip(result, arg, allUniform(arg));
        case "federated_zip_at_server" -> new ServerNode.Zip(result, arg);
        case "federated_value_at_clients" ->
            new ClientNode.Constant(result, unplaced(arg, uri));
        case "federated_value_at_server" ->
            new ServerNode.Constant(result, unplaced(arg, uri));
        case "federated_eval_at_clients" -> new ClientNode.Eval(result, fn(arg, uri));
        case "federated_eval_at_server" -> new ServerNode.Constant(result,
            evalNow(ex, fn(arg, uri), uri));
        // Secure select runs in the clear here: the keys are not hidden from the server.
        case "federated_select", "federated_secure_select" ->
            new ClientNode.Select(result, clients(part(arg, 0), uri), server(part(arg, 1), uri),
            server(part(arg, 2), uri), fn(part(arg, 3), uri));
        default -> uri.endsWith("_edges") ? EdgeCalls.call(ex, intrinsic, arg)
            : unknown(uri);
      };
    } catch (ExecutionFailedException e) {
      throw e;
    } catch (IllegalArgumentException | ClassCastException e) {
      throw FederatingExecutor.setupFailure(uri, e);
    }
  }

  private static Node unknown(String uri) {
    throw new LocalComputationException("the intrinsic " + uri
        + " has no implementation in the federating executor");
  }

  private static Object evalNow(FederatingExecutor ex, LocalFn fn, String uri) {
    try {
      return ex.evaluator().apply(fn, null);
    } catch (LocalFunctionFailure f) {
      throw new LocalComputationException(uri + " (" + f.operation() + ") failed on the server: "
          + f.getMessage(), f.getCause());
    }
  }

  static Node part(Node arg, int index) {
    if (arg instanceof Node.StructNode s) {
      return s.elements.get(index);
    }
    if (arg instanceof Node.Unplaced u && u.value instanceof StructValue sv) {
      return new Node.Unplaced(
          ((io.tributary.core.types.StructType) u.type()).get(index), sv.get(index));
    }
    throw new LocalComputationException("expected a struct argument, found one of type "
        + (arg == null ? "none" : arg.type()));
  }

  static ServerNode server(Node n, String uri) {
    if (n instanceof ServerNode s && s.type() instanceof io.tributary.core.types.FederatedType f
        && f.placement().equals(io.tributary.core.types.Placement.SERVER)) {
      return s;
    }
    throw new LocalComputationException(uri + " needs a value at SERVER, got one of type "
        + n.type());
  }

  static ClientNode clients(Node n, String uri) {
    if (n instanceof ClientNode c) {
      return c;
    }
    throw new LocalComputationException(uri + " needs a value at CLIENTS, got one of type "
        + n.type());
  }

  static LocalFn fn(Node n, String uri) {
    if (n instanceof Node.Unplaced u && u.value instanceof LocalFn f) {
      return f;
    }
    throw new LocalComputationException(uri + " needs a local function, got a value of type "
        + n.type());
  }

  static Object unplaced(Node n, String uri) {
    if (n instanceof Node.Unplaced u) {
      return u.value;
    }
    throw new LocalComputationException(uri + " needs an unplaced value, got one of type "
        + n.type());
  }

  private static boolean allUniform(Node n) {
    if (n instanceof Node.StructNode s) {
      for (Node e : s.elements) {
        if (!allUniform(e)) {
          return false;
        }
      }
      return true;
    }
    return n instanceof ClientNode c && c.uniform();
  }
}
