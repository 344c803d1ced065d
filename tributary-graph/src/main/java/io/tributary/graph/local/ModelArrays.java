package io.tributary.graph.local;

import io.tributary.graph.ops.NdArray;
import io.tributary.graph.ops.RankOneUpdate;
import io.tributary.tensor.DType;
import io.tributary.tensor.Finite;
import io.tributary.tensor.Tensor;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The kernel arrays of the model a bound function was last called with, made once and shared by
 * every call with the same tensors: the clients of a pass all start from one model, which
 * would otherwise be copied out of its tensors once per client (a 1,000,000-parameter model:
 * 4 MB, twice per client update). The arrays are read-only; a call that changes its parameters
 * trains one of its thread's {@link Copy working copies}, sets of arrays reused by the thread's
 * calls one after another, so that the clients a thread runs allocate no model-sized arrays and
 * train in memory that stays in cache. Tensors are immutable, so the same tensor objects always
 * hold the same elements; another model replaces the one kept.
 *
 * <p>A client update's delta is lent its copy ({@link Copy#difference}): the tensor
 * {@code trained - start} is made from the copy and the start only if something reads it, and a
 * sum that reads the two arrays in place adds it without it ever being written out. A thread
 * therefore keeps a few copies (at most {@value #MAX_COPIES}, and {@value #MAX_COPY_BYTES}
 * bytes beyond the first), enough for the deltas a pass holds before adding them (a batch of
 * clients); a copy is used again once its deltas give it back, and when every copy is still
 * lent the oldest one's deltas are made (copied out) so that it can be.
 */
final class ModelArrays {
  /** Working copies one thread keeps at most. */
  static final int MAX_COPIES = 8;
  /** Bytes of working copies one thread keeps at most, beyond one copy. */
  static final long MAX_COPY_BYTES = 64L << 20;

  /**
   * The tensors last converted, their arrays, and per array whether every element is finite and
   * below half the largest power of two of its dtype ({@link Finite#withinHalfRange(float[],
   * int)}: then a delta's finiteness check reads only the trained array); replaced as one
   * (calls race benignly).
   */
  private record Last(List<Tensor> tensors, NdArray[] arrays, boolean[] within) {}

  private volatile Last last;

  /** Each thread's working copies; only that thread hands them out and writes them. */
  private final ThreadLocal<Pool> pools = new ThreadLocal<>();

  /** A thread's working copies, all of one set of shapes. */
  private static final class Pool {
    final List<Copy> copies = new ArrayList<>();
    long clock;
  }

  /**
   * One set of arrays a call trains in. The arrays are written only by the thread that owns the
   * copy, and only while no delta holds them; deltas give them back from any thread.
   */
  static final class Copy {
    /** The arrays, one per parameter. */
    final NdArray[] arrays;
    /** When the owning thread last handed the copy out (its pool's clock). */
    private long used;
    // Guarded by this.
    /** The start the arrays were last copied from or handed out for, or null. */
    private NdArray[] copiedFrom;
    /** Per array, whether it may differ from {@link #copiedFrom}'s. */
    private final boolean[] changed;
    /** Per array, its view marked finite ({@link #finiteView}), made when first asked for. */
    private final NdArray[] finiteViews;
    /** Deltas over the arrays not yet given back. */
    private int lent;
    /** The tensors lent the arrays, to make them when the copy is needed back. */
    private final List<Tensor> lentTo = new ArrayList<>();

    private Copy(NdArray[] arrays) {
      this.arrays = arrays;
      this.changed = new boolean[arrays.length];
      this.finiteViews = new NdArray[arrays.length];
    }

    /**
     * Array {@code i} {@link NdArray#assumingFinite marked finite}, for a caller that has just
     * been handed this copy for a start whose array {@code i} is finite (then the copy holds the
     * start's elements) and that feeds it to one run of a step: nothing writes it until the run's
     * accumulations, after every op has read it. Only the owning thread asks.
     */
    NdArray finiteView(int i) {
      NdArray v = finiteViews[i];
      if (v == null) {
        v = arrays[i].assumingFinite();
        finiteViews[i] = v;
      }
      return v;
    }

    /**
     * {@code trained - start} for parameter {@code i} (trained: this copy's array, after the
     * call's steps), as a tensor lent the two arrays for float dtypes (made only if read) and
     * made now, with the start put back, for the others. {@code startWithinHalfRange}: what
     * {@link ModelArrays#withinHalfRange} says of the start.
     */
    Tensor difference(int i, NdArray start, boolean startWithinHalfRange) {
      NdArray w = arrays[i];
      if (w.dtype() != DType.FLOAT32 && w.dtype() != DType.FLOAT64) {
        Tensor delta = Deltas.difference(w, start, true);
        synchronized (this) {
          changed[i] = false;
        }
        return delta;
      }
      synchronized (this) {
        lent++;
      }
      Tensor delta;
      try {
        delta = Deltas.deferred(w, start, startWithinHalfRange,
            restored -> returned(i, restored));
      } catch (RuntimeException e) {
        returned(i, false);
        throw e;
      }
      // Asked outside this copy's lock: a delta takes its own lock, then this one to give the
      // arrays back.
      if (delta.isDeferred()) {
        synchronized (this) {
          lentTo.add(delta);
        }
      }
      return delta;
    }

    /**
     * The change {@code update} (left unapplied to this copy's array {@code i}, which still holds
     * {@code start}'s elements) makes, as a tensor computed where it is read ({@link
     * Tensor#rankOneStep}); nothing of this copy is lent, so the copy is free for its thread's
     * next client at once.
     */
    Tensor rankOneStep(int i, NdArray start, boolean startWithinHalfRange, RankOneUpdate update) {
      if (!update.target().sharesStorage(arrays[i])) {
        throw new IllegalArgumentException("the update is not of this copy's array " + i);
      }
      synchronized (this) {
        changed[i] = false;
      }
      return Tensor.rankOneStep(start.floats(), update.u(), update.v(), update.alpha(),
          startWithinHalfRange);
    }

    private synchronized void returned(int i, boolean restored) {
      lent--;
      if (restored) {
        changed[i] = false;
      }
      if (lent == 0) {
        lentTo.clear();
      }
      notifyAll();
    }

    private synchronized boolean free() {
      return lent == 0;
    }

    private synchronized boolean holds(NdArray[] start) {
      if (copiedFrom != start) {
        return false;
      }
      for (boolean c : changed) {
        if (c) {
          return false;
        }
      }
      return true;
    }

    /**
     * Makes the lent deltas' elements (copies them out, which gives the arrays back) and waits
     * for any reader still holding the arrays.
     */
    private void reclaim() {
      List<Tensor> out;
      synchronized (this) {
        out = new ArrayList<>(lentTo);
      }
      for (Tensor t : out) {
        t.materialize();
      }
      synchronized (this) {
        boolean interrupted = false;
        while (lent > 0) {
          try {
            wait();
          } catch (InterruptedException e) {
            interrupted = true;
          }
        }
        if (interrupted) {
          Thread.currentThread().interrupt();
        }
      }
    }

    /** Puts {@code start}'s elements into the arrays that may differ from them. */
    private synchronized void copyFrom(NdArray[] start) {
      boolean all = copiedFrom != start;
      for (int i = 0; i < start.length; i++) {
        if (!all && !changed[i]) {
          continue;
        }
        NdArray from = start[i];
        switch (from.dtype()) {
          case FLOAT32 -> System.arraycopy(from.floats(), 0, arrays[i].floats(), 0, from.size());
          case FLOAT64 ->
              System.arraycopy(from.doubles(), 0, arrays[i].doubles(), 0, from.size());
          default -> System.arraycopy(from.longs(), 0, arrays[i].longs(), 0, from.size());
        }
      }
      copiedFrom = start;
      // The caller may change them from here on.
      Arrays.fill(changed, true);
    }
  }

  /**
   * The arrays of {@code tensors}, in their order; not to be written. Those whose elements are
   * all finite (within half the range) are {@link NdArray#assumingFinite marked so}.
   */
  NdArray[] of(List<Tensor> tensors) {
    Last l = last;
    if (l != null && same(l.tensors(), tensors)) {
      return l.arrays();
    }
    NdArray[] arrays = new NdArray[tensors.size()];
    boolean[] within = new boolean[arrays.length];
    for (int i = 0; i < arrays.length; i++) {
      NdArray a = NdArray.fromTensor(tensors.get(i));
      within[i] = withinHalfRange(a);
      // Read-only from here on, so a product may read it as finite (NdArray#assumingFinite).
      arrays[i] = within[i] ? a.assumingFinite() : a;
    }
    last = new Last(List.copyOf(tensors), arrays, within);
    return arrays;
  }

  /**
   * Whether every element of {@code start[i]} (arrays of {@link #of}) is finite and below half
   * its dtype's largest power of two: checked once per model.
   */
  boolean withinHalfRange(NdArray[] start, int i) {
    Last l = last;
    return l != null && l.arrays() == start ? l.within()[i] : withinHalfRange(start[i]);
  }

  private static boolean withinHalfRange(NdArray a) {
    return switch (a.dtype()) {
      case FLOAT32 -> Finite.withinHalfRange(a.floats(), a.size());
      case FLOAT64 -> Finite.withinHalfRange(a.doubles(), a.size());
      default -> false;
    };
  }

  /**
   * One of the calling thread's working copies holding {@code start}'s elements, for the
   * caller to change until it lends the copy's arrays to its deltas or calls again: a copy no
   * delta holds (one that already holds {@code start} unchanged if there is one), a new one while
   * the thread has fewer than its limit, or else the one handed out longest ago, once its deltas
   * are made.
   */
  Copy workingCopy(NdArray[] start) {
    Pool p = pools.get();
    if (p == null || !p.copies.isEmpty() && !sameShapes(p.copies.get(0).arrays, start)) {
      p = new Pool();
      pools.set(p);
    }
    Copy chosen = null;
    for (Copy c : p.copies) {
      if (c.free() && (chosen == null || c.holds(start) && !chosen.holds(start))) {
        chosen = c;
      }
    }
    if (chosen == null && p.copies.size() < limit(start)) {
      NdArray[] arrays = new NdArray[start.length];
      for (int i = 0; i < start.length; i++) {
        arrays[i] = start[i].copy();
      }
      chosen = new Copy(arrays);
      synchronized (chosen) {
        chosen.copiedFrom = start;
      }
      p.copies.add(chosen);
    }
    if (chosen == null) {
      chosen = p.copies.get(0);
      for (Copy c : p.copies) {
        if (c.used < chosen.used) {
          chosen = c;
        }
      }
      chosen.reclaim();
    }
    chosen.copyFrom(start);
    chosen.used = ++p.clock;
    return chosen;
  }

  /** The working copies a thread keeps for a model of these arrays. */
  private static int limit(NdArray[] start) {
    long bytes = 0;
    for (NdArray a : start) {
      bytes += (long) a.size() * a.dtype().itemSize();
    }
    return (int) Math.max(1, Math.min(MAX_COPIES, MAX_COPY_BYTES / Math.max(1, bytes)));
  }

  private static boolean sameShapes(NdArray[] a, NdArray[] b) {
    if (a.length != b.length) {
      return false;
    }
    for (int i = 0; i < a.length; i++) {
      if (a[i].dtype() != b[i].dtype() || !Arrays.equals(a[i].shape(), b[i].shape())) {
        return false;
      }
    }
    return true;
  }

  private static boolean same(List<Tensor> a, List<Tensor> b) {
    if (a.size() != b.size()) {
      return false;
    }
    for (int i = 0; i < a.size(); i++) {
      if (a.get(i) != b.get(i)) {
        return false;
      }
    }
    return true;
  }
}
