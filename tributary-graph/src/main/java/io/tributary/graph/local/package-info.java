/**
 * Graph-backed local computations for federated learning: the client update, the evaluation and
 * the initial model as Federated Core {@link io.tributary.core.compiler.GraphComputation}s
 * ({@link io.tributary.graph.local.LocalTraining}), and the binder that makes them runnable
 * ({@link io.tributary.graph.local.GraphBinder}).
 *
 * <p>Values follow {@code io.tributary.core.values}: tensors, structs as
 * {@link io.tributary.core.values.StructValue}, sequences as {@link java.lang.Iterable}s of
 * batch structs {@code <x=...,y=...>}.
 */
package io.tributary.graph.local;
