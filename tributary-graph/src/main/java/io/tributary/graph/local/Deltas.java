package io.tributary.graph.local;

import io.tributary.graph.ops.NdArray;
import io.tributary.tensor.DType;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;

/**
 * A client update's delta, {@code trained - start}. For float dtypes it is a tensor lent the two
 * arrays ({@link Tensor#difference}): its elements are made only if something reads them, in
 * one sweep that reads both arrays, writes the tensor's bytes and puts the start back into the
 * trained array, and a sum that reads the arrays in place (a {@code federated_mean} of the
 * updates, the common case) adds the delta without it ever being written out. The subtraction is
 * the same float (or double) operation per element either way, so the bits are those of
 * {@code trained - start} however it is taken.
 *
 * <p>A made delta lies in pieces of {@value #PIECE_BYTES} bytes, not in one buffer: G1
 * allocates an object of half a heap region or more (a region is 1 MB in a 2 GB Spark executor)
 * as "humongous", straight into the old generation, and one 4 MB delta per client of a
 * 1,000,000-parameter model started young collections and concurrent marking cycles every few
 * dozen clients. Pieces this small are ordinary young objects.
 */
final class Deltas {
  /** Bytes per piece of a made delta's storage (the tensor module's pieces). */
  static final int PIECE_BYTES = 256 << 10;

  private Deltas() {}

  /**
   * {@code trained - start} as a made tensor, {@code start} only read. With {@code restore},
   * {@code trained} holds {@code start}'s elements afterwards (put back in the same sweep);
   * without, it may be overwritten (integer arrays are subtracted in place).
   */
  static Tensor difference(NdArray trained, NdArray start, boolean restore) {
    int n = trained.size();
    DType dtype = trained.dtype();
    if (dtype == DType.FLOAT32 || dtype == DType.FLOAT64) {
      Tensor delta = deferred(trained, start, false, restored -> { });
      delta.materialize();
      return delta;
    }
    for (int i = 0; i < n; i++) {
      trained.set(i, trained.get(i) - start.get(i));
    }
    Tensor delta = trained.toTensor();
    if (restore) {
      System.arraycopy(start.longs(), 0, trained.longs(), 0, n);
    }
    return delta;
  }

  /**
   * {@code trained - start} for float32 or float64 arrays, as a tensor lent both arrays until
   * {@code loan} is told they are back (neither may be written before); {@code startWithin}:
   * every start element is known finite and below half the dtype's largest power of two
   * ({@link Tensor#difference(Shape, float[], float[], boolean, Tensor.Loan)}).
   */
  static Tensor deferred(NdArray trained, NdArray start, boolean startWithin, Tensor.Loan loan) {
    Shape shape = shape(trained);
    return trained.dtype() == DType.FLOAT32
        ? Tensor.difference(shape, trained.floats(), start.floats(), startWithin, loan)
        : Tensor.difference(shape, trained.doubles(), start.doubles(), startWithin, loan);
  }

  private static Shape shape(NdArray a) {
    int[] shape = a.shape();
    long[] dims = new long[shape.length];
    for (int i = 0; i < dims.length; i++) {
      dims[i] = shape[i];
    }
    return Shape.of(dims);
  }
}
