package io.tributary.graph.ops;

import io.tributary.tensor.DType;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;

/**
 * A dense, mutable, int-indexed array that kernels compute on: float32 data in a {@code float[]},
 * float64 in a {@code double[]}, int32 and int64 in a {@code long[]}.
 *
 * <p>Tensors are converted at the edges ({@link #fromTensor}, {@link #toTensor}) so hot loops run
 * on primitive arrays. Kernels never mutate their inputs; optimizers update parameters in place.
 */
public final class NdArray {
  private final DType dtype;
  private final int[] shape;
  private final int size;
  private final float[] f;
  private final double[] d;
  private final long[] l;
  /** Whether kernels may read every element as finite ({@link #assumingFinite}). */
  private final boolean finite;

  private NdArray(DType dtype, int[] shape, float[] f, double[] d, long[] l) {
    this(dtype, shape, f, d, l, false);
  }

  private NdArray(DType dtype, int[] shape, float[] f, double[] d, long[] l, boolean finite) {
    this.dtype = dtype;
    this.shape = shape;
    this.size = sizeOf(shape);
    this.f = f;
    this.d = d;
    this.l = l;
    this.finite = finite;
  }

  /** The element count of {@code shape}, checked to fit an int (arrays are int-indexed). */
  public static int sizeOf(int[] shape) {
    long n = 1;
    for (int i = 0; i < shape.length; i++) {
      if (shape[i] < 0) {
        throw new IllegalArgumentException("negative dimension in " + Arrays.toString(shape));
      }
      n *= shape[i];
      if (n > Integer.MAX_VALUE - 8) {
        throw new IllegalArgumentException(
            "shape " + Arrays.toString(shape) + " has more elements than an array can hold");
      }
    }
    return (int) n;
  }

  /** True for the dtypes kernels support. */
  public static boolean supports(DType dtype) {
    return dtype == DType.FLOAT32 || dtype == DType.FLOAT64 || dtype == DType.INT32
        || dtype == DType.INT64;
  }

  /** A zero-filled array. */
  public static NdArray zeros(DType dtype, int... shape) {
    int[] s = shape.clone();
    int n = sizeOf(s);
    return switch (dtype) {
      case FLOAT32 -> new NdArray(dtype, s, new float[n], null, null);
      case FLOAT64 -> new NdArray(dtype, s, null, new double[n], null);
      case INT32, INT64 -> new NdArray(dtype, s, null, null, new long[n]);
      default -> throw new IllegalArgumentException("kernels do not support dtype " + dtype);
    };
  }

  /**
   * {@code candidate} when it already has this dtype and shape, else a new zero-filled array: how
   * a kernel takes the buffer it returned on an earlier run. A reused buffer keeps its old
   * contents, so the kernel must write every element.
   */
  static NdArray reuseOrZeros(NdArray candidate, DType dtype, int[] shape) {
    if (candidate != null && candidate.dtype == dtype && Arrays.equals(candidate.shape, shape)) {
      return candidate;
    }
    return zeros(dtype, shape);
  }

  /** The buffer offered for output {@code index}, or null when none was offered. */
  static NdArray previous(NdArray[] previous, int index) {
    return previous == null || index >= previous.length ? null : previous[index];
  }

  /** True when both arrays read and write the same backing storage (a reshape shares it). */
  public boolean sharesStorage(NdArray other) {
    return (f != null && f == other.f) || (d != null && d == other.d)
        || (l != null && l == other.l);
  }

  /** Wraps float32 data without copying. */
  public static NdArray wrapFloats(int[] shape, float[] data) {
    int[] s = shape.clone();
    checkLength(s, data.length);
    return new NdArray(DType.FLOAT32, s, data, null, null);
  }

  /** Wraps float64 data without copying. */
  public static NdArray wrapDoubles(int[] shape, double[] data) {
    int[] s = shape.clone();
    checkLength(s, data.length);
    return new NdArray(DType.FLOAT64, s, null, data, null);
  }

  /** Wraps integer data (int32 or int64) without copying. */
  public static NdArray wrapLongs(DType dtype, int[] shape, long[] data) {
    if (dtype != DType.INT32 && dtype != DType.INT64) {
      throw new IllegalArgumentException("integer arrays are int32 or int64, not " + dtype);
    }
    int[] s = shape.clone();
    checkLength(s, data.length);
    return new NdArray(dtype, s, null, null, data);
  }

  /** An array of {@code dtype} holding {@code values} (float32 rounds them); takes ownership. */
  public static NdArray fromDoubles(DType dtype, int[] shape, double[] values) {
    int[] s = shape.clone();
    checkLength(s, values.length);
    return switch (dtype) {
      case FLOAT64 -> new NdArray(dtype, s, null, values, null);
      case FLOAT32 -> {
        float[] out = new float[values.length];
        for (int i = 0; i < out.length; i++) {
          out[i] = (float) values[i];
        }
        yield new NdArray(dtype, s, out, null, null);
      }
      case INT32, INT64 -> {
        long[] out = new long[values.length];
        for (int i = 0; i < out.length; i++) {
          out[i] = (long) values[i];
        }
        yield new NdArray(dtype, s, null, null, out);
      }
      default -> throw new IllegalArgumentException("kernels do not support dtype " + dtype);
    };
  }

  /** A scalar of the given floating dtype. */
  public static NdArray scalar(DType dtype, double value) {
    return fromDoubles(dtype, new int[0], new double[] {value});
  }

  private static void checkLength(int[] shape, int length) {
    int n = sizeOf(shape);
    if (n != length) {
      throw new IllegalArgumentException(
          "shape " + Arrays.toString(shape) + " holds " + n + " elements, got " + length);
    }
  }

