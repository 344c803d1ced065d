package io.tributary.runtime.executor.internal.local;

import io.tributary.core.compiler.BuildingBlock;
import io.tributary.core.types.FunctionType;
import io.tributary.core.types.StructType;
import io.tributary.core.types.Type;
import io.tributary.core.types.Types;
import io.tributary.core.values.StructValue;
import io.tributary.runtime.LocalComputationException;
import io.tributary.runtime.ValueChecker;
import io.tributary.runtime.executor.Executor;
import io.tributary.runtime.executor.ExecutorValue;
import io.tributary.runtime.executor.internal.federated.FederatingExecutor;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * The eager executor for values on one participant: every call runs at once on the calling
 * thread and every returned future is already complete. It understands tensors, structs,
 * sequences, local functions (Java functions and lambdas) and the local intrinsics; it refuses
 * placed values. The {@link FederatingExecutor} uses it for unplaced values, and it runs the body
 * of each client's and the server's local work.
 */
public final class LocalExecutor implements Executor {
  private final LocalEvaluator evaluator;

  /** A local executor whose {@code Data} blocks read from {@code data}. */
  public LocalExecutor(Map<String, Object> data) {
    this.evaluator = new LocalEvaluator(data);
  }

  /** The evaluator this executor runs local computations with. */
  public LocalEvaluator evaluator() {
    return evaluator;
  }

  /** A value of this executor. */
  public static final class LocalValue implements ExecutorValue {
    private final Type type;
    /** The value in the runtime representation. */
    public final Object value;

    /** {@code value}, of type {@code type}. */
    public LocalValue(Type type, Object value) {
      this.type = type;
      this.value = value;
    }

    @Override
    public Type type() {
      return type;
    }
  }

  @Override
  public CompletableFuture<ExecutorValue> createValue(Object value, Type type) {
    return CompletableFuture.completedFuture(value(value, type));
  }

  /** {@link #createValue}'s work, synchronously. */
  public LocalValue value(Object value, Type type) {
    if (!Types.isLocal(type)) {
      throw new LocalComputationException("the local executor cannot hold a value of type "
          + type);
    }
    if (value instanceof BuildingBlock b) {
      return new LocalValue(type, evaluator.evaluate(b, Env.EMPTY));
    }
    if (value instanceof LocalFn) {
      return new LocalValue(type, value);
    }
    ValueChecker.check(type, value, "a value of type " + type);
    return new LocalValue(type, value);
  }

  @Override
  public CompletableFuture<ExecutorValue> createCall(
      ExecutorValue function, Optional<ExecutorValue> argument) {
    return CompletableFuture.completedFuture(call(function, argument));
  }

  /** {@link #createCall}'s work, synchronously. */
  public LocalValue call(ExecutorValue function, Optional<ExecutorValue> argument) {
    LocalValue f = (LocalValue) function;
    if (!(f.value instanceof LocalFn fn)) {
      throw new LocalComputationException("call of a " + f.type() + " value, not a function");
    }
    Object arg = argument.map(a -> ((LocalValue) a).value).orElse(null);
    Type result = f.type() instanceof FunctionType ft ? ft.result() : f.type();
    try {
      return new LocalValue(result, evaluator.apply(fn, arg));
    } catch (LocalFunctionFailure e) {
      throw new LocalComputationException(e.operation() + " failed: " + e.getMessage(),
          e.getCause());
    }
  }

  @Override
  public CompletableFuture<ExecutorValue> createStruct(
      List<Optional<String>> names, List<ExecutorValue> elements) {
    return CompletableFuture.completedFuture(struct(names, elements));
  }

  LocalValue struct(List<Optional<String>> names, List<ExecutorValue> elements) {
    List<StructType.Element> types = new ArrayList<>();
    List<Object> values = new ArrayList<>();
    for (int i = 0; i < elements.size(); i++) {
      types.add(new StructType.Element(names.get(i), elements.get(i).type()));
      values.add(((LocalValue) elements.get(i)).value);
    }
    return new LocalValue(new StructType(types), StructValue.of(names, values));
  }

  @Override
  public CompletableFuture<ExecutorValue> createSelection(ExecutorValue source, int index) {
    return CompletableFuture.completedFuture(selection(source, index));
  }

  LocalValue selection(ExecutorValue source, int index) {
    LocalValue s = (LocalValue) source;
    if (!(s.type() instanceof StructType st) || !(s.value instanceof StructValue sv)) {
      throw new LocalComputationException("selection from a " + s.type() + " value");
    }
    return new LocalValue(st.get(index), sv.get(index));
  }

  @Override
  public CompletableFuture<Object> materialize(ExecutorValue value) {
    Object v = ((LocalValue) value).value;
    if (v instanceof LocalFn) {
      return CompletableFuture.failedFuture(new LocalComputationException(
          "a function value cannot be materialized"));
    }
    return CompletableFuture.completedFuture(v);
  }

  @Override
  public CompletableFuture<Object> capture(ExecutorValue value) {
    return CompletableFuture.completedFuture(((LocalValue) value).value);
  }

  @Override
  public void close() {}
}
