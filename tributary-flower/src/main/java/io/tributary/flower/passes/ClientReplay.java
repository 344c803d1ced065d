package io.tributary.flower.passes;

import io.tributary.runtime.ClientPassPart;
import io.tributary.runtime.SecureSumClient;

/**
 * The replay of the node's client in a secure pass, from the pass's inputs alone, with the
 * computation rebuilt by {@link NodeComputation}: what a {@link SecurePassNode} calls once it
 * holds the protocol's client side.
 */
@FunctionalInterface
public interface ClientReplay {
  /**
   * The client's part, its secure-sum input handed to {@code client}
   * ({@code ExecutionContext.computeClientPart}).
   *
   * @throws NodeComputationException when the computation cannot be rebuilt
   */
  ClientPassPart compute(SecureSumClient client) throws NodeComputationException;
}
