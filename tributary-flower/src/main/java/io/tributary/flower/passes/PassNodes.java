package io.tributary.flower.passes;

import io.tributary.runtime.PassPart;
import java.util.Map;
import java.util.Optional;

/**
 * The server's transport for one secure pass ({@link SecurePassProtocol}): the pass's clients,
 * numbered from 0, each one Fleet node, and the exchange of a stage's messages with them.
 */
public interface PassNodes {
  /** The pass's clients. */
  int clients();

  /** The node client {@code client} is, for messages (such as {@code node-42}). */
  String node(int client);

  /**
   * Sends each client of {@code messages} a {@value SecurePassMessages#MESSAGE_TYPE} message with
   * those stage entries (and, when {@code withPass}, the pass: the spec, the client's inputs and
   * the round's fit config, so that the node computes its client in this stage), and returns the
   * replies of the nodes that answered in time. A node that leaves, times out or replies with an
   * error is reported dropped at {@code stage} and is missing from the result; the protocol
   * checks what the replies hold.
   */
  Map<Integer, Reply> exchange(String stage, Map<Integer, Map<String, Object>> messages,
      boolean withPass);

  /** Reports {@code client} dropped from the pass at {@code stage}, for {@code why}. */
  void dropped(int client, String stage, String why);

  /**
   * A node's reply to a stage.
   *
   * @param values the stage's entries
   * @param part the client's pass part, in the reply to the stage that carried the pass
   */
  record Reply(Map<String, Object> values, Optional<PassPart> part) {
    public Reply {
      values = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(values));
      java.util.Objects.requireNonNull(part, "part");
    }
  }
}
