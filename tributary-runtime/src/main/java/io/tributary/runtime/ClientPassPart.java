package io.tributary.runtime;

import java.util.Objects;
import java.util.Optional;

/**
 * A node's part of a client pass for its one client ({@link ExecutionContext#computeClientPart}):
 * the part, which holds none of the client's secure-sum inputs, and what the client's
 * {@link SecureSumClient} returned for them.
 *
 * @param part the client's group of the pass
 * @param sent what the client sends the protocol's server; empty when the pass has no secure
 *     sum or the client failed before reaching it (its failure is in the part)
 */
public record ClientPassPart(PassPart part, Optional<byte[]> sent) {
  public ClientPassPart {
    Objects.requireNonNull(part, "part");
    Objects.requireNonNull(sent, "sent");
  }
}
