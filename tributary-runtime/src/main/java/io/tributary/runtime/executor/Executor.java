package io.tributary.runtime.executor;

import io.tributary.core.types.Type;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * The small asynchronous interface every layer of the runtime implements, after TensorFlow
 * Federated's executors: values go in with {@link #createValue}, are combined with
 * {@link #createCall}, {@link #createStruct} and {@link #createSelection}, and come out with
 * {@link #materialize}.
 *
 * <p>Every method returns at once with a future. An executor may compute eagerly or lazily, in
 * this process or on remote machines: a caller only composes futures, so the same computation
 * runs unchanged on any stack of executors. A later remote or distributed executor implements
 * this interface and slots in below the {@link ReferenceResolvingExecutor}.
 */
public interface Executor extends AutoCloseable {
  /**
   * Embeds a value.
   *
   * @param value a runtime value (see {@code ExecutionContext} for the representation), or a
   *     {@code BuildingBlock} of a computation to embed as a function value
   * @param type the value's type
   */
  CompletableFuture<ExecutorValue> createValue(Object value, Type type);

  /**
   * Calls a function value.
   *
   * @param argument present exactly when the function takes a parameter
   */
  CompletableFuture<ExecutorValue> createCall(
      ExecutorValue function, Optional<ExecutorValue> argument);

  /**
   * Builds a struct of values.
   *
   * @param names one slot per element, empty for an unnamed element
   */
  CompletableFuture<ExecutorValue> createStruct(
      List<Optional<String>> names, List<ExecutorValue> elements);

  /** Selects the element at {@code index} of a struct value. */
  CompletableFuture<ExecutorValue> createSelection(ExecutorValue source, int index);

  /** Computes a value and returns it in the runtime's value representation. */
  CompletableFuture<Object> materialize(ExecutorValue value);

  /**
   * Computes a local value that a lambda captures, in the runtime's value representation. Unlike
   * {@link #materialize} it also gives function values (and structs holding them): a captured
   * function is called by the lambda's body, never returned as a result. An executor whose
   * function values are all local overrides this; the default materializes.
   */
  default CompletableFuture<Object> capture(ExecutorValue value) {
    return materialize(value);
  }

  /** Releases what the executor holds; values it made may no longer be used. */
  @Override
  void close();
}
