package io.tributary.flower.passes;

import io.tributary.flower.app.Context;
import java.util.Map;
import java.util.Optional;

/**
 * A node's side of a {@link SecurePassProtocol}: answers each stage's message, and in the stage
 * that carries the pass computes its client through {@code replay} with the protocol's client
 * side. {@link NodePasses} hands it the messages; it keeps what a stage leaves for the next (a
 * protocol round's keys) itself.
 */
public interface SecurePassNode {
  /**
   * The reply entries to stage {@code values}.
   *
   * @param replay the client's replay, present when the message carries the pass
   * @throws IllegalArgumentException when the message is malformed, naming what is wrong
   * @throws NodeComputationException when the pass's computation cannot be rebuilt
   */
  Map<String, Object> stage(Map<String, Object> values, Optional<ClientReplay> replay,
      Context context) throws NodeComputationException;
}
