package io.tributary.runtime.executor.internal.pass;

import io.tributary.runtime.ClientFailure;
import io.tributary.runtime.ClientFailureException;
import io.tributary.runtime.ClientObserver;
import io.tributary.runtime.ReductionTree;
import io.tributary.runtime.TooManyClientFailuresException;
import io.tributary.runtime.executor.internal.aggregation.Sink;
import io.tributary.runtime.executor.internal.federated.ClientNode;
import io.tributary.runtime.executor.internal.federated.ClientScope;
import io.tributary.runtime.executor.internal.federated.ClientWorkException;
import io.tributary.runtime.executor.internal.local.DeferredTensors;
import io.tributary.runtime.executor.internal.local.LocalEvaluator;
import io.tributary.runtime.executor.internal.local.LocalFunctionFailure;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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
 * <p>A pass may compute only a range of its groups ({@link #runRange}), as a pass engine's
 * worker does: the range's complete subtrees, failures and successes form a {@link Part}, and
 * {@link #finish} ends a pass from its parts, whether one local part or many remote ones.
 *
 * <p>Groups are started costliest first ({@link ClientCosts}, longest processing time first), so
 * that a pass over clients of very different sizes does not end with one worker on a large group
 * while the others idle; groups of equal cost start in index order. At most {@code 2 x threads}
 * groups are claimed and not yet combined at any time, plus the lowest uncombined group, which
 * may always be claimed so the combined prefix can advance. Memory is therefore O(model size x
 * workers).
 */
public final class ClientPass {
  /**
   * The logger, made on first use: a plain simulation never logs here, and SLF4J without a
   * provider would otherwise print its warning in every program that runs one.
   */
  private static final class Log {
    static final Logger LOG = LoggerFactory.getLogger(ClientPass.class);
  }
  /** Groups per pass at most (about): enough for parallelism, few enough to combine cheaply. */
  static final int TARGET_GROUPS = 256;

  private final int clients;
  private final List<Sink> sinks;
  private final PassSettings settings;
  private final int groupSize;
  private final int groups;
  /** The groups this pass computes, {@code [from, to)}: all of them, or a worker's range. */
  private final int from;
  private final int to;
  private final int window;
  /** Groups in the order they are started: costliest first, ties by index. */
  private final int[] order;
  /**
   * Whether each client's values are discarded once committed: no sink keeps them, so nothing
   * reads them after, and a delta lent its client's working copy is added without being made
   * ({@link DeferredTensors}); a delta only one sink adds gives the copy back restored in the
   * sweep that adds it ({@link DeferredTensors#markLastRead}).
   */
  private final boolean discards;

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
  private final List<ClientFailure> failures = new ArrayList<>();
  private long successes;
  private boolean aborted;
  private Throwable fatal;
  private final AtomicBoolean observerWarned = new AtomicBoolean();

  /**
   * What a pass needs from its executor: its threads and pools, the failure policy, and the
   * pass's index and the observer told of each client as its work ends.
   */
  public record PassSettings(
      int threads,
      ExecutorService pool,
      ExecutorService clientRunner,
      Optional<Duration> timeout,
      double minSuccessFraction,
      LocalEvaluator evaluator,
      int pass,
      ClientObserver observer) {}

  /** The results of a pass, one per sink, and the clients that failed. */
  public record Result(Object[] values, List<ClientFailure> failures) {}

  /**
   * What a range of groups contributes to a pass: per sink, the complete {@link ReductionTree}
   * subtrees of the range; the clients that failed in it, by index; and how many succeeded.
   * When failures are not tolerated and a client failed, the range stops early and is not
   * {@code complete}: it then has no subtrees, since the pass fails anyway.
   */
  record Part(int fromGroup, int toGroup, List<List<ReductionTree.Node<Object>>> subtrees,
      List<ClientFailure> failures, long successes, boolean complete) {
    Part {
      subtrees = List.copyOf(subtrees);
      failures = List.copyOf(failures);
    }
  }

  /**
   * A pass over {@code clients} clients.
   *
   * @param cost each client's estimated cost, or an empty array when all cost the same
   */
  public ClientPass(int clients, List<Sink> sinks, PassSettings settings, long[] cost) {
    this(clients, sinks, settings, cost, 0, groups(clients));
  }

  /**
   * The part of a pass over {@code clients} clients that computes groups {@code [from, to)}, as
   * a worker of a {@link io.tributary.runtime.PassEngine} does.
   *
   * @throws IllegalArgumentException when the range is not inside the pass's groups
   */
  public ClientPass(int clients, List<Sink> sinks, PassSettings settings, long[] cost, int from,
      int to) {
    this.clients = clients;
    this.sinks = List.copyOf(sinks);
    this.settings = settings;
    this.groupSize = groupSize(clients);
    this.groups = groups(clients);
    if (from < 0 || to < from || to > groups) {
      throw new IllegalArgumentException("group range [" + from + ", " + to + ") is not inside "
          + "[0, " + groups + ")");
    }
    this.from = from;
    this.to = to;
    this.nextCombine = from;
    this.window = 2 * settings.threads();
    this.pending = new Object[groups][];
    this.arrived = new boolean[groups];
    for (Sink sink : this.sinks) {
      folders.add(new ReductionTree<>(groups, releasing(sink)).folder(from, to));
    }
    this.claimed = new boolean[groups];
    int[] all = startOrder(clients, groupSize, groups, cost);
    int[] inRange = new int[all.length];
    int count = 0;
    for (int g : all) {
      if (g >= from && g < to) {
        inRange[count++] = g;
      }
    }
    this.order = Arrays.copyOf(inRange, count);
    boolean kept = false;
    for (Sink sink : this.sinks) {
      kept |= sink.keepsValues();
    }
    this.discards = !kept;
  }

  /**
   * {@code sink}'s combine for the groups' partials this pass makes: the right-hand partial of
   * each combination, dead once combined (the folder keeps only the result), goes back to the
   * sink for its next group.
   */
  private static java.util.function.BinaryOperator<Object> releasing(Sink sink) {
    return (left, right) -> {
      Object total = sink.combine(left, right);
      if (total != right) {
        sink.release(right);
      }
      return total;
    };
  }

  /** The number of groups of a pass over {@code clients} clients. */
  public static int groups(int clients) {
    int size = groupSize(clients);
    return clients == 0 ? 0 : (clients + size - 1) / size;
  }

  /** The groups by decreasing total cost, ties (and everything, without costs) by index. */
  static int[] startOrder(int clients, int groupSize, int groups, long[] cost) {
    int[] order = new int[groups];
    for (int g = 0; g < groups; g++) {
      order[g] = g;
    }
    if (cost.length != clients || groups < 2) {
      return order;
    }
    long[] groupCost = new long[groups];
    for (int k = 0; k < clients; k++) {
      groupCost[k / groupSize] += cost[k];
    }
    // A stable insertion sort by decreasing cost: groups are few (a pass's count of groups is
    // bounded), and ties keep index order.
    for (int i = 1; i < groups; i++) {
      int g = order[i];
      int j = i - 1;
      while (j >= 0 && groupCost[order[j]] < groupCost[g]) {
        order[j + 1] = order[j];
        j--;
      }
      order[j + 1] = g;
    }
    return order;
  }

  /** The number of consecutive clients folded into one partial: a function of the count only. */
  public static int groupSize(int clients) {
    return Math.max(1, clients / TARGET_GROUPS);
  }

  /**
   * Runs the pass on the pool and waits for it.
   *
   * @throws ClientFailureException for the lowest-indexed failed client seen, when failures are
   *     not tolerated
   * @throws TooManyClientFailuresException when fewer clients than required succeeded
   */
  public Result run() {
    return finish(sinks, clients, settings.minSuccessFraction(), List.of(runRange()));
  }

  /**
   * Computes this pass's groups on the pool and returns their part, without judging failures:
   * {@link #finish} does that once every part of the pass is in.
   */
  Part runRange() {
    int workers = Math.min(settings.threads(), to - from);
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
      boolean complete = nextCombine == to;
      List<List<ReductionTree.Node<Object>>> subtrees = new ArrayList<>();
      if (complete) {
        for (ReductionTree.Folder<Object> folder : folders) {
          subtrees.add(folder.subtrees());
        }
      } else if (failures.isEmpty()) {
        throw new IllegalStateException("a client pass stopped early without a failure");
      }
      return new Part(from, to, subtrees, failures, successes, complete);
    }
  }

  /**
   * The end of a pass, shared by the local run and the parts of a pass engine: applies the
   * failure policy to every part's failures and successes, then merges each sink's subtrees with
   * the pass's {@link ReductionTree} and forms the sinks' results.
   *
   * @param parts parts covering every group once (checked by the tree's merge)
   * @throws ClientFailureException for the lowest-indexed failed client, when failures are not
   *     tolerated
   * @throws TooManyClientFailuresException when fewer clients than required succeeded
   */
  public static Result finish(List<Sink> sinks, int clients, double minSuccessFraction,
      List<Part> parts) {
    List<ClientFailure> failures = new ArrayList<>();
    long successes = 0;
    for (Part p : parts) {
      failures.addAll(p.failures());
      successes += p.successes();
    }
    failures.sort(Comparator.comparingInt(ClientFailure::client));
    boolean strict = minSuccessFraction >= 1.0;
    if (strict && !failures.isEmpty()) {
      throw new ClientFailureException(failures.get(0), null);
    }
    if (successes < minSuccessFraction * clients) {
      throw new TooManyClientFailuresException(sinks.get(0).intrinsic(), clients,
          minSuccessFraction, failures);
    }
    Object[] values = new Object[sinks.size()];
    for (int s = 0; s < sinks.size(); s++) {
      List<ReductionTree.Node<Object>> subtrees = new ArrayList<>();
      for (Part p : parts) {
        if (!p.complete()) {
          throw new IllegalStateException("an incomplete pass part without a strict failure");
        }
        subtrees.addAll(p.subtrees().get(s));
      }
      values[s] = sinks.get(s).result(
          new ReductionTree<>(groups(clients), sinks.get(s)::combine).merge(subtrees));
    }
    return new Result(values, List.copyOf(failures));
  }

  /**
   * One part of consecutive parts, as if one worker had computed their groups: each sink's
   * subtrees folded into the complete subtrees of the union (the same combinations, so the same
   * bits, as {@link ReductionTree.Folder} over every group), the failures in client order, the
   * successes added. Where a part stopped early (failures not tolerated), so does the union. Parts
   * are added one at a time, so only the folders' O(log n) partials are held.
   */
  static final class Joiner {
    private final List<Sink> sinks;
    private final int from;
    private final int to;
    private final List<ReductionTree.Folder<Object>> folders = new ArrayList<>();
    private final List<ClientFailure> failures = new ArrayList<>();
    private long successes;
    private boolean complete = true;

    /** A joiner of the parts of groups {@code [from, to)} of a pass over {@code clients}. */
    Joiner(List<Sink> sinks, int clients, int from, int to) {
      this.sinks = sinks;
      this.from = from;
      this.to = to;
      for (Sink sink : sinks) {
        folders.add(new ReductionTree<>(groups(clients), sink::combine).folder(from, to));
      }
    }

    /** Adds the next part, which must start where the one before ended. */
    void add(Part p) {
      failures.addAll(p.failures());
      successes += p.successes();
      if (!p.complete()) {
        complete = false;
      }
      if (complete) {
        for (int s = 0; s < sinks.size(); s++) {
          p.subtrees().get(s).forEach(folders.get(s)::addSubtree);
        }
      }
    }

    /** The part of the union. */
    Part finish() {
      List<List<ReductionTree.Node<Object>>> subtrees = new ArrayList<>();
      if (complete) {
        for (ReductionTree.Folder<Object> f : folders) {
          subtrees.add(f.subtrees());
        }
      }
      return new Part(from, to, subtrees, failures, successes, complete);
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
      while (cursor < order.length && claimed[order[cursor]]) {
        cursor++;
      }
      if (aborted || cursor >= order.length) {
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
    while (nextCombine < to && arrived[nextCombine]) {
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
  /** Whether a sink prepares a client's value from its partial (then a batch holds one client). */
  private boolean anyPreparesFromPartial() {
    for (Sink sink : sinks) {
      if (sink.preparesFromPartial()) {
        return true;
      }
    }
    return false;
  }

  private final class Batch {
    static final int MAX_CLIENTS = 8;
    static final long MAX_BYTES = 32L << 20;
    final List<List<Object>> perSink = new ArrayList<>();
    /** The batch's clients' values, discarded once committed (when the pass discards). */
    final List<Object> handed = new ArrayList<>();
    /** 1 when a sink prepares from its partial, which must then hold every earlier client. */
    final int maxClients = anyPreparesFromPartial() ? 1 : MAX_CLIENTS;
    int size;
    long bytes;

    Batch(int sinks) {
      for (int s = 0; s < sinks; s++) {
        perSink.add(new ArrayList<>());
      }
    }

    void add(Prepared prepared, long valueBytes) {
      for (int s = 0; s < prepared.perSink().length; s++) {
        perSink.get(s).add(prepared.perSink()[s]);
      }
      handed.addAll(prepared.values());
      size++;
      bytes += valueBytes;
    }

    boolean full() {
      return size >= maxClients || bytes >= MAX_BYTES;
    }

    void commit(Object[] partials) {
      if (size == 0) {
        return;
      }
      for (int s = 0; s < sinks.size(); s++) {
        sinks.get(s).commitAll(partials[s], perSink.get(s));
        perSink.get(s).clear();
      }
      for (Object v : handed) {
        DeferredTensors.discard(v);
      }
      handed.clear();
      size = 0;
      bytes = 0;
    }
  }

  /** Computes one client and adds it to the batch; false when the client failed. */
  private boolean runClient(int client, Object[] partials, Batch batch) {
    ClientScope scope = new ClientScope(client, settings.evaluator());
    Prepared prepared;
    try {
      prepared = settings.timeout().isPresent()
          ? withTimeout(scope, partials, settings.timeout().get())
          : prepare(scope, partials);
    } catch (ClientWorkException e) {
      ClientFailure failure = e.failureIn(sinks.get(0).intrinsic());
      fail(failure);
      tellFailed(failure);
      return false;
    }
    batch.add(prepared, scope.bytes);
    tellDone(client);
    return true;
  }

  // The observer sees the pass, never changes it: what it throws is logged and dropped.

  private void tellDone(int client) {
    ClientObserver observer = settings.observer();
    if (observer == ClientObserver.NONE) {
      return;
    }
    try {
      observer.clientDone(settings.pass(), client);
    } catch (RuntimeException e) {
      observerThrew(e);
    }
  }

  private void tellFailed(ClientFailure failure) {
    ClientObserver observer = settings.observer();
    if (observer == ClientObserver.NONE) {
      return;
    }
    try {
      observer.clientFailed(settings.pass(), failure);
    } catch (RuntimeException e) {
      observerThrew(e);
    }
  }

  private void observerThrew(RuntimeException e) {
    if (observerWarned.compareAndSet(false, true)) {
      Log.LOG.warn("a client observer threw (ignored, as are its later throws): {}", e.toString());
    }
  }

  /**
   * A client's contributions, one per sink, and the values it handed the sinks that are its own
   * (not shared by every client), for the batch to discard when the pass discards.
   */
  private record Prepared(Object[] perSink, List<Object> values) {}

  private Prepared prepare(ClientScope scope, Object[] partials) {
    Object[] prepared = new Object[sinks.size()];
    List<Object> own = discards ? new ArrayList<>() : List.of();
    for (int s = 0; s < sinks.size(); s++) {
      Sink sink = sinks.get(s);
      List<ClientNode> inputs = sink.inputs();
      Object[] values = new Object[inputs.size()];
      try {
        for (int k = 0; k < values.length; k++) {
          values[k] = inputs.get(k).valueFor(scope);
          scope.bytes += TensorBytes.of(values[k]);
          if (discards && !inputs.get(k).uniform()) {
            own.add(values[k]);
          }
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
    // Every sink has checked the client's values: what is read from here on is the sum that
    // adds each into its sink's partial, once per sink that takes it. A value one sink takes
    // once has that sum as its last read, which puts a delta's start back into its working copy
    // in the same sweep; one that several take is marked once per taker, and none does.
    for (Object v : own) {
      DeferredTensors.markLastRead(v);
    }
    return new Prepared(prepared, own);
  }

  private Prepared withTimeout(ClientScope scope, Object[] partials, Duration timeout) {
    Future<Prepared> f = settings.clientRunner().submit(() -> prepare(scope, partials));
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
