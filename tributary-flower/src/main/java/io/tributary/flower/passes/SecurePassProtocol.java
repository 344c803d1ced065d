package io.tributary.flower.passes;

import io.tributary.flower.server.SecureAggregation;
import io.tributary.runtime.PassRequest;
import io.tributary.runtime.SecurePass;
import io.tributary.runtime.SecureSumSpec;

/**
 * The server's side of a secure-sum protocol that runs a pass's secure sums on the nodes: the
 * runtime's {@code PassEngine.runSecure} over Fleet messages. The Fleet server finds it with
 * {@link java.util.ServiceLoader}; {@code tributary-flower-secagg} provides SecAgg+, so that this
 * module needs no cryptography. The server keeps the transport ({@link PassNodes}: the messages,
 * timeouts, the nodes that drop out); the protocol decides what each stage sends and how the
 * survivors' sum is had, and the nodes run its {@link SecurePassNode} ({@link #node}).
 */
public interface SecurePassProtocol {
  /** The protocol's name, for messages (such as {@code SecAgg+}). */
  String name();

  /**
   * Runs {@code request}'s pass on its clients' nodes: each client computes its part with the
   * protocol's client side ({@code ExecutionContext.computeClientPart}), and the protocol's
   * server side reveals only the survivors' sum.
   *
   * @param settings the neighbours and threshold of the server's configuration
   * @throws io.tributary.runtime.SecureSumException when the sum cannot be had (too few
   *     survivors, a message that fails its check, naming the node); no partial sum is revealed
   */
  SecurePass run(PassRequest request, SecureSumSpec spec, SecureAggregation settings,
      PassNodes nodes);

  /**
   * A fresh node side of this protocol, for one node: it keeps that node's protocol rounds from
   * stage to stage. A node finds the protocol on its class path as the server does and serves
   * this through {@link NodePasses#installed}.
   */
  SecurePassNode node();
}
