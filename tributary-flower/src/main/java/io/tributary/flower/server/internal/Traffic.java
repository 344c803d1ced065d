package io.tributary.flower.server.internal;

import java.util.concurrent.atomic.AtomicLong;

/** Bytes of protobuf messages sent to and received from every client of one server. */
public final class Traffic {
  private final AtomicLong down = new AtomicLong();
  private final AtomicLong up = new AtomicLong();

  public void sent(long bytes) {
    down.addAndGet(bytes);
  }

  public void received(long bytes) {
    up.addAndGet(bytes);
  }

  /** Bytes sent to clients so far (server to client). */
  public long bytesDown() {
    return down.get();
  }

  /** Bytes received from clients so far (client to server). */
  public long bytesUp() {
    return up.get();
  }
}
