package io.tributary.runtime.executor.internal.federated;

import io.tributary.core.compiler.BuildingBlock;
import io.tributary.core.compiler.Data;
import io.tributary.core.compiler.Intrinsic;
import io.tributary.core.computation.Computation;
import io.tributary.core.types.FederatedType;
import io.tributary.core.types.FunctionType;
import io.tributary.core.types.Placement;
import io.tributary.core.types.StructType;
import io.tributary.core.types.Type;
import io.tributary.core.types.Types;
import io.tributary.core.values.StructValue;
import io.tributary.runtime.CardinalityException;
import io.tributary.runtime.ClientFailure;
import io.tributary.runtime.ClientObserver;
import io.tributary.runtime.ClientValues;
import io.tributary.runtime.Edges;
import io.tributary.runtime.ExecutionFailedException;
import io.tributary.runtime.LocalComputationException;
import io.tributary.runtime.PassEngine;
import io.tributary.runtime.RuntimeOptions;
import io.tributary.runtime.SecureSumException;
import io.tributary.runtime.ValueChecker;
import io.tributary.runtime.ValueMismatchException;
import io.tributary.runtime.executor.Executor;
import io.tributary.runtime.executor.ExecutorValue;
import io.tributary.runtime.executor.internal.aggregation.SecureMode;
import io.tributary.runtime.executor.internal.local.LocalEvaluator;
import io.tributary.runtime.executor.internal.local.LocalExecutor;
import io.tributary.runtime.executor.internal.local.LocalFn;
import io.tributary.runtime.executor.internal.pass.ClientPass;
import io.tributary.runtime.executor.internal.pass.PassReplay;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;

/**
 * The executor for placed values: it binds CLIENTS to a population, runs the federated
 * intrinsics, and hands unplaced work to a {@link LocalExecutor}.
 *
 * <p>Values at SERVER and CLIENTS are nodes of a lazy graph; nothing placed is computed until
 * {@link #materialize} is asked for a result. Then a {@link Planner} finds every aggregation the
 * result needs and runs them in as few {@link ClientPass}es as their dependencies allow: one
 * pass computes each client's work once and streams it into all the aggregations that read it.
 * The number of clients comes from the {@code {T}@CLIENTS} arguments (which must agree), or from
 * {@link RuntimeOptions#population()}.
 *
 * <p>One instance serves one invocation: it records the population size, the failed clients and
 * the passes run, which {@link #failures()} and {@link #passes()} report afterwards.
 */
public final class FederatingExecutor implements Executor {
  private static final Set<String> LOCAL_INTRINSICS = Set.of("sequence_map", "sequence_reduce",
      "sequence_sum", "generic_plus", "generic_divide", "generic_multiply", "generic_zero");

  private final RuntimeOptions options;
  private final ExecutorService pool;
  private final ExecutorService coordinator;
  private final LocalExecutor local;
  private final Planner planner;
  private final Optional<Invocation> invocation;
  private final Optional<PassReplay> replay;
  private final ClientObserver observer;
  private OptionalInt cardinality = OptionalInt.empty();
  private ClientNode edgeOf;
  private ClientNode rankInEdge;

  /**
   * What a pass engine's workers replay: the computation invoked, its arguments as the caller
   * gave them, and the one argument they form (empty for a computation without a parameter).
   */
  record Invocation(Computation computation, List<Object> arguments, Optional<Object> argument) {}

  /**
   * An executor that runs passes locally, without a pass engine.
   *
   * @param options threads, timeout, failure tolerance, population and data
   * @param pool the bounded pool (at least {@code options.threads()} threads) for client work
   * @param coordinator an unbounded pool that plans passes and runs timed client work
   */
  public FederatingExecutor(RuntimeOptions options, ExecutorService pool,
      ExecutorService coordinator) {
    this(options.withoutPassEngine(), pool, coordinator, Optional.empty(), Optional.empty(),
        ClientObserver.NONE);
  }

  /**
   * An executor for one invocation of {@code computation} on {@code arguments} (as the caller
   * gave them), which a {@link RuntimeOptions#passEngine()} replays on its workers; with
   * {@code replay}, this executor is such a worker's.
   *
   * @param argument the one argument {@code arguments} form, as the context built it
   * @param replay the worker's replay, or empty on the driver (or without an engine)
   * @param observer told of each client as its work in a local pass ends
   */
  public FederatingExecutor(RuntimeOptions options, ExecutorService pool,
      ExecutorService coordinator, Computation computation, List<Object> arguments,
      Optional<Object> argument, Optional<PassReplay> replay, ClientObserver observer) {
    this(options, pool, coordinator,
        Optional.of(new Invocation(computation, java.util.Collections.unmodifiableList(
            new ArrayList<>(arguments)), argument)), replay, observer);
  }

