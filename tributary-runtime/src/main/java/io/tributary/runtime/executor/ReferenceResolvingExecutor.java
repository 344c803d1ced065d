package io.tributary.runtime.executor;

import io.tributary.core.compiler.Block;
import io.tributary.core.compiler.BuildingBlock;
import io.tributary.core.compiler.Call;
import io.tributary.core.compiler.CheckResult;
import io.tributary.core.compiler.Data;
import io.tributary.core.compiler.Intrinsic;
import io.tributary.core.compiler.Lambda;
import io.tributary.core.compiler.Literal;
import io.tributary.core.compiler.LocalComputation;
import io.tributary.core.compiler.PlacementLiteral;
import io.tributary.core.compiler.Reference;
import io.tributary.core.compiler.Selection;
import io.tributary.core.compiler.Struct;
import io.tributary.core.compiler.TypeChecker;
import io.tributary.core.types.FunctionType;
import io.tributary.core.types.PlacementType;
import io.tributary.core.types.StructType;
import io.tributary.core.types.TensorType;
import io.tributary.core.types.Type;
import io.tributary.core.types.Types;
import io.tributary.runtime.LocalComputationException;
import io.tributary.runtime.executor.internal.local.ClosureTypes;
import io.tributary.runtime.executor.internal.local.Env;
import io.tributary.runtime.executor.internal.local.LocalFn;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * The top of the executor stack: it evaluates the structure of a computation (lambdas, blocks,
 * references, calls, structs, selections) and passes everything else (intrinsics, data, literals,
 * local computations) to the executor below, as TFF's reference resolving executor does.
 *
 * <p>A lambda called here is evaluated here; a lambda handed to an intrinsic (the function of a
 * {@code federated_map}, say) becomes a local function value of the executor below, closed over
 * the local values its body refers to.
 */
public final class ReferenceResolvingExecutor implements Executor {
  private final Executor target;
  private final ClosureTypes closureTypes;

  /** Resolves references above {@code target}, which computes what this executor cannot. */
  public ReferenceResolvingExecutor(Executor target) {
    this(target, new ClosureTypes());
  }

  /**
   * Resolves references above {@code target}, remembering in {@code closureTypes} what it works
   * out about the lambdas it hands down: an execution context passes one memo to the executor of
   * each invocation, so a computation run every round is type-checked once.
   */
  public ReferenceResolvingExecutor(Executor target, ClosureTypes closureTypes) {
    this.target = target;
    this.closureTypes = java.util.Objects.requireNonNull(closureTypes, "closureTypes");
  }

  /** A value of this executor. */
  private sealed interface Value extends ExecutorValue {}

  private record Delegated(ExecutorValue value) implements Value {
    @Override
    public Type type() {
      return value.type();
    }
  }

  /** A lambda and the scope it was evaluated in; {@code memo} keeps what its type needs. */
  private record Closure(Lambda lambda, Scope scope, ClosureTypes memo) implements Value {
    @Override
    public Type type() {
      return inferred(this).type();
    }
  }

  private record StructOf(List<Optional<String>> names, List<Value> elements) implements Value {
    @Override
    public Type type() {
      List<StructType.Element> types = new ArrayList<>();
      for (int i = 0; i < elements.size(); i++) {
        types.add(new StructType.Element(names.get(i), elements.get(i).type()));
      }
      return new StructType(types);
    }
  }

  /** Names bound to values, innermost first. */
  private record Scope(String name, Value value, Scope outer) {
    static final Scope EMPTY = new Scope(null, null, null);

    Optional<Value> lookup(String n) {
      for (Scope s = this; s.name != null; s = s.outer) {
        if (s.name.equals(n)) {
          return Optional.of(s.value);
        }
      }
      return Optional.empty();
    }

    Scope bind(String n, Value v) {
      return new Scope(n, v, this);
    }
  }

  @Override
  public CompletableFuture<ExecutorValue> createValue(Object value, Type type) {
    if (value instanceof BuildingBlock b) {
      return widen(evaluate(b, Scope.EMPTY));
    }
    return map(target.createValue(value, type), Delegated::new);
  }

