/**
 * The executor stack, after TensorFlow Federated's: a small asynchronous
 * {@link io.tributary.runtime.executor.Executor} interface (create value, call, struct,
 * selection; materialize), the {@link io.tributary.runtime.executor.ReferenceResolvingExecutor}
 * that evaluates a computation's structure, the
 * {@link io.tributary.runtime.executor.FederatingExecutor} that runs placed values and
 * intrinsics over CLIENTS and SERVER with streaming, deterministic aggregation, and the eager
 * {@link io.tributary.runtime.executor.LocalExecutor} for unplaced values.
 *
 * <p>{@link io.tributary.runtime.executor.PassReplay} is a pass engine worker's side of an
 * invocation; the bytes between driver and workers are {@code PassCodec}'s.
 */
package io.tributary.runtime.executor;
