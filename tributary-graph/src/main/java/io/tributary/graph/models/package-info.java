/**
 * Built-in models, each built from the graph API: FedProx's {@code mclr} softmax regression, the
 * FedAvg paper's 2NN and CNN. {@link io.tributary.graph.models.Model} names the graph's input,
 * labels, logits, loss and accuracy, and gives seeded initial parameters.
 */
package io.tributary.graph.models;
