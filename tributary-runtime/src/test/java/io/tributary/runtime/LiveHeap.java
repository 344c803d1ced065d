package io.tributary.runtime;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.ListenerNotFoundException;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

/**
 * The most heap a test keeps alive: the heap in use right after each garbage collection, taken
 * from the collectors' notifications, at its largest.
 */
final class LiveHeap {
  private final AtomicLong peak = new AtomicLong();
  private final AtomicInteger collections = new AtomicInteger();
  private final List<NotificationEmitter> emitters = new ArrayList<>();
  private final NotificationListener listener = this::collected;
  private final java.util.Set<String> heapPools = new java.util.HashSet<>();

  private LiveHeap() {
  }

  /** Starts watching every collector of this JVM. */
  static LiveHeap watch() {
    LiveHeap h = new LiveHeap();
    for (java.lang.management.MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
      if (p.getType() == java.lang.management.MemoryType.HEAP) {
        h.heapPools.add(p.getName());
      }
    }
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      if (gc instanceof NotificationEmitter e) {
        e.addNotificationListener(h.listener, null, null);
        h.emitters.add(e);
      }
    }
    return h;
  }

  /** Stops watching; the figures stay. */
  void stop() {
    for (NotificationEmitter e : emitters) {
      try {
        e.removeNotificationListener(listener);
      } catch (ListenerNotFoundException ignored) {
        // Never added to this one: nothing to remove.
      }
    }
  }

  /** The largest heap in use right after a collection, in bytes. */
  long peakBytes() {
    return peak.get();
  }

  /** How many collections were seen. */
  int collections() {
    return collections.get();
  }

  private void collected(Notification n, Object handback) {
    if (!GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(n.getType())) {
      return;
    }
    GarbageCollectionNotificationInfo info =
        GarbageCollectionNotificationInfo.from((CompositeData) n.getUserData());
    long used = 0;
    for (java.util.Map.Entry<String, MemoryUsage> u
        : info.getGcInfo().getMemoryUsageAfterGc().entrySet()) {
      if (heapPools.contains(u.getKey())) {
        used += u.getValue().getUsed();
      }
    }
    collections.incrementAndGet();
    peak.accumulateAndGet(used, Math::max);
  }
}
