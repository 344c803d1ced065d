/**
 * The op graph IR: variables, ops with named arguments, validation, and the {@code graph.fb} form.
 *
 * <p>A {@link io.tributary.graph.Graph} holds {@link io.tributary.graph.Variable}s (placeholders,
 * constants, trainable parameters and intermediate arrays) and {@link io.tributary.graph.Op}s that
 * read and write them by name. {@link io.tributary.graph.GraphBuilder} builds graphs and infers the
 * shapes of intermediate arrays; {@link io.tributary.graph.Graph#validate()} reports every problem,
 * naming the op; {@link io.tributary.graph.GraphFb} writes and reads the FlatBuffers form that
 * ADR-0001 stores as {@code <tag>/graph.fb}.
 */
package io.tributary.graph;