  private FederatingExecutor(RuntimeOptions options, ExecutorService pool,
      ExecutorService coordinator, Optional<Invocation> invocation,
      Optional<PassReplay> replay, ClientObserver observer) {
    this.observer = observer;
    this.options = options;
    this.pool = pool;
    this.coordinator = coordinator;
    this.local = new LocalExecutor(options.data());
    this.invocation = invocation;
    this.replay = replay;
    this.planner = new Planner(this);
  }

  Optional<Invocation> invocation() {
    return invocation;
  }

  Optional<PassReplay> replay() {
    return replay;
  }

  RuntimeOptions options() {
    return options;
  }

  ClientObserver observer() {
    return observer;
  }

  /**
   * Where a secure sum's clients' inputs go: to a node's protocol on a replay for one client, to
   * the engine's protocol on the driver of an engine that runs secure sums, else to the
   * options' {@code SecureSummation} or, without one, into a plain sum.
   *
   * @throws SecureSumException for a secure sum to edges where the inputs
   *     would leave through a protocol, which is not supported
   */
  SecureMode secureMode(String uri, boolean toEdges) {
    SecureMode mode;
    if (replay.isPresent()) {
      mode = replay.get().secureClient() ? SecureMode.CLIENT : plainMode();
    } else if (options.passEngine().map(PassEngine::runsSecureSums)
        .orElse(false)) {
      mode = SecureMode.ENGINE;
    } else {
      mode = plainMode();
    }
    if (toEdges && (mode == SecureMode.CLIENT || mode == SecureMode.ENGINE)) {
      throw new SecureSumException(uri + ": a secure sum to edges cannot "
          + "run where the clients are; only secure sums at the server can");
    }
    return mode;
  }

  private SecureMode plainMode() {
    return options.secureSum().isPresent() ? SecureMode.SUMMATION : SecureMode.CLEAR;
  }

  ExecutorService pool() {
    return pool;
  }

  ExecutorService coordinator() {
    return coordinator;
  }

  LocalEvaluator evaluator() {
    return local.evaluator();
  }

  /** The failed clients so far, over every pass. */
  public List<ClientFailure> failures() {
    return planner.failures();
  }

  /** The client passes run so far. */
  public int passes() {
    return planner.passes();
  }

  /** The number of CLIENTS, when known. */
  public synchronized OptionalInt cardinality() {
    return cardinality;
  }

  /** The number of CLIENTS, from the arguments or the population option. */
  synchronized int requireCardinality(String why) {
    if (cardinality.isPresent()) {
      return cardinality.getAsInt();
    }
    if (options.population().isPresent()) {
      cardinality = options.population();
      return cardinality.getAsInt();
    }
    if (options.edges().isPresent()) {
      cardinality = OptionalInt.of(options.edges().get().clients());
      return cardinality.getAsInt();
    }
    throw new CardinalityException("the number of CLIENTS is unknown, but " + why + " needs it:"
        + " pass a {T}@CLIENTS argument or set RuntimeOptions.withPopulation");
  }

  /**
   * Each client's edge, checked against the population: every client must have an edge and
   * every edge's clients must exist.
   */
  synchronized Edges requireEdges(String why) {
    Edges edges = options.edges().orElseThrow(() -> new CardinalityException(why + " needs each "
        + "client's edge, but no edges were given: set RuntimeOptions.withEdges"));
    int n = requireCardinality(why);
    if (edges.clients() < n) {
      throw new CardinalityException("client " + edges.clients() + " has no edge: the edges "
          + "cover " + edges.clients() + " clients but the population has " + n);
    }
    if (edges.clients() > n) {
      throw new CardinalityException("the edges cover " + edges.clients() + " clients but the "
          + "population has " + n);
    }
    return edges;
  }

  /** The client node that gives each client's edge, shared by every per-edge aggregation. */
  synchronized ClientNode edgeOf() {
    if (edgeOf == null) {
      edgeOf = EdgeClientNodes.ClientPlace.edgeOf(requireEdges("an aggregation to the edges"));
    }
    return edgeOf;
  }

  /** The client node that gives each client's position in its edge, shared like {@link #edgeOf}. */
  synchronized ClientNode rankInEdge() {
    if (rankInEdge == null) {
      rankInEdge = EdgeClientNodes.ClientPlace.rankInEdge(requireEdges("an aggregation to the edges"));
    }
    return rankInEdge;
  }

