/**
 * A Java node's side of the server's client passes: what a node needs to run the server's round
 * computation itself rather than only its ClientApp. {@link io.tributary.flower.passes.NodeComputation}
 * rebuilds the server's learning process from a {@link io.tributary.flower.passes.ComputationSpec}
 * (the algorithm registry's name and hyperparameters, the model's type) with {@code flower_fit}
 * bound to the node's own ClientApp, and checks it against the server's {@link
 * io.tributary.flower.passes.ComputationFingerprint}; {@link io.tributary.flower.passes.ClientPasses}
 * is the capability a node advertises and the server reads before its first round.
 */
package io.tributary.flower.passes;
