/**
 * Federated learning over graph models: {@link io.tributary.learning.graph.GraphLearning} builds
 * a {@link io.tributary.learning.FederatedAlgorithm}'s {@link
 * io.tributary.learning.LearningProcess} over the graph-backed client update and evaluation of
 * {@code io.tributary.graph.local} and binds its graph computations to Java functions; {@link
 * io.tributary.learning.graph.SequenceValues} gives a dataset's batches as the sequence values
 * the clients of such a process hold.
 */
package io.tributary.learning.graph;
