package io.tributary.tensor.npy;

import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
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

  /**
   * Reorders a column-major array into a row-major tensor of {@code shape}.
   *
   * @param columnMajor the file's data read row-major with the dimensions reversed, which is
   *     exactly column-major data of {@code shape}
   */
  static Tensor fortranToC(Tensor columnMajor, Shape shape) {
    int item = columnMajor.dtype().itemSize();
    int rank = shape.rank();
    long[] dims = shape.dims();
    long[] stride = rowMajorByteStrides(dims, item);
    TensorBuilder b = TensorBuilder.allocate(columnMajor.dtype(), shape);
    List<ByteBuffer> dst = b.writableBuffers();
    // All buffers but the last span one power-of-two chunk, so a shift finds an offset's buffer.
    int shift = dst.size() <= 1 ? 62 : Integer.numberOfTrailingZeros(dst.get(0).capacity());
    long mask = (1L << shift) - 1;
    long[] index = new long[rank];
    long off = 0;
    for (ByteBuffer src : columnMajor.dataBuffers()) {
      int n = src.limit();
      for (int p = 0; p < n; p += item) {
        ByteBuffer d = dst.get((int) (off >>> shift));
        int at = (int) (off & mask);
        switch (item) {
          case 1 -> d.put(at, src.get(p));
          case 2 -> d.putShort(at, src.getShort(p));
          case 4 -> d.putInt(at, src.getInt(p));
          case 8 -> d.putLong(at, src.getLong(p));
          default -> {
            d.putLong(at, src.getLong(p));
            d.putLong(at + 8, src.getLong(p + 8));
          }
        }
        // Column-major order advances axis 0 fastest: an odometer over the row-major offset.
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
    return b.build();
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
