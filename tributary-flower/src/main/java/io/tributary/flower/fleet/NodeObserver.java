package io.tributary.flower.fleet;

/**
 * Told what a {@link SuperNode} does, as it does it: when it is active with the SuperLink, and
 * each message it handled with its outcome. Give one to {@link SuperNode.Builder#observer}; a
 * live page of the node ({@code io.tributary.ui.NodeView}) is one.
 *
 * <p>Every method has an empty default. They are told on the node's own threads: an
 * implementation must return quickly and not throw (what it throws is logged and ignored, so
 * that an observer never stops the node).
 */
public interface NodeObserver {
  /** Tells nothing. */
  NodeObserver NONE = new NodeObserver() { };

  /** The node is active with the SuperLink at {@code superlink} as node {@code nodeId}. */
  default void active(long nodeId, String superlink) {}

  /**
   * The node lost its session with the SuperLink, for {@code why}; it reconnects unless told to
   * stop.
   */
  default void inactive(String why) {}

  /** The node handled a message (replied, refused it or could not). */
  default void messageHandled(NodeMessage message) {}
}
