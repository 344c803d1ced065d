package io.tributary.runtime.executor.internal.federated;

import io.tributary.core.types.FederatedType;
import io.tributary.core.types.Type;
import io.tributary.core.values.StructValue;
import io.tributary.runtime.ClientFailure;
import io.tributary.runtime.ClientValues;
import io.tributary.runtime.LocalComputationException;
import io.tributary.runtime.ValueChecker;
import io.tributary.runtime.executor.internal.local.DeferredTensors;
import io.tributary.runtime.executor.internal.local.LocalFn;
import io.tributary.runtime.executor.internal.local.LocalFunctionFailure;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.TensorMath;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A value at CLIENTS, computed per client during a pass.
 *
 * <p>A <em>uniform</em> node holds the same value at every client (a broadcast, a value placed at
 * the clients, a function of those): it is computed once and shared. Any other node is computed
 * per client inside a {@link ClientScope}, so a client's intermediate values live only while the
 * client is being worked on.
 */
public abstract class ClientNode extends Node {
  private final boolean uniform;
  private Object uniformValue;

  ClientNode(Type type, boolean uniform) {
    super(type);
    this.uniform = uniform;
  }

  /** Whether every client holds the same value (computed once and shared). */
  public final boolean uniform() {
    return uniform;
  }

  /** The member type every client's value has. */
  public final Type member() {
    return ((FederatedType) type()).member();
  }

  /** This node's value at {@code scope}'s client. */
  public final Object valueFor(ClientScope scope) {
    if (uniform) {
      return uniformValue(scope);
    }
    return scope.memo(this, () -> compute(scope));
  }

  private synchronized Object uniformValue(ClientScope scope) {
    if (uniformValue == null) {
      uniformValue = compute(scope);
      // Shared by every client: no tensor of it stays deferred.
      DeferredTensors.settle(uniformValue);
    }
    return uniformValue;
  }

  /** Computes the value at the scope's client (for a uniform node, at any client). */
  abstract Object compute(ClientScope scope);

  abstract List<ServerNode> serverInputs();

  /** The client values this node's value is computed from. */
  public abstract List<ClientNode> clientInputs();

  /** A {@code {T}@CLIENTS} argument, held in memory or generated per client. */
  public static final class Argument extends ClientNode {
    /** The clients' values. */
    public final ClientValues values;

    /** An argument of type {@code type} (placed at CLIENTS) with these values. */
    public Argument(Type type, ClientValues values) {
      super(type, false);
      this.values = values;
    }

