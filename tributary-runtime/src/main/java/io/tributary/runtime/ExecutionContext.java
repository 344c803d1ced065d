package io.tributary.runtime;

import io.tributary.core.computation.Computation;
import io.tributary.core.types.FunctionType;
import io.tributary.core.types.StructType;
import io.tributary.core.types.Type;
import io.tributary.core.values.StructValue;
import io.tributary.runtime.executor.Executor;
import io.tributary.runtime.executor.ExecutorValue;
import io.tributary.runtime.executor.ReferenceResolvingExecutor;
import io.tributary.runtime.executor.internal.federated.ClientInputs;
import io.tributary.runtime.executor.internal.federated.FederatingExecutor;
import io.tributary.runtime.executor.internal.local.ClosureTypes;
import io.tributary.runtime.executor.internal.pass.PassReplay;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs computations on this machine: {@code invoke(computation, args)} gives the result.
 *
 * <pre>{@code
 * try (ExecutionContext ctx = ExecutionContext.create(RuntimeOptions.defaults())) {
 *   Tensor mean = (Tensor) ctx.invoke(averageTemperature, List.of(t1, t2, t3));
 * }
 * }</pre>
 *
 * <p><b>Values.</b> A tensor type is a {@link io.tributary.tensor.Tensor}; a struct type a
 * {@link StructValue}; a sequence type an {@link Iterable} (re-iterable) of element values;
 * {@code T@SERVER} and {@code T@CLIENTS} the member value itself; {@code {T}@CLIENTS} a
 * {@link java.util.List} with one value per client, or {@link ClientValues} (which may generate
 * the values on demand). A struct parameter may be given as one {@link StructValue} or as one
 * argument per element. Results use the same representation ({@code {T}@CLIENTS} as a List).
 *
 * <p><b>Executors.</b> Each invocation builds the stack {@link ReferenceResolvingExecutor} over
 * {@link FederatingExecutor} (over a local executor); the pools are the context's, shared by
 * invocations, and so is what the top executor works out about a computation's lambdas (their
 * captured names and types), so a computation invoked every round is type-checked once. Close
 * the context to stop the pools.
 *
 * <p><b>Pass engines.</b> With {@link RuntimeOptions#withPassEngine}, each client pass runs on
 * the engine instead of the pool; {@link #computePassPart} (and {@link #combinePassParts}) is what
 * the engine's workers call.
 */
public final class ExecutionContext implements AutoCloseable {
  private final RuntimeOptions options;
  private final ExecutorService pool;
  private final ExecutorService coordinator;
  /**
   * What the invocations' reference resolving executors learn about a computation's lambdas:
   * the same computation run every round is type-checked once, not once a round.
   */
  private final ClosureTypes closureTypes = new ClosureTypes();

  private ExecutionContext(RuntimeOptions options) {
    this.options = options;
    this.pool = Executors.newFixedThreadPool(options.threads(), daemons("tributary-client"));
    this.coordinator = Executors.newCachedThreadPool(daemons("tributary-coordinator"));
  }

  /** A context with its own bounded pool of {@code options.threads()} threads. */
  public static ExecutionContext create(RuntimeOptions options) {
    return new ExecutionContext(Objects.requireNonNull(options, "options"));
  }

  private static ThreadFactory daemons(String prefix) {
    AtomicInteger n = new AtomicInteger();
    return r -> {
      Thread t = new Thread(r, prefix + "-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
  }

  public RuntimeOptions options() {
    return options;
  }

  /**
   * Runs {@code computation} on {@code args} and returns its result.
   *
   * @throws ValueMismatchException if an argument does not fit the parameter type
   * @throws ClientFailureException if a client fails and failures are not tolerated
   * @throws TooManyClientFailuresException if fewer clients than required succeed
   * @throws CardinalityException if the number of clients is unknown or inconsistent
   * @throws LocalComputationException if local code fails outside client work
   */
  public Object invoke(Computation computation, Object... args) {
    return invokeWithReport(computation, args).value();
  }

  /** Like {@link #invoke}, and also says how many clients ran, which failed, and how long. */
  public Outcome invokeWithReport(Computation computation, Object... args) {
    return run(computation, args, Optional.empty(), ClientObserver.NONE);
  }

  /**
   * Like {@link #invokeWithReport}, and tells {@code observer} of each client as its work in a
   * client pass ends or fails, while the pass goes (see {@link ClientObserver}). The result is
   * bit-identical to {@link #invokeWithReport}'s; what the observer throws is logged and
   * ignored. Passes on a {@link RuntimeOptions#passEngine()} tell nothing per client.
   */
  public Outcome invokeObserved(Computation computation, ClientObserver observer,
      Object... args) {
    return run(computation, args, Optional.empty(), Objects.requireNonNull(observer, "observer"));
  }

  /**
   * Computes a worker's part of a client pass for a {@link PassEngine}: replays the invocation
   * of {@code computation} on {@code arguments} (as the driver's {@link PassRequest} gives them)
   * without computing the passes before {@code pass}, whose results {@code earlier} holds, and
   * computes groups {@code [fromGroup, toGroup)} of pass {@code pass} on this context's threads.
   *
   * <p>Each client's work is the one a local run does (the same client indices, seeded the same
   * way), so the part is bit-identical to those groups of a local run, provided this context's
   * options equal the driver's in everything but the engine. This context's own pass engine, if
   * any, is not used.
   *
   * @throws PassEngineException when the request does not fit the invocation (no such pass, a
   *     range outside it, malformed earlier results)
   * @throws ExecutionFailedException when the invocation fails before the pass, as it would
   *     locally
   */
  public PassPart computePassPart(Computation computation, List<Object> arguments, int pass,
      byte[] earlier, long fromGroup, long toGroup) {
    Objects.requireNonNull(computation, "computation");
    PassReplay replay = new PassReplay(pass, Objects.requireNonNull(earlier, "earlier"),
        fromGroup, toGroup);
    Object[] args = arguments.toArray();
    return replay.run(() -> run(computation, args, Optional.of(replay), ClientObserver.NONE));
  }

  /**
   * Like {@link #computePassPart(Computation, List, int, byte[], long, long)}, from the pass's
   * client-side inputs alone ({@link PassRequest#clientInputs}): what a worker that may not
   * learn the server's state (a node rather than the operator's cluster) is given. The part is
   * bit-identical to one computed from the whole arguments and earlier results. The passes
   * before are not computed, and the server-placed arguments are not known: a computation
   * whose pass reads one otherwise than through the inputs fails.
   *
   * @throws PassEngineException when the inputs do not fit the computation (another pass, a
   *     server value missing or of the wrong type) or the range does not fit the pass
   */
  public PassPart computePassPart(Computation computation, PassInputs inputs, long fromGroup,
      long toGroup) {
    Objects.requireNonNull(inputs, "inputs");
    return replayFromInputs(computation, PassReplay.fromInputs(inputs, fromGroup, toGroup));
  }

  /**
   * A node's part of a client pass for its one client, group {@code group}, from the pass's
   * client-side inputs alone (as {@link #computePassPart(Computation, PassInputs, long, long)}):
   * the client's inputs to the pass's secure sums go to {@code client}, the client side of a
   * secure sum protocol, and not into the part; what it returned comes back beside the part
   * ({@link ClientPassPart}). The driver's {@link PassEngine#runSecure} receives the part, and
   * the protocol's server side the rest. A pass without secure sums gives its part alone.
   *
   * @throws SecureSumException when the pass's groups hold several clients (more than 511 clients),
   *     or the protocol refuses the input
   * @throws PassEngineException as {@link #computePassPart(Computation, PassInputs, long, long)}
   */
  public ClientPassPart computeClientPart(Computation computation, PassInputs inputs, long group,
      SecureSumClient client) {
    Objects.requireNonNull(inputs, "inputs");
    PassReplay replay = PassReplay.forClient(inputs, group, client);
    PassPart part = replayFromInputs(computation, replay);
    return new ClientPassPart(part, replay.sent());
  }

  private PassPart replayFromInputs(Computation computation, PassReplay replay) {
    Objects.requireNonNull(computation, "computation");
    Optional<Object> argument = ClientInputs.rebuild(computation.type().parameter(),
        replay.inputs().clientArguments());
    Object[] args = argument.map(a -> new Object[] {a}).orElse(new Object[0]);
    return replay.run(() -> run(computation, args, Optional.of(replay), ClientObserver.NONE));
  }

  /**
   * Combines parts of a client pass for a {@link PassEngine} into one, on a worker: the parts
   * (computed by {@link #computePassPart} anywhere) must cover consecutive groups once sorted;
   * the result is the part of their union, holding its complete subtrees as one worker's
   * {@link #computePassPart} over the union would, bit for bit, but computing no client. An
   * engine uses it as a second, smaller stage of the pass's fixed reduction tree, so that its
   * driver receives a few parts whatever the number of tasks. It replays the invocation up to
   * the pass, as {@link #computePassPart} does, to learn the pass's aggregations.
   *
   * @throws PassEngineException when {@code parts} is empty, a part is malformed, they overlap
   *     or leave a gap, or the request does not fit the invocation
   * @throws ExecutionFailedException when the invocation fails before the pass, as it would
   *     locally
   */
  public PassPart combinePassParts(Computation computation, List<Object> arguments, int pass,
      byte[] earlier, List<PassPart> parts) {
    Objects.requireNonNull(computation, "computation");
    PassReplay replay = PassReplay.combining(pass, Objects.requireNonNull(earlier, "earlier"),
        Objects.requireNonNull(parts, "parts"));
    Object[] args = arguments.toArray();
    return replay.run(() -> run(computation, args, Optional.of(replay), ClientObserver.NONE));
  }

  /**
   * Like {@link #combinePassParts(Computation, List, int, byte[], List)}, for parts that arrive
   * one at a time in group order and together cover groups {@code [fromGroup, toGroup)}: only
   * one part and O(log n) partial results are held at once, however many parts there are.
   *
   * @throws PassEngineException as the other form does
   */
  public PassPart combinePassParts(Computation computation, List<Object> arguments, int pass,
      byte[] earlier, long fromGroup, long toGroup, java.util.Iterator<PassPart> parts) {
    Objects.requireNonNull(computation, "computation");
    PassReplay replay = PassReplay.combining(pass, Objects.requireNonNull(earlier, "earlier"),
        fromGroup, toGroup, parts);
    Object[] args = arguments.toArray();
    return replay.run(() -> run(computation, args, Optional.of(replay), ClientObserver.NONE));
  }

  private Outcome run(Computation computation, Object[] args, Optional<PassReplay> replay,
      ClientObserver observer) {
    Objects.requireNonNull(computation, "computation");
    long start = System.nanoTime();
    FunctionType type = computation.type();
    Optional<Object> argument = argument(type, args);
    FederatingExecutor federating = new FederatingExecutor(
        replay.isPresent() ? options.withoutPassEngine() : options, pool, coordinator,
        computation, Arrays.asList(args), argument, replay, observer);
    try (Executor stack = new ReferenceResolvingExecutor(federating, closureTypes)) {
      ExecutorValue fn = join(stack.createValue(computation.block(), type));
      Optional<ExecutorValue> arg = Optional.empty();
      if (argument.isPresent()) {
        arg = Optional.of(join(stack.createValue(argument.get(), type.parameter().get())));
      }
      ExecutorValue result = join(stack.createCall(fn, arg));
      Object value = join(stack.materialize(result));
      ExecutionReport report = new ExecutionReport(federating.cardinality().orElse(0),
          federating.failures(), federating.passes(),
          Duration.ofNanos(System.nanoTime() - start));
      return new Outcome(value, report);
    }
  }

  private static Optional<Object> argument(FunctionType type, Object[] args) {
    if (type.parameter().isEmpty()) {
      if (args.length != 0) {
        throw new ValueMismatchException("the computation " + type + " takes no argument, but "
            + args.length + " were given");
      }
      return Optional.empty();
    }
    Type param = type.parameter().get();
    if (args.length == 1) {
      return Optional.of(args[0]);
    }
    if (param instanceof StructType st && args.length == st.size()) {
      List<Optional<String>> names = new java.util.ArrayList<>(st.size());
      for (StructType.Element e : st.elements()) {
        names.add(e.name());
      }
      return Optional.of(StructValue.of(names, Arrays.asList(args)));
    }
    throw new ValueMismatchException("the computation " + type + " takes one argument of type "
        + param + (param instanceof StructType st ? " (or " + st.size() + " arguments, one per "
        + "element)" : "") + ", but " + args.length + " were given");
  }

  private static <T> T join(java.util.concurrent.CompletableFuture<T> f) {
    try {
      return f.join();
    } catch (CompletionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      if (e.getCause() instanceof Error err) {
        throw err;
      }
      throw e;
    }
  }

  /** Stops the context's threads; client work still running is interrupted. */
  @Override
  public void close() {
    pool.shutdownNow();
    coordinator.shutdownNow();
  }
}
