package io.tributary.runtime.executor;

import io.tributary.runtime.ClientFailure;
import io.tributary.runtime.ClientFailureException;
import io.tributary.runtime.ReductionTree;
import io.tributary.runtime.TooManyClientFailuresException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.IntStream;

/**
 * One pass over the clients that feeds several aggregations at once.
 *
 * <p>The clients are cut into groups of consecutive indices whose size depends only on the
 * number of clients ({@link #groupSize}). Workers of the bounded pool each take a whole group,
 * compute its clients one after another (each client's work once, in a {@link ClientScope}),
 * and fold them into the group's partial results. Partials are combined by the fixed
 * {@link ReductionTree} over the groups, fed in group order as they arrive, so the result, which
 * depends only on the order of operations, is bit-identical for every thread count and for any
 * other engine that computes the same groups and merges them with the same tree.
 *
 * <p>Groups are started costliest first ({@link ClientCosts}, longest processing time first), so
 * that a pass over clients of very different sizes does not end with one worker on a large group
 * while the others idle; groups of equal cost start in index order. At most {@code 2 x threads}
 * groups are claimed and not yet combined at any time, plus the lowest uncombined group, which
 * may always be claimed so the combined prefix can advance. Memory is therefore O(model size x
 * workers).
 */
final class ClientPass {
  /** Groups per pass at most (about): enough for parallelism, few enough to combine cheaply. */
  static final int TARGET_GROUPS = 256;

  private final int clients;
  private final List<Sink> sinks;
  private final PassSettings settings;
  private final int groupSize;
  private final int groups;
  private final int window;
  /** Groups in the order they are started: costliest first, ties by index. */
  private final int[] order;

  // Guarded by this.
  /** The position in {@link #order} of the next group to start (skipping claimed ones). */
  private int cursor;
  private final boolean[] claimed;
  /** Groups claimed and not yet combined. */
  private int inFlight;
  private int nextCombine;
  private final Object[][] pending;
  private final boolean[] arrived;
  /** Per sink, the complete subtrees of the groups combined so far ({@link ReductionTree}). */
  private final List<ReductionTree.Folder<Object>> folders = new ArrayList<>();
  private final List<ReductionTree<Object>> trees = new ArrayList<>();
  private final List<ClientFailure> failures = new ArrayList<>();
  private int successes;
  private boolean aborted;
  private Throwable fatal;

  /** What a pass needs from its executor. */
  record PassSettings(
      int threads,
      ExecutorService pool,
      ExecutorService clientRunner,
      Optional<Duration> timeout,
      double minSuccessFraction,
      LocalEvaluator evaluator) {}

  /** The results of a pass, one per sink, and the clients that failed. */
  record Result(Object[] values, List<ClientFailure> failures) {}

  /**
   * A pass over {@code clients} clients.
   *
   * @param cost each client's estimated cost, or an empty array when all cost the same
   */
  ClientPass(int clients, List<Sink> sinks, PassSettings settings, long[] cost) {
    this.clients = clients;
    this.sinks = List.copyOf(sinks);
    this.settings = settings;
    this.groupSize = groupSize(clients);
    this.groups = clients == 0 ? 0 : (clients + groupSize - 1) / groupSize;
    this.window = 2 * settings.threads();
    this.pending = new Object[groups][];
    this.arrived = new boolean[groups];
    for (Sink sink : this.sinks) {
      ReductionTree<Object> tree = new ReductionTree<>(groups, sink::combine);
      trees.add(tree);
      folders.add(tree.folder(0, groups));
    }
    this.claimed = new boolean[groups];
    this.order = startOrder(clients, groupSize, groups, cost);
  }

  /** The groups by decreasing total cost, ties (and everything, without costs) by index. */
  static int[] startOrder(int clients, int groupSize, int groups, long[] cost) {
    if (cost.length != clients || groups < 2) {
      return IntStream.range(0, groups).toArray();
    }
    long[] groupCost = new long[groups];
    for (int k = 0; k < clients; k++) {
      groupCost[k / groupSize] += cost[k];
    }
    return IntStream.range(0, groups).boxed()
        .sorted(Comparator.<Integer>comparingLong(g -> groupCost[g]).reversed()
            .thenComparingInt(g -> g))
        .mapToInt(Integer::intValue).toArray();
  }

