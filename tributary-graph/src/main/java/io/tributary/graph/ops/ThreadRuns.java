package io.tributary.graph.ops;

import java.util.function.Function;

/**
 * One {@link CompiledRun} of a template per thread, kept for that thread's next call: what a
 * function called once per client (a client's training, an evaluation) takes its run from,
 * instead of a {@link CompiledRun#fresh} run per call with arrays of its own to plan and fill.
 *
 * <p>A kept run gives the bits a fresh one gives: each run computes from its feeds alone, and
 * the arrays it keeps are its ops' outputs, which it overwrites (or replaces where the shape
 * changed) before they are read again, as it does from one batch to the next. A thread never
 * shares its run: a call that finds its thread's run taken (a call inside a call) gets a fresh
 * one, and a run given back after a failure is dropped, so that no half-run state is kept.
 * Thread-safe.
 */
public final class ThreadRuns {
  private final CompiledRun template;
  private final ThreadLocal<Slot> slots;

  /** A thread's run and whether a call is using it. */
  private static final class Slot {
    CompiledRun run;
    boolean taken;
  }

  /** Runs of {@code template}'s plan, one per thread that asks. */
  public ThreadRuns(CompiledRun template) {
    this.template = template;
    this.slots = ThreadLocal.withInitial(Slot::new);
  }

  /** The run all threads' runs are made from. */
  public CompiledRun template() {
    return template;
  }

  /**
   * The calling thread's run, made the first time; a fresh one while the thread's own is taken.
   * Hand it back with {@link #giveBack} when done.
   */
  public CompiledRun take() {
    Slot slot = slots.get();
    if (slot.taken) {
      return template.fresh();
    }
    if (slot.run == null) {
      slot.run = template.fresh();
    }
    slot.taken = true;
    return slot.run;
  }

  /**
   * {@code work} on the calling thread's run: {@link #take}, then {@link #giveBack}, the run
   * dropped when {@code work} throws.
   */
  public <T> T with(Function<CompiledRun, T> work) {
    CompiledRun run = take();
    boolean completed = false;
    try {
      T result = work.apply(run);
      completed = true;
      return result;
    } finally {
      giveBack(run, completed);
    }
  }

  /**
   * Ends a call's use of {@code run}, taken on this thread; {@code completed} false (the call
   * failed, perhaps in the middle of a run) drops it, and the thread's next call makes another.
   */
  public void giveBack(CompiledRun run, boolean completed) {
    Slot slot = slots.get();
    if (slot.run != run) {
      return;
    }
    slot.taken = false;
    if (!completed) {
      slot.run = null;
    }
  }
}