    @Override
    Object compute(ClientScope scope) {
      Object v;
      try {
        v = values.get(scope.client);
      } catch (RuntimeException e) {
        // The generator is user code: whatever it throws is this client's failure.
        throw new ClientWorkException(new ClientFailure(scope.client, "", "client values",
            ClientFailure.Kind.THREW, e.toString()), e);
      }
      if (!values.inMemory()) {
        Optional<String> bad = ValueChecker.problem(member(), v, "");
        if (bad.isPresent()) {
          throw new ClientWorkException(new ClientFailure(scope.client, "", "client values",
              ClientFailure.Kind.BAD_VALUE, bad.get()), null);
        }
      }
      // The caller's value, which it may read again: a pass that discards its clients' values
      // must not discard it.
      DeferredTensors.settle(v);
      return v;
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

  /** The same value at every client: an all-equal argument or federated_value_at_clients. */
  public static final class Constant extends ClientNode {
    private final Object value;

    Constant(Type type, Object value) {
      super(type, true);
      this.value = value;
    }

    @Override
    Object compute(ClientScope scope) {
      return value;
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

  /** {@code federated_broadcast}: the server's value at every client. */
  static final class Broadcast extends ClientNode {
    private final ServerNode source;

    Broadcast(Type type, ServerNode source) {
      super(type, true);
      this.source = source;
    }

    @Override
    Object compute(ClientScope scope) {
      return source.value();
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

  /**
   * {@code federated_map} and {@code federated_map_all_equal}: a local function of each
   * client's value (computed once when the input is uniform).
   */
  static final class Map extends ClientNode {
    private final String uri;
    private final LocalFn fn;
    private final ClientNode input;

    Map(Type type, String uri, LocalFn fn, ClientNode input) {
      super(type, input.uniform());
      this.uri = uri;
      this.fn = fn;
      this.input = input;
    }

    @Override
    Object compute(ClientScope scope) {
      Object in = input.valueFor(scope);
      String before = scope.running;
      scope.running = uri;
      try {
        return scope.evaluator.apply(fn, in);
      } catch (LocalFunctionFailure f) {
        if (uniform()) {
          throw new LocalComputationException(uri + " (" + f.operation() + ") failed on a value "
              + "every client holds: " + f.getMessage(), f.getCause());
        }
        throw new ClientWorkException(new ClientFailure(scope.client, uri, f.operation(),
            f.kind(), f.getMessage()), f.getCause());
      } finally {
        scope.running = before;
      }
    }

    @Override
    List<ServerNode> serverInputs() {
      return List.of();
    }

    @Override
    public List<ClientNode> clientInputs() {
      return List.of(input);
    }
  }

  /** {@code federated_zip_at_clients}: a struct of client values as one client value. */
  static final class Zip extends ClientNode {
    private final Node struct;

    Zip(Type type, Node struct, boolean uniform) {
      super(type, uniform);
      this.struct = struct;
    }

    @Override
    Object compute(ClientScope scope) {
      return zip(struct, scope);
    }

    private static Object zip(Node n, ClientScope scope) {
      if (n instanceof StructNode s) {
        List<Object> values = new ArrayList<>();
        for (Node e : s.elements) {
          values.add(zip(e, scope));
        }
        return StructValue.of(s.names, values);
      }
      return ((ClientNode) n).valueFor(scope);
    }

    @Override
    List<ServerNode> serverInputs() {
      return List.of();
    }

    @Override
    public List<ClientNode> clientInputs() {
      List<ClientNode> out = new ArrayList<>();
      collect(struct, out);
      return out;
    }

    private static void collect(Node n, List<ClientNode> out) {
      if (n instanceof StructNode s) {
        for (Node e : s.elements) {
          collect(e, out);
        }
      } else {
        out.add((ClientNode) n);
      }
    }
  }

  /** {@code federated_eval_at_clients}: a function without a parameter, run at each client. */
  static final class Eval extends ClientNode {
    private final LocalFn fn;

    Eval(Type type, LocalFn fn) {
      super(type, false);
      this.fn = fn;
    }

    @Override
    Object compute(ClientScope scope) {
      scope.running = "federated_eval_at_clients";
      try {
        return scope.evaluator.apply(fn, null);
      } catch (LocalFunctionFailure f) {
        throw new ClientWorkException(new ClientFailure(scope.client, "federated_eval_at_clients",
            f.operation(), f.kind(), f.getMessage()), f.getCause());
      }
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
   * {@code federated_select}: each client's keys pick values that the select function derives
   * from the server's state, giving the client a sequence in key order.
   */
  static final class Select extends ClientNode {
    private static final String URI = "federated_select";
    private final ClientNode keys;
    private final ServerNode maxKey;
    private final ServerNode state;
    private final LocalFn fn;

    Select(Type type, ClientNode keys, ServerNode maxKey, ServerNode state, LocalFn fn) {
      super(type, false);
      this.keys = keys;
      this.maxKey = maxKey;
      this.state = state;
      this.fn = fn;
    }

    @Override
    Object compute(ClientScope scope) {
      Tensor k = (Tensor) keys.valueFor(scope);
      int max = ((Tensor) maxKey.value()).getInt(0);
      Object s = state.value();
      long[] ids = TensorMath.toLongs(k);
      List<Object> out = new ArrayList<>(ids.length);
      scope.running = URI;
      for (long id : ids) {
        if (id < 0 || id >= max) {
          throw new ClientWorkException(new ClientFailure(scope.client, URI, "keys",
              ClientFailure.Kind.BAD_VALUE, "key " + id + " is outside [0, " + max + ")"), null);
        }
        try {
          out.add(scope.evaluator.apply(fn, StructValue.of(s, Tensor.ofInts(
              io.tributary.tensor.Shape.scalar(), (int) id))));
        } catch (LocalFunctionFailure f) {
          throw new ClientWorkException(new ClientFailure(scope.client, URI, f.operation(),
              f.kind(), f.getMessage()), f.getCause());
        }
      }
      return List.copyOf(out);
    }

    @Override
    List<ServerNode> serverInputs() {
      return List.of(maxKey, state);
    }

    @Override
    public List<ClientNode> clientInputs() {
      return List.of(keys);
    }
  }
}
