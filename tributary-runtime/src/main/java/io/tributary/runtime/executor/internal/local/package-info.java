/**
 * Local evaluation: what one participant computes, eagerly, on the calling thread.
 *
 * <p>{@link LocalExecutor} is the bottom of the
 * executor stack, for unplaced values; {@link LocalEvaluator}
 * evaluates building blocks in an {@link Env} and
 * applies {@link LocalFn} function values, with
 * {@link TensorOps}' arithmetic and
 * {@link LinearAccumulator}'s exact sums. The
 * federated and pass packages call them for every client's and the server's work. Internal to
 * tributary-runtime: public only so that the executor packages can share them.
 */
package io.tributary.runtime.executor.internal.local;
