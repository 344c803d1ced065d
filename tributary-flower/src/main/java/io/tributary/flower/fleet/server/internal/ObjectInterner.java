package io.tributary.flower.fleet.server.internal;

import java.lang.ref.WeakReference;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One copy of each object that several nodes' messages hold: a round's model objects (arrays,
 * their chunks, the record) are content-addressed and the same for every node, so each node's
 * message keeps the shared copy and the server holds the model about once, not once per node.
 * Copies nobody holds any more are let go by the garbage collector.
 */
final class ObjectInterner {
  private final Map<String, WeakReference<byte[]>> copies = new java.util.HashMap<>();
  private int sweepAt = 1024;

  /** {@code objects} with each content replaced by the shared copy of the same id. */
  synchronized LinkedHashMap<String, byte[]> intern(Map<String, byte[]> objects) {
    LinkedHashMap<String, byte[]> out = new LinkedHashMap<>();
    for (Map.Entry<String, byte[]> e : objects.entrySet()) {
      WeakReference<byte[]> ref = copies.get(e.getKey());
      byte[] shared = ref == null ? null : ref.get();
      if (shared == null) {
        shared = e.getValue();
        copies.put(e.getKey(), new WeakReference<>(shared));
      }
      out.put(e.getKey(), shared);
    }
    if (copies.size() >= sweepAt) {
      copies.values().removeIf(r -> r.get() == null);
      sweepAt = Math.max(1024, copies.size() * 2);
    }
    return out;
  }
}
