package io.tributary.flower.server.internal;

import java.util.concurrent.Semaphore;

/**
 * Bounds the bytes of instructions that have been handed to gRPC but not yet written out, across
 * all clients of a server.
 *
 * <p>grpc serializes a message into transport buffers as soon as it is sent, so sending a model to
 * a thousand clients at once would hold a thousand copies. Instead a sender takes the message's
 * size from this budget before sending and gives it back when the client's stream is ready for
 * more (its transport buffer has drained), so instructions go out as fast as the network takes
 * them while at most {@link #capacity()} bytes wait. A message larger than the whole budget takes
 * all of it, and goes out alone. Small messages (up to {@link #SMALL}) are not counted, so
 * control messages such as {@code ReconnectIns} never wait behind models.
 */
public final class OutboundBudget {
  /** Messages up to this size bypass the budget. */
  public static final int SMALL = 64 << 10;
  /**
   * The largest default budget: 256 MiB of instructions on their way out ({@code ServerMemory}'s
   * for a heap of 2 GiB or more).
   */
  public static final int DEFAULT_BYTES = io.tributary.flower.server.ServerMemory.MAX_BUDGET_BYTES;

  private final int capacity;
  private final Semaphore bytes;

  public OutboundBudget(int capacity) {
    if (capacity < SMALL) {
      throw new IllegalArgumentException("outbound budget must be at least " + SMALL
          + " bytes, got " + capacity);
    }
    this.capacity = capacity;
    this.bytes = new Semaphore(capacity, true);
  }

  /** The most bytes of instructions waiting to be written at once. */
  public int capacity() {
    return capacity;
  }

  /**
   * Waits until a message of {@code size} bytes may be sent and returns the permits it holds
   * (0 for a small message), to be given back with {@link #release(int)}.
   */
  int acquire(int size) throws InterruptedException {
    if (size <= SMALL) {
      return 0;
    }
    int permits = Math.min(size, capacity);
    bytes.acquire(permits);
    return permits;
  }

  void release(int permits) {
    if (permits > 0) {
      bytes.release(permits);
    }
  }

  /** Bytes currently free, for tests and diagnostics. */
  int available() {
    return bytes.availablePermits();
  }
}