  /** The number of consecutive clients folded into one partial: a function of the count only. */
  static int groupSize(int clients) {
    return Math.max(1, clients / TARGET_GROUPS);
  }

  /**
   * Runs the pass on the pool and waits for it.
   *
   * @throws ClientFailureException for the lowest-indexed failed client seen, when failures are
   *     not tolerated
   * @throws TooManyClientFailuresException when fewer clients than required succeeded
   */
  Result run() {
    int workers = Math.min(settings.threads(), groups);
    List<Future<?>> running = new ArrayList<>();
    for (int w = 0; w < workers; w++) {
      running.add(settings.pool().submit(this::work));
    }
    for (Future<?> f : running) {
      awaitWorker(f);
    }
    synchronized (this) {
      if (fatal != null) {
        rethrow(fatal);
      }
      failures.sort(Comparator.comparingInt(ClientFailure::client));
      boolean strict = settings.minSuccessFraction() >= 1.0;
      if (strict && !failures.isEmpty()) {
        ClientFailure first = failures.get(0);
        throw new ClientFailureException(first, null);
      }
      if (successes < settings.minSuccessFraction() * clients) {
        throw new TooManyClientFailuresException(sinks.get(0).intrinsic(), clients,
            settings.minSuccessFraction(), failures);
      }
      Object[] values = new Object[sinks.size()];
      for (int s = 0; s < sinks.size(); s++) {
        values[s] = sinks.get(s).result(trees.get(s).merge(folders.get(s).subtrees()));
      }
      return new Result(values, List.copyOf(failures));
    }
  }