  @Override
  public CompletableFuture<ExecutorValue> createCall(
      ExecutorValue function, Optional<ExecutorValue> argument) {
    return widen(call((Value) function, argument.map(a -> (Value) a)));
  }

  @Override
  public CompletableFuture<ExecutorValue> createStruct(
      List<Optional<String>> names, List<ExecutorValue> elements) {
    List<Value> values = new ArrayList<>(elements.size());
    for (ExecutorValue e : elements) {
      values.add((Value) e);
    }
    return CompletableFuture.completedFuture(
        new StructOf(List.copyOf(names), Collections.unmodifiableList(values)));
  }

  @Override
  public CompletableFuture<ExecutorValue> createSelection(ExecutorValue source, int index) {
    return widen(select((Value) source, index));
  }

  @Override
  public CompletableFuture<Object> materialize(ExecutorValue value) {
    return then(delegate((Value) value), target::materialize);
  }

  @Override
  public CompletableFuture<Object> capture(ExecutorValue value) {
    return then(delegate((Value) value), target::capture);
  }

  @Override
  public void close() {
    target.close();
  }

  // ------------------------------------------------------------------ evaluation

  private CompletableFuture<Value> evaluate(BuildingBlock block, Scope scope) {
    return switch (block) {
      case Reference r -> scope.lookup(r.name()).<CompletableFuture<Value>>map(
          CompletableFuture::completedFuture).orElseGet(() -> CompletableFuture.failedFuture(
              new LocalComputationException("reference to '" + r.name()
                  + "', which is not bound here")));
      case Selection s -> then(evaluate(s.source(), scope), src -> select(src, s.key()));
      case Struct s -> {
        List<CompletableFuture<Value>> parts = new ArrayList<>();
        List<Optional<String>> names = new ArrayList<>();
        for (Struct.Element e : s.elements()) {
          parts.add(evaluate(e.value(), scope));
          names.add(e.name());
        }
        yield map(all(parts), values -> new StructOf(names, values));
      }
      case Call c -> then(evaluate(c.function(), scope), fn -> {
        if (c.argument().isEmpty()) {
          return call(fn, Optional.empty());
        }
        return then(evaluate(c.argument().get(), scope), a -> call(fn, Optional.of(a)));
      });
      case Lambda l -> CompletableFuture.completedFuture(new Closure(l, scope, closureTypes));
      case Block b -> block(b.locals(), 0, b.result(), scope);
      case Intrinsic i -> delegateBlock(i, i.type());
      case Data d -> delegateBlock(d, d.type());
      case Literal l -> delegateBlock(l,
          TensorType.of(l.value().dtype(), l.value().shape().dims()));
      case LocalComputation lc -> delegateBlock(lc, lc.type());
      case PlacementLiteral p -> delegateBlock(p, new PlacementType());
    };
  }

  private CompletableFuture<Value> delegateBlock(BuildingBlock b, Type type) {
    return map(target.createValue(b, type), Delegated::new);
  }

  private CompletableFuture<Value> block(
      List<Block.Local> locals, int next, BuildingBlock result, Scope scope) {
    if (next == locals.size()) {
      return evaluate(result, scope);
    }
    Block.Local local = locals.get(next);
    return then(evaluate(local.value(), scope),
        v -> block(locals, next + 1, result, scope.bind(local.name(), v)));
  }

  private CompletableFuture<Value> call(Value fn, Optional<Value> arg) {
    if (fn instanceof Closure c) {
      Lambda l = c.lambda();
      Scope inner = l.parameterType().isPresent()
          ? c.scope().bind(l.parameterName(), arg.orElseThrow())
          : c.scope();
      return evaluate(l.result(), inner);
    }
    CompletableFuture<ExecutorValue> f = delegate(fn);
    if (arg.isEmpty()) {
      return map(then(f, x -> target.createCall(x, Optional.empty())), Delegated::new);
    }
    CompletableFuture<ExecutorValue> a = delegate(arg.get());
    return map(then(f, x -> then(a, y -> target.createCall(x, Optional.of(y)))), Delegated::new);
  }

