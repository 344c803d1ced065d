/**
 * Local training: a {@link io.tributary.graph.training.Trainer} runs a model's gradient graph and an
 * optimizer over batches for some epochs and reports the loss; it also evaluates loss and accuracy.
 * Federated client updates and evaluations are built on it.
 */
package io.tributary.graph.training;
