/**
 * The executor stack, after TensorFlow Federated's: a small asynchronous
 * {@link io.tributary.runtime.executor.Executor} interface (create value, call, struct,
 * selection; materialize), the {@link io.tributary.runtime.executor.ReferenceResolvingExecutor}
 * that evaluates a computation's structure, the
 * {@link io.tributary.runtime.executor.FederatingExecutor} that runs placed values and
 * intrinsics over CLIENTS and SERVER with streaming, deterministic aggregation, and the eager
 * {@link io.tributary.runtime.executor.LocalExecutor} for unplaced values.
 */
package io.tributary.runtime.executor;
