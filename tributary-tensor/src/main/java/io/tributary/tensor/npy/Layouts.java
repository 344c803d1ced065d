package io.tributary.tensor.npy;

import io.tributary.tensor.Shape;
import io.tributary.tensor.TensorBuilder;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;

/**
 * Bulk conversions from numpy's other layouts to Tributary's: byte swapping and Fortran to C
 * order. Both walk the storage buffers directly, without a per-element allocation.
 */
final class Layouts {
  private Layouts() {}

  /** Reverses the byte order of every {@code unit}-byte group (2, 4 or 8) in place. */
  static void swapBytes(List<ByteBuffer> buffers, int unit) {
    for (ByteBuffer buffer : buffers) {
      ByteBuffer b = buffer.duplicate().order(ByteOrder.LITTLE_ENDIAN);
      int n = b.limit();
      switch (unit) {
        case 2 -> {
          for (int i = 0; i < n; i += 2) {
            b.putShort(i, Short.reverseBytes(b.getShort(i)));
          }
        }
        case 4 -> {
          for (int i = 0; i < n; i += 4) {
            b.putInt(i, Integer.reverseBytes(b.getInt(i)));
          }
        }
        case 8 -> {
          for (int i = 0; i < n; i += 8) {
            b.putLong(i, Long.reverseBytes(b.getLong(i)));
          }
        }
        default -> throw new IllegalArgumentException("no byte swap for " + unit + "-byte units");
      }
    }
  }

  /** Edge of the square tiles the transpose works in: 64 x 64 items stay within L1/L2 cache. */
  private static final int TILE = 64;

  /**
   * Reorders a column-major array into a row-major tensor of {@code shape} (rank 2 or more).
   *
   * <p>Axis 0 is contiguous in the source and the last axis in the destination, so for each
   * combination of the middle axes this is a 2-D transpose between those two axes. It runs in
   * tiles so that both the reads and the writes stay within a few cache lines at a time.
   *
   * @param columnMajor little-endian buffers holding the file's data in order; all but the
   *     last must span the same power-of-two size
   * @param item bytes per element
   * @param rowMajor the destination's writable buffers, laid out the same way
   */
  static void fortranToC(List<ByteBuffer> columnMajor, Shape shape, int item, List<ByteBuffer> rowMajor) {
    int rank = shape.rank();
    long[] dims = shape.dims();
    if (shape.size() == 0) {
      return;
    }
    long[] rowStride = new long[rank];
    long[] colStride = new long[rank];
    long r = item;
    long c = item;
    for (int k = 0; k < rank; k++) {
      colStride[k] = c;
      c *= dims[k];
      rowStride[rank - 1 - k] = r;
      r *= dims[rank - 1 - k];
    }
    Chunks src = new Chunks(columnMajor);
    Chunks dst = new Chunks(rowMajor);
    int last = rank - 1;
    long n0 = dims[0];
    long nLast = dims[last];
    long[] middle = new long[rank];
    long baseSrc = 0;
    long baseDst = 0;
    while (true) {
      for (long t0 = 0; t0 < n0; t0 += TILE) {
        long e0 = Math.min(n0, t0 + TILE);
        for (long tl = 0; tl < nLast; tl += TILE) {
          long el = Math.min(nLast, tl + TILE);
          for (long il = tl; il < el; il++) {
            long s = baseSrc + il * colStride[last];
            long d = baseDst + il * item;
            for (long i0 = t0; i0 < e0; i0++) {
              copy(src, s + i0 * item, dst, d + i0 * rowStride[0], item);
            }
          }
        }
      }
      // Advance the odometer over the middle axes 1 .. rank-2.
      int k = 1;
      for (; k < last; k++) {
        baseSrc += colStride[k];
        baseDst += rowStride[k];
        if (++middle[k] < dims[k]) {
          break;
        }
        baseSrc -= colStride[k] * dims[k];
        baseDst -= rowStride[k] * dims[k];
        middle[k] = 0;
      }
      if (k >= last) {
        return;
      }
    }
  }

  private static void copy(Chunks src, long from, Chunks dst, long to, int item) {
    ByteBuffer s = src.buffer(from);
    int sp = src.index(from);
    ByteBuffer d = dst.buffer(to);
    int dp = dst.index(to);
    switch (item) {
      case 1 -> d.put(dp, s.get(sp));
      case 2 -> d.putShort(dp, s.getShort(sp));
      case 4 -> d.putInt(dp, s.getInt(sp));
      case 8 -> d.putLong(dp, s.getLong(sp));
      default -> {
        d.putLong(dp, s.getLong(sp));
        d.putLong(dp + 8, s.getLong(sp + 8));
      }
    }
  }

  /** Storage buffers addressed by a long byte offset; all but the last span 2^shift bytes. */
  private static final class Chunks {
    private final ByteBuffer[] buffers;
    private final int shift;
    private final long mask;

    Chunks(List<ByteBuffer> list) {
      buffers = list.toArray(ByteBuffer[]::new);
      shift = buffers.length <= 1 ? 62 : Integer.numberOfTrailingZeros(buffers[0].capacity());
      mask = (1L << shift) - 1;
    }

    ByteBuffer buffer(long off) {
      return buffers[(int) (off >>> shift)];
    }

    int index(long off) {
      return (int) (off & mask);
    }
  }

  /** Places column-major {@code values} into {@code dst} in row-major order. */
  static void fortranToC(String[] values, Shape shape, TensorBuilder dst) {
    int rank = shape.rank();
    long[] dims = shape.dims();
    long[] stride = rowMajorByteStrides(dims, 1);
    long[] index = new long[rank];
    long off = 0;
    for (String v : values) {
      dst.setString(off, v);
      for (int k = 0; k < rank; k++) {
        off += stride[k];
        if (++index[k] < dims[k]) {
          break;
        }
        off -= stride[k] * dims[k];
        index[k] = 0;
      }
    }
  }

  private static long[] rowMajorByteStrides(long[] dims, int item) {
    long[] stride = new long[dims.length];
    long s = item;
    for (int k = dims.length - 1; k >= 0; k--) {
      stride[k] = s;
      s *= dims[k];
    }
    return stride;
  }
}