  private static void awaitWorker(Future<?> f) {
    boolean interrupted = false;
    while (true) {
      try {
        f.get();
        break;
      } catch (InterruptedException e) {
        interrupted = true;
      } catch (ExecutionException e) {
        // work() records every failure itself; reaching here means it could not.
        rethrow(e.getCause());
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  private static void rethrow(Throwable t) {
    if (t instanceof RuntimeException r) {
      throw r;
    }
    if (t instanceof Error e) {
      throw e;
    }
    throw new IllegalStateException("a client pass failed", t);
  }

  private void work() {
    try {
      int g;
      while ((g = claim()) >= 0) {
        Object[] partials = new Object[sinks.size()];
        for (int s = 0; s < sinks.size(); s++) {
          partials[s] = sinks.get(s).newPartial();
        }
        int ok = 0;
        int end = Math.min(clients, (g + 1) * groupSize);
        Batch batch = new Batch(sinks.size());
        for (int client = g * groupSize; client < end; client++) {
          if (isAborted()) {
            return;
          }
          if (runClient(client, partials, batch)) {
            ok++;
          }
          if (batch.full()) {
            batch.commit(partials);
          }
        }
        batch.commit(partials);
        offer(g, partials, ok);
      }
    } catch (RuntimeException | Error e) {
      // Not a client's failure (those are recorded per client): stop the whole pass.
      synchronized (this) {
        if (fatal == null) {
          fatal = e;
        }
        aborted = true;
        notifyAll();
      }
    }
  }

  private synchronized int claim() {
    while (true) {
      while (cursor < groups && claimed[order[cursor]]) {
        cursor++;
      }
      if (aborted || cursor >= groups) {
        return -1;
      }
      int g = -1;
      if (inFlight < window) {
        g = order[cursor++];
      } else if (!claimed[nextCombine]) {
        // The combined prefix waits for this group: take it whatever the window says.
        g = nextCombine;
      }
      if (g >= 0) {
        claimed[g] = true;
        inFlight++;
        return g;
      }
      try {
        wait();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        aborted = true;
        fatal = new IllegalStateException("a client pass worker was interrupted", e);
      }
    }
  }

  private synchronized boolean isAborted() {
    return aborted;
  }

  private synchronized void offer(int group, Object[] partials, int ok) {
    pending[group] = partials;
    arrived[group] = true;
    successes += ok;
    while (nextCombine < groups && arrived[nextCombine]) {
      Object[] p = pending[nextCombine];
      for (int s = 0; s < sinks.size(); s++) {
        folders.get(s).add(p[s]);
      }
      pending[nextCombine] = null;
      nextCombine++;
      inFlight--;
    }
    notifyAll();
  }

  private synchronized void fail(ClientFailure failure) {
    failures.add(failure);
    if (settings.minSuccessFraction() >= 1.0) {
      aborted = true;
      notifyAll();
    }
  }

  /**
   * Prepared contributions of consecutive successful clients, committed together so that sinks
   * can fold them in one sweep. Bounded in count and bytes, so a worker holds O(model) at most.
   */
  private final class Batch {
    static final int MAX_CLIENTS = 8;
    static final long MAX_BYTES = 32L << 20;
    final List<List<Object>> perSink = new ArrayList<>();
    int size;
    long bytes;

    Batch(int sinks) {
      for (int s = 0; s < sinks; s++) {
        perSink.add(new ArrayList<>());
      }
    }

    void add(Object[] prepared, long valueBytes) {
      for (int s = 0; s < prepared.length; s++) {
        perSink.get(s).add(prepared[s]);
      }
      size++;
      bytes += valueBytes;
    }

    boolean full() {
      return size >= MAX_CLIENTS || bytes >= MAX_BYTES;
    }

    void commit(Object[] partials) {
      if (size == 0) {
        return;
      }
      for (int s = 0; s < sinks.size(); s++) {
        sinks.get(s).commitAll(partials[s], perSink.get(s));
        perSink.get(s).clear();
      }
      size = 0;
      bytes = 0;
    }
  }

  /** Computes one client and adds it to the batch; false when the client failed. */
  private boolean runClient(int client, Object[] partials, Batch batch) {
    ClientScope scope = new ClientScope(client, settings.evaluator());
    Object[] prepared;
    try {
      prepared = settings.timeout().isPresent()
          ? withTimeout(scope, partials, settings.timeout().get())
          : prepare(scope, partials);
    } catch (ClientWorkException e) {
      fail(e.failureIn(sinks.get(0).intrinsic()));
      return false;
    }
    batch.add(prepared, scope.bytes);
    return true;
  }

  private Object[] prepare(ClientScope scope, Object[] partials) {
    Object[] prepared = new Object[sinks.size()];
    for (int s = 0; s < sinks.size(); s++) {
      Sink sink = sinks.get(s);
      List<ClientNode> inputs = sink.inputs();
      Object[] values = new Object[inputs.size()];
      try {
        for (int k = 0; k < values.length; k++) {
          values[k] = inputs.get(k).valueFor(scope);
          scope.bytes += TensorBytes.of(values[k]);
        }
      } catch (ClientWorkException w) {
        throw new ClientWorkException(w.failureIn(sink.intrinsic()), w.getCause());
      }
      scope.running = sink.intrinsic();
      try {
        prepared[s] = sink.prepare(partials[s], values);
      } catch (IllegalArgumentException e) {
        throw new ClientWorkException(new ClientFailure(scope.client, sink.intrinsic(),
            "its value", ClientFailure.Kind.BAD_VALUE, e.getMessage()), e);
      } catch (LocalFunctionFailure f) {
        throw new ClientWorkException(new ClientFailure(scope.client, sink.intrinsic(),
            f.operation(), f.kind(), f.getMessage()), f.getCause());
      }
    }
    return prepared;
  }

  private Object[] withTimeout(ClientScope scope, Object[] partials, Duration timeout) {
    Future<Object[]> f = settings.clientRunner().submit(() -> prepare(scope, partials));
    try {
      return f.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      // Read what was running before the interrupt unwinds it.
      String running = scope.running;
      // Interrupt the client's work; code that ignores interrupts runs on, but unobserved.
      f.cancel(true);
      String where = running.isEmpty() ? sinks.get(0).intrinsic() : running;
      throw new ClientWorkException(new ClientFailure(scope.client, where, "client work",
          ClientFailure.Kind.TIMED_OUT, "took longer than " + timeout), null);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof ClientWorkException w) {
        throw w;
      }
      rethrow(e.getCause());
      throw new AssertionError("unreachable");
    } catch (InterruptedException | CancellationException e) {
      f.cancel(true);
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for client " + scope.client, e);
    }
  }
}
