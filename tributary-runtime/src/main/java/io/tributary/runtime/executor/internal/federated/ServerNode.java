package io.tributary.runtime.executor.internal.federated;

import io.tributary.core.types.Type;
import io.tributary.core.values.StructValue;
import io.tributary.runtime.LocalComputationException;
import io.tributary.runtime.PassEngineException;
import io.tributary.runtime.executor.internal.aggregation.Sink;
import io.tributary.runtime.executor.internal.local.DeferredTensors;
import io.tributary.runtime.executor.internal.local.LocalEvaluator;
import io.tributary.runtime.executor.internal.local.LocalFn;
import io.tributary.runtime.executor.internal.local.LocalFunctionFailure;
import java.util.ArrayList;
import java.util.List;

/**
 * A value at SERVER, computed at most once. Aggregations get their value from a client pass;
 * the other kinds compute from their inputs on the coordinating thread.
 */
public abstract class ServerNode extends Node {
  private Object value;
  /** Why a node's replay may not read this value (it was not among the pass's inputs), or null. */
  private String withheld;

  ServerNode(Type type) {
    super(type);
  }

  /** The value, computing it (and the server values it needs) on first use. */
  final synchronized Object value() {
    if (value == null && withheld != null) {
      throw new PassEngineException("the replay of a client pass read " + withheld + ", a "
          + "server value that is not among the pass's client-side inputs", null);
    }
    if (value == null) {
      value = compute();
      // Every client and later server work may read it: no tensor of it stays deferred.
      DeferredTensors.settle(value);
    }
    return value;
  }

  final synchronized boolean isComputed() {
    return value != null || withheld != null;
  }

  /**
   * Marks this value as one a node's replay does not hold: reading it fails naming {@code what},
   * unless the pass's inputs {@link #set} it.
   */
  final synchronized void withhold(String what) {
    withheld = what;
  }

  final synchronized void set(Object v) {
    DeferredTensors.settle(v);
    value = v;
  }

  abstract Object compute();

  /** The server values this one reads directly. */
  abstract List<ServerNode> serverInputs();

  /** The client values this one reads directly (only aggregations read any). */
  List<ClientNode> clientInputs() {
    return List.of();
  }

  /** A server-placed argument that a node's replay was not given ({@link ClientInputs}). */
  static final class Withheld extends ServerNode {
    Withheld(Type type, String where) {
      super(type);
      withhold(where + " (" + type + ")");
    }

    @Override
    Object compute() {
      throw new IllegalStateException("a withheld value is never computed");
    }

    @Override
    List<ServerNode> serverInputs() {
      return List.of();
    }
  }

  /** A value known from the start: an argument, or federated_value/eval_at_server. */
  public static final class Constant extends ServerNode {
    private final Object constant;

    Constant(Type type, Object constant) {
      super(type);
      this.constant = constant;
    }

    @Override
    Object compute() {
      return constant;
    }

    @Override
    List<ServerNode> serverInputs() {
      return List.of();
    }
  }

  /** {@code federated_apply}: a local function of a server value. */
  static final class Apply extends ServerNode {
    private final LocalFn fn;
    private final ServerNode input;
    private final LocalEvaluator evaluator;

    Apply(Type type, LocalFn fn, ServerNode input, LocalEvaluator evaluator) {
      super(type);
      this.fn = fn;
      this.input = input;
      this.evaluator = evaluator;
    }

    @Override
    Object compute() {
      try {
        return evaluator.apply(fn, input.value());
      } catch (LocalFunctionFailure f) {
        throw new LocalComputationException("federated_apply (" + f.operation()
            + ") failed on the server: " + f.getMessage(), f.getCause());
      }
    }

    @Override
    List<ServerNode> serverInputs() {
      return List.of(input);
    }
  }

  /** {@code federated_zip_at_server}: a struct of server values as one server value. */
  static final class Zip extends ServerNode {
    private final Node struct;

    Zip(Type type, Node struct) {
      super(type);
      this.struct = struct;
    }

    @Override
    Object compute() {
      return zip(struct);
    }

    private static Object zip(Node n) {
      if (n instanceof StructNode s) {
        List<Object> values = new ArrayList<>();
        for (Node e : s.elements) {
          values.add(zip(e));
        }
        return StructValue.of(s.names, values);
      }
      return ((ServerNode) n).value();
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

  /** The result of an aggregation over the clients, filled in by a client pass. */
  static final class Aggregation extends ServerNode {
    final String uri;
    final Sink sink;

    Aggregation(Type type, String uri, Sink sink) {
      super(type);
      this.uri = uri;
      this.sink = sink;
    }

    @Override
    Object compute() {
      throw new IllegalStateException(uri + " was read before its client pass ran");
    }

    @Override
    List<ServerNode> serverInputs() {
      return List.of();
    }

    @Override
    List<ClientNode> clientInputs() {
      return sink.inputs();
    }
  }
}
