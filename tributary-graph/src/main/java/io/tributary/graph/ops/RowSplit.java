package io.tributary.graph.ops;

import java.util.concurrent.ForkJoinTask;

/**
 * Runs a task over the rows {@code [0, total)} of a result in up to {@code threads} contiguous
 * parts: the first on the caller's thread, the others as tasks of the common fork-join pool. Each
 * part writes only its own rows, so the results do not depend on how many parts there were.
 */
final class RowSplit {
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
    per = (per + align - 1) / align * align;
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
