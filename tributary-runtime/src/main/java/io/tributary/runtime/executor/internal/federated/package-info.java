/**
 * The federating executor: placed values and federated intrinsics over CLIENTS, EDGES and
 * SERVER.
 *
 * <p>{@link FederatingExecutor} builds, for each
 * invocation, a lazy graph of {@link Node}s
 * (client values, server values, structs); {@link IntrinsicCalls}
 * turns each intrinsic call into nodes and the sinks that aggregate them, and the
 * {@link Planner} materializes the graph with as
 * few passes over the clients as the dependencies allow, locally or on a pass engine. Values at
 * EDGES are computed once like server values ({@link EdgeNodes}); {@link EdgeCalls} runs the
 * tier intrinsics. {@link ClientInputs} names what a pass's clients read from outside them, so
 * that a node's replay can be given only that. Internal
 * to tributary-runtime: public only so that the executor packages can share them.
 */
package io.tributary.runtime.executor.internal.federated;
