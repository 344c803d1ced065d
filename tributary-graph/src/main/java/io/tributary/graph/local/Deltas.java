package io.tributary.graph.local;

import io.tributary.graph.ops.NdArray;
import io.tributary.tensor.DType;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * A client update's delta, {@code trained - start}, computed straight into the tensor that carries
 * it: one sweep that reads both arrays and writes the tensor's bytes, where subtracting in place
 * and then copying the array out swept the model three times (a 1,000,000-parameter model: 4 MB
 * each). The subtraction is the same float (or double) operation per element, so the bits are
 * those of {@code trained - start} however it is taken.
 *
 * <p>A large delta is written into pieces of {@value #PIECE_BYTES} bytes, one tensor over them
 * ({@link Tensor#wrap(DType, Shape, List)}), not into one buffer. G1 allocates an object of half a
 * heap region or more (a region is 1 MB in a 2 GB Spark executor, 4 MB in a 6 GB heap) as
 * "humongous": straight into the old generation, each allocation a check that starts a young
 * collection and a concurrent marking cycle once the old generation looks full. One 4 MB delta per
 * client of a 1,000,000-parameter model did that every few dozen clients: in the 100,000-client
 * cluster round, each executor ran about 800 young collections for humongous allocations and about
 * 750 concurrent marking cycles (about 60 s of marking in a 143 s round, beside the one core the
 * executor computes on). Pieces this small are ordinary young objects, dead once the client's sums
 * are taken. The elements, their order and their bytes are the same.
 */
final class Deltas {
  /** Elements subtracted into a small array, then copied into the tensor's buffer at once. */
  private static final int CHUNK = 2048;

  /**
   * Bytes per piece of a delta's storage: a power of two (what a tensor over pieces needs), below
   * G1's humongous threshold for every region size (half of the smallest region, 1 MB).
   */
  static final int PIECE_BYTES = 256 << 10;

  private Deltas() {}

  /**
   * {@code trained - start} as a new tensor, {@code start} only read. With {@code restore},
   * {@code trained} holds {@code start}'s elements afterwards (put back in the same sweep);
   * without, it may be overwritten (integer arrays are subtracted in place).
   */
  static Tensor difference(NdArray trained, NdArray start, boolean restore) {
    int n = trained.size();
    DType dtype = trained.dtype();
    if (dtype != DType.FLOAT32 && dtype != DType.FLOAT64) {
      for (int i = 0; i < n; i++) {
        trained.set(i, trained.get(i) - start.get(i));
      }
      Tensor delta = trained.toTensor();
      if (restore) {
        System.arraycopy(start.longs(), 0, trained.longs(), 0, n);
      }
      return delta;
    }
    int[] shape = trained.shape();
    long[] dims = new long[shape.length];
    for (int i = 0; i < dims.length; i++) {
      dims[i] = shape[i];
    }
    if (n == 0) {
      return Tensor.zeros(dtype, Shape.of(dims));
    }
    int item = dtype.itemSize();
    int perPiece = PIECE_BYTES / item;
    List<ByteBuffer> pieces = new ArrayList<>((n + perPiece - 1) / perPiece);
    for (int from = 0; from < n; from += perPiece) {
      int len = Math.min(perPiece, n - from);
      ByteBuffer piece = ByteBuffer.allocate(len * item).order(ByteOrder.LITTLE_ENDIAN);
      if (dtype == DType.FLOAT32) {
        subtract(trained.floats(), start.floats(), from, len, piece.asFloatBuffer(), restore);
      } else {
        subtract(trained.doubles(), start.doubles(), from, len, piece.asDoubleBuffer(), restore);
      }
      pieces.add(piece.asReadOnlyBuffer().order(ByteOrder.LITTLE_ENDIAN));
    }
    return Tensor.wrap(dtype, Shape.of(dims), pieces);
  }

  /**
   * Elements {@code [from, from + len)} of {@code a - b} into {@code out} from its index 0, and
   * {@code b}'s elements copied back into {@code a} when {@code restore}.
   */
  private static void subtract(float[] a, float[] b, int from, int len, FloatBuffer out,
      boolean restore) {
    float[] chunk = new float[Math.min(CHUNK, len)];
    for (int at = 0; at < len; at += CHUNK) {
      int m = Math.min(CHUNK, len - at);
      int base = from + at;
      for (int j = 0; j < m; j++) {
        chunk[j] = a[base + j] - b[base + j];
      }
      if (restore) {
        System.arraycopy(b, base, a, base, m);
      }
      out.put(at, chunk, 0, m);
    }
  }

  /** As {@link #subtract(float[], float[], int, int, FloatBuffer, boolean)}, for doubles. */
  private static void subtract(double[] a, double[] b, int from, int len, DoubleBuffer out,
      boolean restore) {
    double[] chunk = new double[Math.min(CHUNK, len)];
    for (int at = 0; at < len; at += CHUNK) {
      int m = Math.min(CHUNK, len - at);
      int base = from + at;
      for (int j = 0; j < m; j++) {
        chunk[j] = a[base + j] - b[base + j];
      }
      if (restore) {
        System.arraycopy(b, base, a, base, m);
      }
      out.put(at, chunk, 0, m);
    }
  }
}