  /** Copies a tensor's elements into a new array; float32/float64/int32/int64 only. */
  public static NdArray fromTensor(Tensor t) {
    DType dt = t.dtype();
    if (!supports(dt)) {
      throw new IllegalArgumentException("kernels do not support dtype " + dt);
    }
    long[] dims = t.shape().dims();
    int[] s = new int[dims.length];
    for (int i = 0; i < dims.length; i++) {
      if (dims[i] > Integer.MAX_VALUE) {
        throw new IllegalArgumentException("dimension " + dims[i] + " too large for a kernel array");
      }
      s[i] = (int) dims[i];
    }
    NdArray out = zeros(dt, s);
    Tensor c = t.isContiguous() ? t : t.contiguous();
    int at = 0;
    for (ByteBuffer chunk : c.dataBuffers()) {
      ByteBuffer b = chunk.duplicate().order(ByteOrder.LITTLE_ENDIAN);
      int n = b.remaining() / dt.itemSize();
      switch (dt) {
        case FLOAT32 -> b.asFloatBuffer().get(out.f, at, n);
        case FLOAT64 -> b.asDoubleBuffer().get(out.d, at, n);
        case INT64 -> b.asLongBuffer().get(out.l, at, n);
        default -> {
          for (int i = 0; i < n; i++) {
            out.l[at + i] = b.getInt(b.position() + 4 * i);
          }
        }
      }
      at += n;
    }
    return out;
  }

  /** A new immutable tensor holding a copy of these elements. */
  public Tensor toTensor() {
    long[] dims = new long[shape.length];
    for (int i = 0; i < dims.length; i++) {
      dims[i] = shape[i];
    }
    ByteBuffer b = ByteBuffer.allocate(size * dtype.itemSize()).order(ByteOrder.LITTLE_ENDIAN);
    switch (dtype) {
      case FLOAT32 -> b.asFloatBuffer().put(f);
      case FLOAT64 -> b.asDoubleBuffer().put(d);
      case INT64 -> b.asLongBuffer().put(l);
      default -> {
        for (int i = 0; i < size; i++) {
          b.putInt(4 * i, (int) l[i]);
        }
      }
    }
    return Tensor.wrap(dtype, Shape.of(dims), b.asReadOnlyBuffer().order(ByteOrder.LITTLE_ENDIAN));
  }

  public DType dtype() {
    return dtype;
  }

  /** A copy of the shape. */
  public int[] shape() {
    return shape.clone();
  }

  /** The shape without copying; callers must not modify it. */
  int[] shapeRef() {
    return shape;
  }

  public int rank() {
    return shape.length;
  }

  public int dim(int axis) {
    return shape[axis];
  }

  public int size() {
    return size;
  }

  public boolean isFloating() {
    return dtype == DType.FLOAT32 || dtype == DType.FLOAT64;
  }

  /** The backing float32 data (not a copy). */
  public float[] floats() {
    if (f == null) {
      throw new IllegalStateException("not a float32 array: " + dtype);
    }
    return f;
  }

  /** The backing float64 data (not a copy). */
  public double[] doubles() {
    if (d == null) {
      throw new IllegalStateException("not a float64 array: " + dtype);
    }
    return d;
  }

  /** The backing integer data (not a copy). */
  public long[] longs() {
    if (l == null) {
      throw new IllegalStateException("not an integer array: " + dtype);
    }
    return l;
  }

  /** Every element as a double: the backing array for float64 (do not modify), else a new copy. */
  public double[] asDoubles() {
    if (d != null) {
      return d;
    }
    double[] out = new double[size];
    if (f != null) {
      for (int i = 0; i < size; i++) {
        out[i] = f[i];
      }
    } else {
      for (int i = 0; i < size; i++) {
        out[i] = l[i];
      }
    }
    return out;
  }

  public double get(int i) {
    return f != null ? f[i] : d != null ? d[i] : l[i];
  }

  public void set(int i, double v) {
    if (f != null) {
      f[i] = (float) v;
    } else if (d != null) {
      d[i] = v;
    } else {
      l[i] = (long) v;
    }
  }

  /** A deep copy. */
  public NdArray copy() {
    return new NdArray(dtype, shape.clone(), f == null ? null : f.clone(),
        d == null ? null : d.clone(), l == null ? null : l.clone());
  }

  /** The same data under another shape with the same element count (shares storage). */
  public NdArray reshape(int... newShape) {
    int[] s = newShape.clone();
    checkLength(s, size);
    return new NdArray(dtype, s, f, d, l);
  }

  /**
   * This array's storage and shape, marked for kernels to read as holding only finite elements:
   * a product then skips the zero elements of its other operand, whose terms add only a zero
   * ({@link MatMulOp}), without reading them. The caller vouches for the mark: every element is
   * finite (checked once, for a model that many calls read) and nothing writes the storage while
   * a kernel reads this view as an input. A compiled run writes only its accumulations' targets,
   * after every op has read them, so the mark holds for one run of a step fed this view.
   */
  public NdArray assumingFinite() {
    return finite ? this : new NdArray(dtype, shape, f, d, l, true);
  }

  /** Whether this array was marked by {@link #assumingFinite}. */
  public boolean assumedFinite() {
    return finite;
  }

  /** Shapes as a readable list, for messages. */
  public static String describe(List<NdArray> arrays) {
    StringBuilder sb = new StringBuilder();
    for (NdArray a : arrays) {
      sb.append(sb.length() == 0 ? "" : ", ").append(a.dtype).append(Arrays.toString(a.shape));
    }
    return sb.toString();
  }

  @Override
  public String toString() {
    return "NdArray" + dtype + Arrays.toString(shape);
  }
}
