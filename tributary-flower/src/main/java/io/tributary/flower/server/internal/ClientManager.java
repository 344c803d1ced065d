package io.tributary.flower.server.internal;

import io.tributary.flower.server.NotEnoughClientsException;
import io.tributary.learning.ClientSampler;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The connected clients: registered when their stream opens (or a Fleet node activates),
 * unregistered when it ends (or the node leaves or falls silent).
 *
 * <p>Clients are kept in the order they joined (ids carry a sequence number), so that
 * {@link #sample} picks the same clients for the same seed, round and connected set.
 */
public final class ClientManager {
  private final Object lock = new Object();
  private final TreeMap<Long, RemoteClient> bySequence = new TreeMap<>();
  private final TreeMap<String, Long> sequenceOf = new TreeMap<>();
  private final java.util.concurrent.atomic.AtomicLong sequences =
      new java.util.concurrent.atomic.AtomicLong();

  /**
   * The next join sequence number: every kind of client (Join streams, Fleet nodes) draws from
   * this one counter, so that sampling orders them all by when they joined.
   */
  public long nextSequence() {
    return sequences.incrementAndGet();
  }

  /** Adds a client; {@code sequence} orders clients for sampling. */
  public void register(long sequence, RemoteClient client) {
    synchronized (lock) {
      bySequence.put(sequence, client);
      sequenceOf.put(client.id(), sequence);
      lock.notifyAll();
    }
  }

  /** Removes a client; removing one that is not there does nothing. */
  public void unregister(RemoteClient client) {
    synchronized (lock) {
      Long seq = sequenceOf.get(client.id());
      if (seq != null && bySequence.get(seq) == client) {
        bySequence.remove(seq);
        sequenceOf.remove(client.id());
        lock.notifyAll();
      }
    }
  }

  /** The number of connected clients. */
  public int size() {
    synchronized (lock) {
      return bySequence.size();
    }
  }

  /** The connected clients in the order they joined. */
  public List<RemoteClient> all() {
    synchronized (lock) {
      return List.copyOf(bySequence.values());
    }
  }

  /** The client with this id, if it is connected. */
  public Optional<RemoteClient> get(String id) {
    synchronized (lock) {
      Long seq = sequenceOf.get(id);
      return seq == null ? Optional.empty() : Optional.of(bySequence.get(seq));
    }
  }

  /**
   * Waits until at least {@code min} clients are connected and returns them.
   *
   * @throws NotEnoughClientsException if fewer are connected after {@code timeout}
   * @throws InterruptedException if interrupted while waiting
   */
  public List<RemoteClient> waitFor(int min, Duration timeout)
      throws NotEnoughClientsException, InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    synchronized (lock) {
      while (bySequence.size() < min) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          throw new NotEnoughClientsException(min, bySequence.size(), timeout);
        }
        java.util.concurrent.TimeUnit.NANOSECONDS.timedWait(lock, left);
      }
      return List.copyOf(bySequence.values());
    }
  }

  /**
   * The clients for one round, as Flower's FedAvg chooses their number: {@code fraction} of
   * the connected clients, at least {@code minClients}, at most all of them; which ones depends
   * only on the seed, the round and the connected set.
   *
   * @throws NotEnoughClientsException if fewer than {@code minClients} connect within
   *     {@code wait}
   * @throws InterruptedException if interrupted while waiting
   */
  public List<RemoteClient> sample(double fraction, int minClients, long seed, long round,
      Duration wait) throws NotEnoughClientsException, InterruptedException {
    List<RemoteClient> available = waitFor(minClients, wait);
    int n = sampleSize(available.size(), fraction, minClients);
    List<RemoteClient> chosen = new ArrayList<>(n);
    for (int i : new ClientSampler(seed).sample(round, available.size(), n)) {
      chosen.add(available.get(i));
    }
    return chosen;
  }

  /**
   * Like {@link #sample}, without waiting: from the clients connected now, at least
   * {@code minClients} of them if there are that many. Empty if none is connected.
   */
  public List<RemoteClient> sampleNow(double fraction, int minClients, long seed, long round) {
    List<RemoteClient> available = all();
    int n = sampleSize(available.size(), fraction, Math.min(minClients, available.size()));
    List<RemoteClient> chosen = new ArrayList<>(n);
    for (int i : new ClientSampler(seed).sample(round, available.size(), n)) {
      chosen.add(available.get(i));
    }
    return chosen;
  }

  /** Flower's {@code num_fit_clients}: {@code max(int(available * fraction), min)}, capped. */
  static int sampleSize(int available, double fraction, int minClients) {
    int n = Math.max((int) (available * fraction), minClients);
    return Math.min(n, available);
  }
}
