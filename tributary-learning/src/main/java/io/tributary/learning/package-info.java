/**
 * Federated learning algorithms written as federated computations: {@link
 * io.tributary.learning.FedAvg} and {@link io.tributary.learning.FedProx} give a {@link
 * io.tributary.learning.LearningProcess} (initialize, next, evaluate) over the graph-backed
 * client update and evaluation of {@code io.tributary.graph.local}; {@link
 * io.tributary.learning.ClientSampler} picks each round's clients from a seed.
 */
package io.tributary.learning;
