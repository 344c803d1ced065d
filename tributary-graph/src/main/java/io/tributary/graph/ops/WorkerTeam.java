package io.tributary.graph.ops;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * A few daemon threads that take parts of one split product (or convolution) at a time from the
 * thread that calls {@link #tryRun}, kept hot between calls: after a part, a worker spins for
 * {@link #SPIN_NANOS} waiting for the next job before it parks, and a parked worker exits after
 * {@link #KEEP_ALIVE_NANOS} without work. A training step makes a handful of products of a few
 * dozen microseconds each; handing half of one to a parked fork-join worker (an unpark, the wake-up
 * of a core that has gone idle, and a join: tens of microseconds each time) cost more than the
 * half saved, so two threads trained the FedAvg 2NN slower than one.
 *
 * <p>A job is a number of parts; the caller and the workers claim parts from one counter, so a
 * worker that the operating system has not scheduled yet costs nothing but the parts the caller
 * then computes itself. Each part writes only its own elements, computed as one thread would, so
 * which thread ran a part changes no bits.
 *
 * <p>One job runs at a time; a caller that finds the team busy (another training thread's
 * product, or a part that itself splits) gets false from {@link #tryRun} and splits its work
 * another way.
 */
final class WorkerTeam {
  /**
   * How long a worker waits, spinning, for the next job before it parks: longer than the gaps
   * between the products of a training step (elementwise ops, the optimizer's update: tens of
   * microseconds for a 2NN), shorter than anything a user would notice as a busy core once
   * training ends.
   */
  static final long SPIN_NANOS = TimeUnit.MICROSECONDS.toNanos(200);
  /** Spins between yields while a worker waits for a job (a power of two). */
  private static final int YIELD_EVERY = 32;
  /** How long a parked worker waits for work before its thread ends. */
  static final long KEEP_ALIVE_NANOS = TimeUnit.SECONDS.toNanos(30);
  /** The most workers a team starts: parts beyond them are computed by whoever is free. */
  static final int MAX_WORKERS = GemmKernel.MAX_THREADS - 1;

  private static final int RUNNING = 0;
  private static final int PARKED = 1;
  private static final int ENDED = 2;

  /** Computes part {@code index} of a job. */
  @FunctionalInterface
  interface Part {
    void run(int index);
  }

  /** One call's parts, claimed from {@code next}; {@code done} counts the finished ones. */
  private static final class Job {
    /**
     * What the parts run; cleared once all have finished, so that the job the team and its workers
     * still hold does not keep the product's arrays reachable. Read only after claiming a part.
     */
    Part part;
    final int parts;
    final AtomicInteger next = new AtomicInteger();
    final AtomicInteger done = new AtomicInteger();
    volatile RuntimeException failure;
    volatile Error error;

    Job(Part part, int parts) {
      this.part = part;
      this.parts = parts;
    }

    /** Claims and runs parts until none is left. */
    void work() {
      for (int i; (i = next.getAndIncrement()) < parts; ) {
        try {
          part.run(i);
        } catch (RuntimeException e) {
          if (failure == null) {
            failure = e;
          }
        } catch (Error e) {
          if (error == null) {
            error = e;
          }
        } finally {
          done.incrementAndGet();
        }
      }
    }
  }

  /** One worker thread and what the submitting thread needs to wake it. */
  private final class Worker implements Runnable {
    final int index;
    final AtomicInteger state = new AtomicInteger(RUNNING);
    final Thread thread;
    Job seen;

    Worker(int index, Job seen) {
      this.index = index;
      this.seen = seen;
      this.thread = Thread.ofPlatform().daemon().name("tributary-gemm-" + index)
          .unstarted(this);
    }

    @Override
    public void run() {
      while (true) {
        Job job = awaitJob();
        if (job == null) {
          return;
        }
        seen = job;
        if (index < job.parts - 1) {
          job.work();
        }
      }
    }

    /** The next job, or null when none came within the keep-alive and this thread ends. */
    private Job awaitJob() {
      long spinUntil = System.nanoTime() + SPIN_NANOS;
      int spins = 0;
      while (true) {
        Job job = current;
        if (job != seen) {
          return job;
        }
        if (System.nanoTime() - spinUntil < 0) {
          // Mostly a pause; now and then a yield, which returns at once on an idle core and
          // hands a busy one to threads that have work (the caller's among them).
          if ((++spins & (YIELD_EVERY - 1)) == 0) {
            Thread.yield();
          } else {
            Thread.onSpinWait();
          }
          continue;
        }
        state.set(PARKED);
        if (current != seen) {
          // A job came between the check and the state change: take it, whoever flips the state.
          state.set(RUNNING);
          continue;
        }
        long parkedAt = System.nanoTime();
        while (current == seen && System.nanoTime() - parkedAt < KEEP_ALIVE_NANOS) {
          // A wake-up without a job (a permit left from an earlier unpark, or none at all) parks
          // again for the rest of the keep-alive.
          LockSupport.parkNanos(this, KEEP_ALIVE_NANOS - (System.nanoTime() - parkedAt));
        }
        if (current == seen && state.compareAndSet(PARKED, ENDED)) {
          return null;
        }
        // A job came (the submitter may have flipped the state already): take it.
        state.set(RUNNING);
        spinUntil = System.nanoTime() + SPIN_NANOS;
      }
    }
  }

  /** Whether a job is running; not a reentrant lock, so that a part cannot start a job. */
  private final AtomicBoolean busy = new AtomicBoolean();
  private final Worker[] workers = new Worker[MAX_WORKERS];
  /** The latest job; a worker takes it when it differs from the last one it saw. */
  private volatile Job current;

  /**
   * Runs {@code part} for every index in {@code [0, parts)}, on the calling thread and up to
   * {@code parts - 1} workers, and returns true once all have finished; returns false at once,
   * having run nothing, when the team is running another job. The first exception a part threw is
   * rethrown after all parts have finished.
   */
  boolean tryRun(int parts, Part part) {
    if (!busy.compareAndSet(false, true)) {
      return false;
    }
    try {
      Job job = new Job(part, parts);
      current = job;
      int helpers = Math.min(parts - 1, MAX_WORKERS);
      for (int i = 0; i < helpers; i++) {
        wake(i, job);
      }
      job.work();
      awaitDone(job);
      job.part = null;
      if (job.error != null) {
        throw job.error;
      }
      if (job.failure != null) {
        throw job.failure;
      }
      return true;
    } finally {
      busy.set(false);
    }
  }

  /** Makes worker {@code i} take {@code job}: a running one sees it, a parked one is woken. */
  private void wake(int i, Job job) {
    Worker w = workers[i];
    if (w != null) {
      int s = w.state.get();
      if (s == RUNNING) {
        return;
      }
      if (s == PARKED && w.state.compareAndSet(PARKED, RUNNING)) {
        LockSupport.unpark(w.thread);
        return;
      }
      if (w.state.get() != ENDED) {
        // It woke itself in the meantime and is running: it sees the job.
        return;
      }
    }
    // None yet, or its thread ended after the keep-alive: a new one, which has not seen this job.
    Worker fresh = new Worker(i, null);
    workers[i] = fresh;
    fresh.thread.start();
  }

  /**
   * Waits for the parts that workers claimed: spinning, as they are mostly about as long as the
   * caller's own; yielding after a while, in case a worker's thread is waiting for a core.
   */
  private static void awaitDone(Job job) {
    int spins = 0;
    while (job.done.get() < job.parts) {
      if (++spins < 1 << 14) {
        Thread.onSpinWait();
      } else {
        Thread.yield();
      }
    }
  }
}
