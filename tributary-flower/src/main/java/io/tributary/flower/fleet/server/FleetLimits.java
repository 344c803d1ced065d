package io.tributary.flower.fleet.server;

/**
 * The bounds a Fleet endpoint holds every node to, checked before anything is allocated.
 *
 * @param maxObjectBytes the largest object a node may push (its content: head and body)
 * @param maxReplyBytes the most bytes of objects one reply may hold in all
 * @param maxReplyObjects the most objects (tree nodes) one reply's object tree may name
 * @param maxNodes the most nodes registered at once
 */
public record FleetLimits(int maxObjectBytes, long maxReplyBytes, int maxReplyObjects,
    int maxNodes) {
  /** Flower's array chunk (5 MiB) with room for any head: 6 MiB. */
  public static final int DEFAULT_MAX_OBJECT_BYTES = 6 << 20;
  /** 1 GiB. */
  public static final long DEFAULT_MAX_REPLY_BYTES = 1L << 30;
  /** 65,536. */
  public static final int DEFAULT_MAX_REPLY_OBJECTS = 1 << 16;
  /** 100,000. */
  public static final int DEFAULT_MAX_NODES = 100_000;
  /** The deepest object tree a reply may have (a message is five levels deep). */
  public static final int MAX_TREE_DEPTH = 16;

  public FleetLimits {
    if (maxObjectBytes < 1024 || maxReplyBytes < maxObjectBytes || maxReplyObjects < 8
        || maxNodes < 1) {
      throw new IllegalArgumentException("fleet limits too small: " + maxObjectBytes + " bytes "
          + "per object, " + maxReplyBytes + " per reply, " + maxReplyObjects + " objects, "
          + maxNodes + " nodes");
    }
  }

  /** The defaults. */
  public static FleetLimits defaults() {
    return new FleetLimits(DEFAULT_MAX_OBJECT_BYTES, DEFAULT_MAX_REPLY_BYTES,
        DEFAULT_MAX_REPLY_OBJECTS, DEFAULT_MAX_NODES);
  }
}
