package io.tributary.flower.passes;

import io.tributary.runtime.SecureSumException;

/**
 * A node's reply to a secure pass's stage is malformed (a missing record, a value of the wrong
 * kind, a part over its bound, bytes the protocol cannot read): the pass fails without a sum,
 * naming the node, the stage and what was wrong.
 */
public final class SecurePassReplyException extends SecureSumException {
  private static final long serialVersionUID = 1L;

  private final String node;
  private final String stage;

  /** A malformed reply of {@code node} at {@code stage}, for {@code problem}. */
  public SecurePassReplyException(String node, String stage, String problem, Throwable cause) {
    super(node + "'s reply at stage " + stage + " is malformed: " + problem, cause);
    this.node = node;
    this.stage = stage;
  }

  /** The node that sent the reply (such as {@code node-42}). */
  public String node() {
    return node;
  }

  /** The stage the reply answered. */
  public String stage() {
    return stage;
  }
}
