package io.tributary.graph.local;

import io.tributary.graph.ops.NdArray;
import io.tributary.tensor.Tensor;
import java.util.List;

/**
 * The kernel arrays of the model a bound function was last called with, made once and shared by
 * every call with the same tensors: the clients of a pass all start from one model, which
 * would otherwise be copied out of its tensors once per client (a 1,000,000-parameter model:
 * 4 MB, twice per client update). The arrays are read-only; a call that changes its parameters
 * trains its thread's {@link #workingCopy working copy}, one set of arrays per thread overwritten
 * by each call, so that the clients a thread runs one after another allocate no model-sized
 * arrays and train in memory that stays in cache. Tensors are immutable, so the same tensor
 * objects always hold the same elements; another model replaces the one kept.
 */
final class ModelArrays {
  /** The tensors last converted and their arrays, replaced as one (calls race benignly). */
  private record Last(List<Tensor> tensors, NdArray[] arrays) {}

  private volatile Last last;
  /**
   * A thread's arrays to train in, and the start arrays they hold unchanged (null while a call
   * may have changed them): a call that puts the start's elements back as it takes its delta
   * ({@link #restored}) spares the next call with the same start the copy.
   */
  private static final class Working {
    NdArray[] arrays;
    NdArray[] cleanFor;
  }

  /** Each thread's arrays to train in; only that thread reads or writes them. */
  private final ThreadLocal<Working> working = new ThreadLocal<>();

  /** The arrays of {@code tensors}, in their order; not to be written. */
  NdArray[] of(List<Tensor> tensors) {
    Last l = last;
    if (l != null && same(l.tensors(), tensors)) {
      return l.arrays();
    }
    NdArray[] arrays = new NdArray[tensors.size()];
    for (int i = 0; i < arrays.length; i++) {
      arrays[i] = NdArray.fromTensor(tensors.get(i));
    }
    last = new Last(List.copyOf(tensors), arrays);
    return arrays;
  }

  /**
   * The calling thread's arrays holding a copy of {@code start}'s elements, valid until the
   * thread's next call: made on its first call (or when the shapes change), then overwritten,
   * or left as they are when the thread's last call restored them from this same {@code start}.
   */
  NdArray[] workingCopy(NdArray[] start) {
    Working w = working.get();
    if (w == null || !sameShapes(w.arrays, start)) {
      w = new Working();
      w.arrays = new NdArray[start.length];
      for (int i = 0; i < start.length; i++) {
        w.arrays[i] = start[i].copy();
      }
      working.set(w);
      return w.arrays;
    }
    if (w.cleanFor != start) {
      for (int i = 0; i < start.length; i++) {
        NdArray from = start[i];
        switch (from.dtype()) {
          case FLOAT32 -> System.arraycopy(from.floats(), 0, w.arrays[i].floats(), 0, from.size());
          case FLOAT64 ->
              System.arraycopy(from.doubles(), 0, w.arrays[i].doubles(), 0, from.size());
          default -> System.arraycopy(from.longs(), 0, w.arrays[i].longs(), 0, from.size());
        }
      }
    }
    // The caller may change them from here on.
    w.cleanFor = null;
    return w.arrays;
  }

  /**
   * Records that the calling thread's working copy holds {@code start}'s elements again (its
   * caller put them back), so that the thread's next {@link #workingCopy} of the same arrays
   * need not copy them.
   */
  void restored(NdArray[] start) {
    Working w = working.get();
    if (w != null) {
      w.cleanFor = start;
    }
  }

  private static boolean sameShapes(NdArray[] a, NdArray[] b) {
    if (a.length != b.length) {
      return false;
    }
    for (int i = 0; i < a.length; i++) {
      if (a[i].dtype() != b[i].dtype() || !java.util.Arrays.equals(a[i].shape(), b[i].shape())) {
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
