package io.tributary.graph.local;

import io.tributary.core.values.StructValue;
import io.tributary.graph.ops.NdArray;
import io.tributary.tensor.DType;
import io.tributary.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;

/** One batch of a data sequence as kernel arrays, and the readers that make them. */
record LocalBatch(NdArray x, NdArray y, int size) {
  /** The most elements one regrouped feature array may hold. */
  static final long MAX_ELEMENTS = Integer.MAX_VALUE - 8;

  /**
   * Reads a sequence value (an {@link Iterable} of {@code <x=Tensor,y=Tensor>} structs).
   *
   * @param where names the computation and argument in messages
   * @throws LocalRunException if the value or an element has the wrong form
   */
  static List<LocalBatch> readAll(Object data, String where) {
    if (!(data instanceof Iterable<?> it)) {
      throw new LocalRunException(where + ": the data should be an Iterable of batch structs but is "
          + ModelStructs.describe(data));
    }
    List<LocalBatch> out = new ArrayList<>();
    long i = 0;
    for (Object element : it) {
      out.add(read(element, where, i));
      i++;
    }
    return out;
  }

  /**
   * Batch {@code index} of the data described by {@code where}; the two are joined only for an
   * error message, as this runs for every batch of every client.
   */
  static LocalBatch read(Object element, String where, long index) {
    if (!(element instanceof StructValue s) || s.size() != 2
        || !s.names().get(0).equals(java.util.Optional.of("x"))
        || !s.names().get(1).equals(java.util.Optional.of("y"))) {
      throw new LocalRunException(at(where, index) + ": expected a struct <x=...,y=...> but found "
          + (element instanceof StructValue s2 ? "the struct " + s2.names()
              : ModelStructs.describe(element)));
    }
    if (!(s.get(0) instanceof Tensor x) || !(s.get(1) instanceof Tensor y)) {
      throw new LocalRunException(at(where, index) + ": x and y should be tensors but are "
          + ModelStructs.describe(s.get(0)) + " and " + ModelStructs.describe(s.get(1)));
    }
    if (x.rank() < 1 || y.rank() != 1 || x.shape().dim(0) != y.shape().dim(0)) {
      throw new LocalRunException(at(where, index) + ": x " + x.dtype() + x.shape() + " and y "
          + y.dtype() + y.shape() + " should share their first dimension, with y a vector");
    }
    if (!NdArray.supports(x.dtype()) || !NdArray.supports(y.dtype())) {
      throw new LocalRunException(at(where, index) + ": the graph kernels cannot run on x "
          + x.dtype() + " and y " + y.dtype());
    }
    return new LocalBatch(NdArray.fromTensor(x), NdArray.fromTensor(y),
        Math.toIntExact(y.shape().dim(0)));
  }

  /** Whether {@code b} has {@code first}'s dtypes and example shape (x past dimension 0). */
  private static boolean sameKind(LocalBatch b, LocalBatch first) {
    if (b.x.dtype() != first.x.dtype() || b.y.dtype() != first.y.dtype()
        || b.x.rank() != first.x.rank()) {
      return false;
    }
    for (int d = 1; d < b.x.rank(); d++) {
      if (b.x.dim(d) != first.x.dim(d)) {
        return false;
      }
    }
    return true;
  }

  private static String at(String where, long index) {
    return where + ", batch " + index;
  }

  /**
   * The same examples, in order, cut into batches of {@code batchSize} (the last holds the
   * remainder). Batches already cut that way (as a simulation's client data arrive) are returned
   * as they are, without a copy.
   */
  static List<LocalBatch> regroup(List<LocalBatch> batches, int batchSize, String where) {
    if (batches.isEmpty()) {
      return batches;
    }
    LocalBatch first = batches.get(0);
    long total = 0;
    // Whether every batch but the last holds batchSize examples and the last 1 to batchSize.
    boolean cut = true;
    int last = batches.size() - 1;
    for (int i = 0; i <= last; i++) {
      LocalBatch b = batches.get(i);
      if (!sameKind(b, first)) {
        throw new LocalRunException(where + ": batch " + i + " has x " + b.x.dtype()
            + java.util.Arrays.toString(b.x.shape()) + ", unlike batch 0's " + first.x.dtype()
            + java.util.Arrays.toString(first.x.shape()));
      }
      total += b.size;
      cut &= i < last ? b.size == batchSize : b.size >= 1 && b.size <= batchSize;
    }
    if (cut) {
      return batches;
    }
    int[] exampleShape = java.util.Arrays.copyOfRange(first.x.shape(), 1, first.x.rank());
    int per = NdArray.sizeOf(exampleShape);
    if (total * per > MAX_ELEMENTS) {
      throw new LocalRunException(where + ": " + total + " examples of " + per
          + " values are too many to regroup into batches");
    }
    List<LocalBatch> out = new ArrayList<>();
    int n = (int) total;
    int done = 0;
    int bi = 0;
    int within = 0;
    while (done < n) {
      int size = Math.min(batchSize, n - done);
      int[] shape = new int[exampleShape.length + 1];
      shape[0] = size;
      System.arraycopy(exampleShape, 0, shape, 1, exampleShape.length);
      NdArray x = NdArray.zeros(first.x.dtype(), shape);
      NdArray y = NdArray.zeros(first.y.dtype(), size);
      for (int k = 0; k < size; k++) {
        while (within == batches.get(bi).size) {
          bi++;
          within = 0;
        }
        LocalBatch src = batches.get(bi);
        copyRow(src.x, within, x, k, per);
        copyRow(src.y, within, y, k, 1);
        within++;
      }
      out.add(new LocalBatch(x, y, size));
      done += size;
    }
    return out;
  }

  private static void copyRow(NdArray from, int row, NdArray to, int toRow, int per) {
    if (from.dtype() == DType.FLOAT32) {
      System.arraycopy(from.floats(), row * per, to.floats(), toRow * per, per);
    } else if (from.dtype() == DType.FLOAT64) {
      System.arraycopy(from.doubles(), row * per, to.doubles(), toRow * per, per);
    } else {
      System.arraycopy(from.longs(), row * per, to.longs(), toRow * per, per);
    }
  }
}