  private CompletableFuture<Value> select(Value source, Selection.Key key) {
    int index = switch (key) {
      case Selection.ByIndex i -> i.index();
      case Selection.ByName n -> {
        if (!(source.type() instanceof StructType st) || st.indexOf(n.name()) < 0) {
          yield -1;
        }
        yield st.indexOf(n.name());
      }
    };
    if (index < 0) {
      return CompletableFuture.failedFuture(new LocalComputationException(
          "selection of " + key + " from a value of type " + source.type()));
    }
    return select(source, index);
  }

  private CompletableFuture<Value> select(Value source, int index) {
    if (source instanceof StructOf s) {
      return CompletableFuture.completedFuture(s.elements().get(index));
    }
    return map(then(delegate(source), v -> target.createSelection(v, index)), Delegated::new);
  }

  /** The value as one of the target's: structs are built there, closures become functions. */
  private CompletableFuture<ExecutorValue> delegate(Value v) {
    return switch (v) {
      case Delegated d -> CompletableFuture.completedFuture(d.value());
      case StructOf s -> {
        List<CompletableFuture<ExecutorValue>> parts = new ArrayList<>();
        for (Value e : s.elements()) {
          parts.add(delegate(e));
        }
        yield then(all(parts), values -> target.createStruct(s.names(), values));
      }
      case Closure c -> close(c);
    };
  }

  /**
   * A local lambda as a function value of the target: its free names are replaced by the local
   * values they are bound to, computed now (local values never wait on federated work). A free
   * name may be bound to a function, such as the {@code fn} that federated-language's curried
   * {@code (arg0 -> (arg1 -> sequence_map(<arg0,arg1>)))(fn)} captures: the target keeps it as a
   * function value ({@link Executor#capture}).
   */
  private CompletableFuture<ExecutorValue> close(Closure c) {
    ClosureTypes.Inferred inferred = inferred(c);
    Type type = inferred.type();
    if (!inferred.local()) {
      return CompletableFuture.failedFuture(new LocalComputationException(
          "the function " + c.lambda() + " of type " + type + " is passed as a value, but only "
              + "local functions can be"));
    }
    List<String> names = freeNames(c);
    List<CompletableFuture<Object>> values = new ArrayList<>();
    for (String n : names) {
      Value bound = c.scope().lookup(n).orElseThrow();
      values.add(then(delegate(bound), target::capture));
    }
    return then(all(values), vs -> {
      Env env = Env.EMPTY;
      for (int i = 0; i < names.size(); i++) {
        env = env.bind(names.get(i), vs.get(i));
      }
      return target.createValue(new LocalFn.Closure(c.lambda(), env), type);
    });
  }

  /** The names a closure's lambda captures, in order of first use (remembered per lambda). */
  private static List<String> freeNames(Closure c) {
    return c.memo().freeNames(c.lambda(), l -> new ArrayList<>(FreeNames.of(l)));
  }

  /**
   * A closure's function type, inferred with the types of the names it captures, and whether it
   * is local: remembered per lambda and captured types, as it depends on nothing else.
   */
  private static ClosureTypes.Inferred inferred(Closure c) {
    List<String> free = freeNames(c);
    List<Type> captured = new ArrayList<>(free.size());
    for (String name : free) {
      captured.add(c.scope().lookup(name).orElseThrow().type());
    }
    Optional<ClosureTypes.Inferred> known = c.memo().type(c.lambda(), captured);
    if (known.isPresent()) {
      return known.get();
    }
    BuildingBlock wrapped = c.lambda();
    for (int i = free.size() - 1; i >= 0; i--) {
      wrapped = Lambda.of(free.get(i), captured.get(i), wrapped);
    }
    CheckResult check = TypeChecker.check(wrapped);
    if (!check.ok()) {
      throw new LocalComputationException("the lambda " + c.lambda() + " does not type check: "
          + check.report());
    }
    Type t = check.type().orElseThrow();
    for (int i = 0; i < free.size(); i++) {
      t = ((FunctionType) t).result();
    }
    ClosureTypes.Inferred inferred = new ClosureTypes.Inferred(t, Types.isLocal(t));
    c.memo().remember(c.lambda(), captured, inferred);
    return inferred;
  }

