/**
 * A Java node's side of the server's client passes: what a node needs to run the server's round
 * computation itself rather than only its ClientApp. {@link io.tributary.flower.passes.NodeComputation}
 * rebuilds the server's learning process from a {@link io.tributary.flower.passes.ComputationSpec}
 * (the algorithm registry's name and hyperparameters, the model's type) with {@code flower_fit}
 * bound to the node's own ClientApp, and checks it against the server's {@link
 * io.tributary.flower.passes.ComputationFingerprint}; {@link io.tributary.flower.passes.ClientPasses}
 * is the capability a node advertises and the server reads before its first round.
 *
 * <p>A computation that sums securely runs its secure passes on the nodes: {@link
 * io.tributary.flower.passes.NodePasses} serves them beside a node's ClientApp with a protocol's
 * node side ({@link io.tributary.flower.passes.SecurePassNode}); the server finds the protocol's
 * server side ({@link io.tributary.flower.passes.SecurePassProtocol}) on its class path and
 * gives it the pass's nodes ({@link io.tributary.flower.passes.PassNodes}). {@link
 * io.tributary.flower.passes.SecurePassMessages} is the messages' layout, {@link
 * io.tributary.flower.passes.JoinPassLayout} the same messages in FitIns/FitRes for a Java
 * client on the legacy Join transport, which {@code NodePasses} serves too. {@code
 * tributary-flower-secagg} provides SecAgg+ for both sides, so this module needs no
 * cryptography; {@link io.tributary.flower.passes.NodePasses#installed} finds it on a node's
 * class path. An algorithm composed in code reaches a node as code: {@link
 * io.tributary.flower.passes.ComposedAlgorithms} on its class path.
 */
package io.tributary.flower.passes;
