/**
 * Federated learning algorithms written as federated computations: a {@link
 * io.tributary.learning.FederatedAlgorithm} (named from the {@link
 * io.tributary.learning.AlgorithmRegistry} of {@link io.tributary.learning.AlgorithmSpec}s, or
 * composed in code) gives a {@link io.tributary.learning.LearningProcess} (initialize, next,
 * evaluate) over any client work (over graph models' local training: {@code
 * tributary-learning-graph}'s {@code io.tributary.learning.graph}); {@link
 * io.tributary.learning.ClientSampler} picks each round's clients from a seed.
 */
package io.tributary.learning;