  private static <T> CompletableFuture<List<T>> all(List<CompletableFuture<T>> parts) {
    boolean done = true;
    for (CompletableFuture<T> p : parts) {
      done &= completed(p);
    }
    if (done) {
      return CompletableFuture.completedFuture(joined(parts));
    }
    return CompletableFuture.allOf(parts.toArray(CompletableFuture[]::new))
        .thenApply(x -> joined(parts));
  }

  private static <T> List<T> joined(List<CompletableFuture<T>> parts) {
    List<T> out = new ArrayList<>(parts.size());
    for (CompletableFuture<T> p : parts) {
      out.add(p.join());
    }
    return out;
  }

  // Every value of the executor below is complete when it is returned, but for a materialized
  // one: it builds federated values lazily and computes them on materialize. These three apply
  // the next step to a complete value at once, as thenCompose and thenApply would, without a
  // dependent stage, its lambda and its future per step; a pending value gets the stage.

  /** {@code fn} of {@code f}'s value, now when {@code f} has completed normally. */
  private static <T, U> CompletableFuture<U> then(CompletableFuture<T> f,
      Function<? super T, ? extends CompletableFuture<U>> fn) {
    if (!completed(f)) {
      return f.thenCompose(fn);
    }
    try {
      return fn.apply(f.join());
    } catch (RuntimeException e) {
      // thenCompose completes its stage with what fn throws.
      return CompletableFuture.failedFuture(e);
    }
  }

  /** {@code fn} of {@code f}'s value, now when {@code f} has completed normally. */
  private static <T, U> CompletableFuture<U> map(CompletableFuture<T> f,
      Function<? super T, ? extends U> fn) {
    if (!completed(f)) {
      return f.thenApply(fn);
    }
    try {
      return CompletableFuture.completedFuture(fn.apply(f.join()));
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  private static boolean completed(CompletableFuture<?> f) {
    return f.state() == java.util.concurrent.Future.State.SUCCESS;
  }

  /** A future of this executor's value as one of {@link ExecutorValue}, which it is. */
  @SuppressWarnings("unchecked")
  private static CompletableFuture<ExecutorValue> widen(CompletableFuture<? extends Value> f) {
    return (CompletableFuture<ExecutorValue>) (CompletableFuture<?>) f;
  }

  /** The names a building block refers to without binding them itself. */
  static final class FreeNames {
    private FreeNames() {}

    static Set<String> of(BuildingBlock b) {
      Set<String> out = new LinkedHashSet<>();
      walk(b, Set.of(), out);
      return out;
    }

    private static void walk(BuildingBlock b, Set<String> bound, Set<String> out) {
      switch (b) {
        case Reference r -> {
          if (!bound.contains(r.name())) {
            out.add(r.name());
          }
        }
        case Selection s -> walk(s.source(), bound, out);
        case Struct s -> s.elements().forEach(e -> walk(e.value(), bound, out));
        case Call c -> {
          walk(c.function(), bound, out);
          c.argument().ifPresent(a -> walk(a, bound, out));
        }
        case Lambda l -> walk(l.result(), with(bound, l.parameterName()), out);
        case Block bl -> {
          Set<String> inner = bound;
          for (Block.Local local : bl.locals()) {
            walk(local.value(), inner, out);
            inner = with(inner, local.name());
          }
          walk(bl.result(), inner, out);
        }
        default -> { }
      }
    }

    private static Set<String> with(Set<String> s, String name) {
      if (name.isEmpty()) {
        return s;
      }
      Set<String> out = new LinkedHashSet<>(s);
      out.add(name);
      return out;
    }
  }
}