  private synchronized void bindCardinality(int n, String what) {
    if (cardinality.isPresent() && cardinality.getAsInt() != n) {
      throw new CardinalityException(what + " has " + n + " clients but the population has "
          + cardinality.getAsInt() + " (from an earlier argument or the population option)");
    }
    if (cardinality.isEmpty() && options.population().isPresent()
        && options.population().getAsInt() != n) {
      throw new CardinalityException(what + " has " + n + " clients but the population option "
          + "says " + options.population().getAsInt());
    }
    cardinality = OptionalInt.of(n);
  }

  // ------------------------------------------------------------------ executor interface

  @Override
  public CompletableFuture<ExecutorValue> createValue(Object value, Type type) {
    return attempt(() -> value(value, type, "the argument"));
  }

  private static CompletableFuture<ExecutorValue> attempt(
      java.util.function.Supplier<ExecutorValue> make) {
    try {
      return CompletableFuture.completedFuture(make.get());
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  private Node value(Object value, Type type, String where) {
    if (value instanceof BuildingBlock b) {
      return embed(b, type);
    }
    if (value instanceof ClientInputs.Withheld) {
      // A server value a node's replay was not given: reading it is an error, not a value.
      return new ServerNode.Withheld(type, where);
    }
    if (Types.isLocal(type)) {
      LocalExecutor.LocalValue v = local.value(value, type);
      return new Node.Unplaced(type, v.value);
    }
    if (type instanceof StructType st) {
      if (!(value instanceof StructValue sv) || sv.size() != st.size()) {
        throw new ValueMismatchException(where + ": expected a StructValue of " + st.size()
            + " elements for " + st + " but found " + ValueChecker.describe(value));
      }
      List<Node> elements = new ArrayList<>();
      List<Optional<String>> names = new ArrayList<>();
      for (int i = 0; i < st.size(); i++) {
        names.add(st.elements().get(i).name());
        elements.add(value(sv.get(i), st.get(i),
            where + "[" + st.elements().get(i).name().orElse(Integer.toString(i)) + "]"));
      }
      return struct(names, elements);
    }
    if (!(type instanceof FederatedType f)) {
      throw new ValueMismatchException(where + ": a value of type " + type + " cannot be passed");
    }
    if (f.placement().equals(Placement.SERVER)) {
      ValueChecker.check(f.member(), value, where);
      return new ServerNode.Constant(type, value);
    }
    if (f.placement().equals(Placement.EDGES)) {
      return edgeValue(value, f, where);
    }
    if (!f.placement().equals(Placement.CLIENTS)) {
      throw new ValueMismatchException(where + ": this runtime has no participants at "
          + f.placement());
    }
    if (f.allEqual()) {
      ValueChecker.check(f.member(), value, where);
      return new ClientNode.Constant(type, value);
    }
    ClientValues clients = switch (value) {
      case ClientValues c -> c;
      case List<?> l -> ClientValues.of(l);
      default -> throw new ValueMismatchException(where + ": a " + type + " value is a List or "
          + "ClientValues with one value per client, not " + ValueChecker.describe(value));
    };
    bindCardinality(clients.size(), where);
    if (clients.inMemory()) {
      for (int i = 0; i < clients.size(); i++) {
        ValueChecker.check(f.member(), clients.get(i), where + ", client " + i);
      }
    }
    return new ClientNode.Argument(type, clients);
  }

  /** A {@code T@EDGES} value (the one value) or a {@code {T}@EDGES} value (one per edge). */
  private Node edgeValue(Object value, FederatedType f, String where) {
    Edges edges = requireEdges(where);
    if (f.allEqual()) {
      ValueChecker.check(f.member(), value, where);
      return new ServerNode.Constant(f, value);
    }
    if (!(value instanceof List<?> list)) {
      throw new ValueMismatchException(where + ": a " + f + " value is a List with one value "
          + "per edge, not " + ValueChecker.describe(value));
    }
    if (list.size() != edges.count()) {
      throw new CardinalityException(where + " has " + list.size() + " edge values but there are "
          + edges.count() + " edges");
    }
    for (int e = 0; e < list.size(); e++) {
      ValueChecker.check(f.member(), list.get(e), where + ", edge " + e);
    }
    return new ServerNode.Constant(f, java.util.Collections.unmodifiableList(
        new ArrayList<>(list)));
  }

  private Node embed(BuildingBlock block, Type type) {
    if (block instanceof Intrinsic i) {
      if (LOCAL_INTRINSICS.contains(i.uri())) {
        return new Node.Unplaced(i.type(), local.value(block, i.type()).value);
      }
      return new Node.IntrinsicRef(i);
    }
    if (block instanceof Data d) {
      return value(local.evaluator().dataValue(d), d.type(), "data '" + d.uri() + "'");
    }
    if (!Types.isLocal(type)) {
      throw new LocalComputationException("the federating executor embeds intrinsics, data and "
          + "local computations; it was given " + block + " of type " + type);
    }
    return new Node.Unplaced(type, local.value(block, type).value);
  }

  @Override
  public CompletableFuture<ExecutorValue> createCall(
      ExecutorValue function, Optional<ExecutorValue> argument) {
    return attempt(() -> call((Node) function, argument.map(a -> (Node) a)));
  }

  private Node call(Node function, Optional<Node> argument) {
    if (function instanceof Node.IntrinsicRef ref) {
      return IntrinsicCalls.call(this, ref.intrinsic, argument.orElse(null));
    }
    if (function instanceof Node.Unplaced u && u.value instanceof LocalFn) {
      Optional<ExecutorValue> arg = Optional.empty();
      if (argument.isPresent()) {
        if (!(argument.get() instanceof Node.Unplaced a)) {
          throw new LocalComputationException("a local function was called with a placed value "
              + "of type " + argument.get().type());
        }
        arg = Optional.of(new LocalExecutor.LocalValue(a.type(), a.value));
      }
      LocalExecutor.LocalValue r = local.call(new LocalExecutor.LocalValue(u.type(), u.value), arg);
      return new Node.Unplaced(r.type(), r.value);
    }
    throw new LocalComputationException("call of a value of type " + function.type()
        + ", which is not a function");
  }

  @Override
  public CompletableFuture<ExecutorValue> createStruct(
      List<Optional<String>> names, List<ExecutorValue> elements) {
    return attempt(() -> {
      List<Node> nodes = new ArrayList<>(elements.size());
      for (ExecutorValue e : elements) {
        nodes.add((Node) e);
      }
      return struct(names, Collections.unmodifiableList(nodes));
    });
  }

  private Node struct(List<Optional<String>> names, List<Node> elements) {
    List<StructType.Element> types = new ArrayList<>();
    boolean unplaced = true;
    for (int i = 0; i < elements.size(); i++) {
      types.add(new StructType.Element(names.get(i), elements.get(i).type()));
      unplaced &= elements.get(i) instanceof Node.Unplaced;
    }
    StructType type = new StructType(types);
    if (unplaced) {
      List<Object> values = new ArrayList<>(elements.size());
      for (Node e : elements) {
        values.add(((Node.Unplaced) e).value);
      }
      return new Node.Unplaced(type, StructValue.of(names, values));
    }
    return new Node.StructNode(type, names, elements);
  }

  @Override
  public CompletableFuture<ExecutorValue> createSelection(ExecutorValue source, int index) {
    return attempt(() -> selection((Node) source, index));
  }

  private Node selection(Node source, int index) {
    if (source instanceof Node.StructNode s) {
      return s.elements.get(index);
    }
    if (source instanceof Node.Unplaced u && u.value instanceof StructValue sv
        && u.type() instanceof StructType st) {
      return new Node.Unplaced(st.get(index), sv.get(index));
    }
    throw new LocalComputationException("selection from a value of type " + source.type()
        + ", which is not a struct");
  }

  @Override
  public CompletableFuture<Object> materialize(ExecutorValue value) {
    return CompletableFuture.supplyAsync(() -> planner.materialize((Node) value), coordinator);
  }

  /** An unplaced value is already computed; functions included, it is captured as it is. */
  @Override
  public CompletableFuture<Object> capture(ExecutorValue value) {
    if (value instanceof Node.Unplaced u) {
      return CompletableFuture.completedFuture(u.value);
    }
    return materialize(value);
  }

  @Override
  public void close() {}

  /** The function result type of an intrinsic. */
  static Type resultType(Intrinsic i) {
    return ((FunctionType) i.type()).result();
  }

  /** Wraps non-runtime exceptions of intrinsic setup into the runtime's typed failure. */
  static ExecutionFailedException setupFailure(String uri, RuntimeException e) {
    return e instanceof ExecutionFailedException f ? f
        : new LocalComputationException(uri + ": " + e.getMessage(), e);
  }
}
