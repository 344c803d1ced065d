package io.tributary.graph.ops;

import java.util.concurrent.ForkJoinTask;

/**
 * Runs a task over the rows {@code [0, total)} of a result in up to {@code threads} contiguous
 * parts, on the caller's thread and the workers of one {@link WorkerTeam}, or, while that team is
 * running another caller's parts, the caller's thread and tasks of the common fork-join pool. Each
 * part writes only its own rows, so the results do not depend on how many parts there were or
 * which thread ran each.
 */
final class RowSplit {
  /**
   * The JVM's one team for split products: one, as the common fork-join pool is one, so that any
   * number of kernels and trainers share a few hot threads instead of each starting its own; its
   * threads are daemons and end when idle.
   */
  private static final WorkerTeam TEAM = new WorkerTeam();

  /** Computes the rows {@code [from, to)}. */
  @FunctionalInterface
  interface Rows {
    void run(int from, int to);
  }

  private RowSplit() {}

  /**
   * Runs {@code task} over {@code [0, total)} in at most {@code threads} parts of at least {@code
   * minRows} rows each, each part a multiple of {@code align} rows except the last.
   */
  static void run(int threads, int total, int minRows, int align, Rows task) {
    int parts = Math.min(threads, Math.max(1, total / Math.max(1, minRows)));
    if (parts <= 1) {
      task.run(0, total);
      return;
    }
    int per = (total + parts - 1) / parts;
    int size = (per + align - 1) / align * align;
    int count = (total + size - 1) / size;
    if (count <= 1) {
      task.run(0, total);
      return;
    }
    if (TEAM.tryRun(count, i -> task.run(i * size, Math.min(total, (i + 1) * size)))) {
      return;
    }
    forkJoin(total, size, task);
  }

  /** The parts of {@code size} rows as tasks of the common fork-join pool, the first the caller's. */
  private static void forkJoin(int total, int per, Rows task) {
    int parts = (total + per - 1) / per;
    ForkJoinTask<?>[] forked = new ForkJoinTask<?>[parts];
    int started = 0;
    for (int from = per; from < total; from += per) {
      int f = from;
      int t = Math.min(total, from + per);
      forked[started++] = ForkJoinTask.adapt(() -> task.run(f, t)).fork();
    }
    RuntimeException failure = null;
    try {
      task.run(0, Math.min(total, per));
    } catch (RuntimeException e) {
      failure = e;
    }
    // Join in reverse: the last forked is the first a busy pool leaves for the caller to take back.
    for (int i = started - 1; i >= 0; i--) {
      ForkJoinTask<?> f = forked[i];
      try {
        if (f.tryUnfork()) {
          f.invoke();
        } else {
          f.join();
        }
      } catch (RuntimeException e) {
        if (failure == null) {
          failure = e;
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
  }
}
