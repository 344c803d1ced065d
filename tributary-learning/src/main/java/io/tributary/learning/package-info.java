/**
 * Federated learning algorithms written as federated computations: a {@link
 * io.tributary.learning.FederatedAlgorithm} (named from the {@link
 * io.tributary.learning.AlgorithmRegistry} of {@link io.tributary.learning.AlgorithmSpec}s, or
 * composed in code) gives a {@link io.tributary.learning.LearningProcess} (initialize, next,
 * evaluate) over the graph-backed client update and evaluation of {@code
 * io.tributary.graph.local}, or over any client work; {@link
 * io.tributary.learning.ClientSampler} picks each round's clients from a seed.
 */
package io.tributary.learning;
