/**
 * The executor interface, after TensorFlow Federated's executor stack.
 *
 * <p>{@link Executor} is small and asynchronous (create value,
 * call, struct, selection; materialize). {@link ReferenceResolvingExecutor}
 * evaluates a computation's structure (references, blocks, lambdas, selections) and hands what it
 * cannot resolve to the executor below it: the federating executor
 * ({@code .internal.federated}), which runs placed values and intrinsics over CLIENTS and SERVER,
 * and under it the eager local executor ({@code .internal.local}) for unplaced values. The
 * runtime's {@link io.tributary.runtime.ExecutionContext} builds the stack; the packages under
 * {@code .internal} are its parts, public only to one another:
 *
 * <ul>
 *   <li>{@code .internal.local}: local evaluation on one participant (environments, function
 *       values, tensor arithmetic, exact linear accumulation);
 *   <li>{@code .internal.federated}: the lazy graph of placed values an invocation builds and the
 *       planner that materializes it;
 *   <li>{@code .internal.aggregation}: the sinks that fold clients' values into each
 *       aggregation's partial results;
 *   <li>{@code .internal.pass}: the client pass itself (groups, the fixed reduction tree, the
 *       tiled kernel), its cost estimate, and the bytes between a pass engine's driver and its
 *       workers.
 * </ul>
 */
package io.tributary.runtime.executor;
