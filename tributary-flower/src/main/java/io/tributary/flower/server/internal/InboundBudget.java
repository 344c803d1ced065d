package io.tributary.flower.server.internal;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * Bounds the bytes of clients' fit answers the server reads ahead of the rounds that use them,
 * across all clients of a server: gRPC inbound flow control.
 *
 * <p>A fit answer carries a whole model, and a thousand clients answering at once would otherwise
 * all be read into the heap while the round folds them one worker at a time. A proxy therefore
 * asks gRPC for a client's answer only once it holds part of this budget, sized by the
 * instruction it sent (an answer carries as many parameters as the model it answers). A client
 * not yet admitted keeps its answer on its own side: HTTP/2 flow control stops it after one
 * stream window. Admission is first come, first served; a round that waits for a client's answer
 * admits that client at once, outside the budget ({@link #expedite}), so a budget full of answers
 * the round reaches later can never stall the answer it waits for. Small answers (to instructions
 * up to {@link OutboundBudget#SMALL} bytes, or of other kinds) do not take part.
 *
 * <p>A server's Join streams ({@link ClientProxy}) and Fleet nodes share one budget: a Fleet
 * node not yet admitted is kept waiting in its {@code PushMessages} call, before it pushes any
 * of its reply's objects.
 */
public final class InboundBudget {
  /**
   * A client whose answer waits for the budget: a Join stream, or a Fleet node. Admission calls
   * back without holding the budget's lock, and a reader calls the budget only without its own.
   */
  public interface Reader {
    /**
     * Lets the pending answer be read, holding {@code permits} of the budget until the round
     * takes it.
     *
     * @return false, holding nothing, if there is no pending answer to admit any more
     */
    boolean startReading(int permits);

    /** Whether the pending answer waits for admission. */
    boolean awaitingAdmission();
  }

  /**
   * The largest default budget: 256 MiB of fit answers read ahead ({@code ServerMemory}'s for a
   * heap of 2 GiB or more).
   */
  public static final int DEFAULT_BYTES = io.tributary.flower.server.ServerMemory.MAX_BUDGET_BYTES;

  /**
   * Whether the answer to an instruction of {@code instructionBytes} takes part: only answers to
   * instructions over {@link OutboundBudget#SMALL} bytes do (an answer is about as large).
   */
  public static boolean readsAhead(long instructionBytes) {
    return instructionBytes > OutboundBudget.SMALL;
  }

  /** A client waiting to be read, and the permits it will hold. */
  private record Waiter(Reader proxy, int permits) {}

  private final int capacity;
  private final ArrayDeque<Waiter> queue = new ArrayDeque<>();
  /**
   * Clients the round asked for before their instruction reached {@link #admit}: they skip the
   * budget when it does. Guarded by this.
   */
  private final java.util.Set<Reader> expedited =
      java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
  // Guarded by this.
  private int available;

  public InboundBudget(int capacity) {
    if (capacity < OutboundBudget.SMALL) {
      throw new IllegalArgumentException("inbound budget must be at least "
          + OutboundBudget.SMALL + " bytes, got " + capacity);
    }
    this.capacity = capacity;
    this.available = capacity;
  }

  /** The most bytes of fit answers read ahead at once. */
  public int capacity() {
    return capacity;
  }

  /**
   * Lets {@code proxy}'s answer be read now, holding {@code size} bytes (at most the whole
   * budget), or queues it until enough is given back.
   */
  public void admit(Reader proxy, int size) {
    int permits = Math.min(Math.max(size, 1), capacity);
    boolean now;
    boolean bypass;
    synchronized (this) {
      bypass = expedited.remove(proxy);
      now = !bypass && queue.isEmpty() && available >= permits;
      if (now) {
        available -= permits;
      } else if (!bypass) {
        queue.add(new Waiter(proxy, permits));
      }
    }
    if (bypass) {
      proxy.startReading(0);
    } else if (now && !proxy.startReading(permits)) {
      release(permits);
    }
  }

  /** Gives back {@code permits} and admits the waiters that now fit, in order. */
  public void release(int permits) {
    if (permits <= 0) {
      return;
    }
    List<Waiter> admitted = new ArrayList<>();
    synchronized (this) {
      available += permits;
      while (!queue.isEmpty() && queue.peekFirst().permits() <= available) {
        Waiter w = queue.pollFirst();
        available -= w.permits();
        admitted.add(w);
      }
    }
    // Outside the lock: a proxy takes its own lock to start reading.
    for (Waiter w : admitted) {
      if (!w.proxy().startReading(w.permits())) {
        release(w.permits());
      }
    }
  }

  /**
   * Reads {@code proxy}'s answer now, outside the budget: the round is waiting for it. The proxy
   * awaits admission; if its instruction has not reached {@link #admit} yet, admission will let
   * it through at once.
   */
  public void expedite(Reader proxy) {
    boolean queued;
    synchronized (this) {
      queued = remove(proxy);
      // Lock order: this, then a proxy's lock; proxies call in here only without theirs.
      if (!queued && proxy.awaitingAdmission()) {
        expedited.add(proxy);
      }
    }
    if (queued) {
      proxy.startReading(0);
    }
  }

  /** Drops {@code proxy} from the queue (its stream ended or its instruction was given up). */
  public synchronized void forget(Reader proxy) {
    remove(proxy);
    expedited.remove(proxy);
  }

  private boolean remove(Reader proxy) {
    for (Iterator<Waiter> it = queue.iterator(); it.hasNext(); ) {
      if (it.next().proxy() == proxy) {
        it.remove();
        return true;
      }
    }
    return false;
  }

  /** Bytes currently free, for tests and diagnostics. */
  synchronized int available() {
    return available;
  }

  /** Clients waiting to be read, for tests and diagnostics. */
  synchronized int waiting() {
    return queue.size();
  }
}
