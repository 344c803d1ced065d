package io.tributary.runtime.executor;

import io.tributary.core.types.StructType;
import io.tributary.core.types.TensorType;
import io.tributary.core.types.Type;
import io.tributary.core.values.StructValue;
import io.tributary.tensor.DType;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.TensorBuilder;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Element-wise arithmetic on tensors and structs of tensors, with bulk reads and writes of the
 * tensors' little-endian storage (never a per-element accessor in a hot loop).
 *
 * <p>Floating values are computed in double precision and rounded once to the dtype; integers
 * in 64-bit two's complement and truncated to the dtype's width, which is arithmetic modulo
 * 2^bits for signed and unsigned dtypes alike.
 */
final class TensorOps {
  /** Elements moved per bulk copy: small enough to stay in the first-level cache. */
  static final int BLOCK = 4096;
  /** The most elements an accumulator array may hold. */
  static final long MAX_ELEMENTS = Integer.MAX_VALUE - 16;

  private TensorOps() {}

  /** The element count of a tensor as an array length, refusing tensors too large for one. */
  static int arrayLength(Tensor t, int perElement) {
    long n = t.size() * perElement;
    if (t.size() > MAX_ELEMENTS / perElement) {
      throw new IllegalArgumentException(
          "a " + t.dtype() + t.shape() + " tensor has too many elements (" + t.size()
              + ") for the runtime's arithmetic; at most " + MAX_ELEMENTS / perElement);
    }
    return (int) n;
  }

  private static List<ByteBuffer> buffers(Tensor t) {
    List<ByteBuffer> out = new ArrayList<>();
    for (ByteBuffer b : t.dataBuffers()) {
      out.add(b.duplicate().order(ByteOrder.LITTLE_ENDIAN));
    }
    return out;
  }

  /** {@code acc[i] += w * t[i]} for a real floating tensor, in element order. */
  static void addScaled(Tensor t, double w, double[] acc) {
    int pos = 0;
    switch (t.dtype()) {
      case FLOAT32 -> {
        // Sized to the tensor: most are a client's scalar metrics, summed every round.
        float[] tmp = new float[(int) Math.min(BLOCK, t.size())];
        for (ByteBuffer b : buffers(t)) {
          FloatBuffer fb = b.asFloatBuffer();
          while (fb.hasRemaining()) {
            int n = Math.min(BLOCK, fb.remaining());
            fb.get(tmp, 0, n);
            for (int j = 0; j < n; j++) {
              acc[pos + j] += w * tmp[j];
            }
            pos += n;
          }
        }
      }
      case FLOAT64 -> {
        double[] tmp = new double[(int) Math.min(BLOCK, t.size())];
        for (ByteBuffer b : buffers(t)) {
          DoubleBuffer db = b.asDoubleBuffer();
          while (db.hasRemaining()) {
            int n = Math.min(BLOCK, db.remaining());
            db.get(tmp, 0, n);
            for (int j = 0; j < n; j++) {
              acc[pos + j] += w * tmp[j];
            }
            pos += n;
          }
        }
      }
      default -> {
        double[] values = toDoubles(t);
        for (int j = 0; j < values.length; j++) {
          acc[j] += w * values[j];
        }
      }
    }
  }

  /**
   * {@code acc[i] += w[k] * t_k[i]} for float32 or float64 tensors of one shape, for k in order
   * within each tile of {@link #BLOCK} elements.
   */
  static void addScaledTiled(List<Tensor> tensors, double[] w, double[] acc) {
    if (tensors.size() == 1) {
      addScaled(tensors.get(0), w[0], acc);
      return;
    }
    List<List<ByteBuffer>> views = new ArrayList<>();
    for (Tensor t : tensors) {
      views.add(buffers(t));
    }
    boolean f32 = tensors.get(0).dtype() == DType.FLOAT32;
    int item = f32 ? 4 : 8;
    int tile = Math.min(BLOCK, acc.length);
    float[] xf = f32 ? new float[tile] : null;
    double[] xd = f32 ? null : new double[tile];
    for (int start = 0; start < acc.length; start += BLOCK) {
      int len = Math.min(BLOCK, acc.length - start);
      for (int k = 0; k < views.size(); k++) {
        double wk = w[k];
        int done = 0;
        long at = start;
        for (ByteBuffer b : views.get(k)) {
          int elems = b.remaining() / item;
          if (at >= elems) {
            at -= elems;
            continue;
          }
          int n = (int) Math.min(len - done, elems - at);
          if (f32) {
            b.asFloatBuffer().get((int) at, xf, done, n);
          } else {
            b.asDoubleBuffer().get((int) at, xd, done, n);
          }
          done += n;
          at = 0;
          if (done == len) {
            break;
          }
        }
        if (f32) {
          for (int j = 0; j < len; j++) {
            acc[start + j] += wk * xf[j];
          }
        } else {
          for (int j = 0; j < len; j++) {
            acc[start + j] += wk * xd[j];
          }
        }
      }
    }
  }

  /**
   * A floating or complex tensor's elements as doubles (complex ones as interleaved real and
   * imaginary parts).
   */
  static double[] toDoubles(Tensor t) {
    DType d = t.dtype();
    if (d.isComplex()) {
      double[] out = new double[arrayLength(t, 2)];
      for (int i = 0; i < out.length / 2; i++) {
        out[2 * i] = t.getReal(i);
        out[2 * i + 1] = t.getImag(i);
      }
      return out;
    }
    double[] out = new double[arrayLength(t, 1)];
    if (d == DType.FLOAT32 || d == DType.FLOAT64) {
      addScaled(t, 1.0, out);
      return out;
    }
    for (int i = 0; i < out.length; i++) {
      out[i] = t.getAsDouble(i);
    }
    return out;
  }

  /** An integer or bool tensor's elements as longs (unsigned dtypes zero-extended). */
  static long[] toLongs(Tensor t) {
    long[] out = new long[arrayLength(t, 1)];
    int item = t.dtype().itemSize();
    boolean unsigned = t.dtype().name().startsWith("UINT") || t.dtype() == DType.BOOL;
    int pos = 0;
    for (ByteBuffer b : buffers(t)) {
      int end = b.limit();
      for (int p = b.position(); p < end; p += item) {
        out[pos++] = switch (item) {
          case 1 -> unsigned ? b.get(p) & 0xFFL : b.get(p);
          case 2 -> unsigned ? b.getShort(p) & 0xFFFFL : b.getShort(p);
          case 4 -> unsigned ? b.getInt(p) & 0xFFFF_FFFFL : b.getInt(p);
          default -> b.getLong(p);
        };
      }
    }
    return out;
  }

  /** A tensor of a floating dtype from doubles (interleaved pairs for complex dtypes). */
  static Tensor fromDoubles(DType dtype, Shape shape, double[] values) {
    TensorBuilder b = TensorBuilder.allocate(dtype, shape);
    switch (dtype) {
      case FLOAT32 -> {
        float[] tmp = new float[Math.min(BLOCK, values.length)];
        int pos = 0;
        for (ByteBuffer buf : b.writableBuffers()) {
          FloatBuffer fb = buf.order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer();
          while (fb.hasRemaining()) {
            int n = Math.min(BLOCK, fb.remaining());
            for (int j = 0; j < n; j++) {
              tmp[j] = (float) values[pos + j];
            }
            fb.put(tmp, 0, n);
            pos += n;
          }
        }
      }
      case FLOAT64 -> {
        int pos = 0;
        for (ByteBuffer buf : b.writableBuffers()) {
          DoubleBuffer db = buf.order(ByteOrder.LITTLE_ENDIAN).asDoubleBuffer();
          int n = db.remaining();
          db.put(values, pos, n);
          pos += n;
        }
      }
      case COMPLEX64, COMPLEX128 -> {
        for (int i = 0; i < values.length / 2; i++) {
          b.setComplex(i, values[2 * i], values[2 * i + 1]);
        }
      }
      default -> {
        for (int i = 0; i < values.length; i++) {
          b.setFromDouble(i, values[i]);
        }
      }
    }
    return b.build();
  }

  /** A tensor of an integer or bool dtype from longs, truncated to the dtype's width. */
  static Tensor fromLongs(DType dtype, Shape shape, long[] values) {
    TensorBuilder b = TensorBuilder.allocate(dtype, shape);
    int item = dtype.itemSize();
    int pos = 0;
    for (ByteBuffer buf : b.writableBuffers()) {
      buf.order(ByteOrder.LITTLE_ENDIAN);
      int end = buf.limit();
      for (int p = buf.position(); p < end; p += item) {
        long v = values[pos++];
        switch (item) {
          case 1 -> buf.put(p, dtype == DType.BOOL ? (byte) (v != 0 ? 1 : 0) : (byte) v);
          case 2 -> buf.putShort(p, (short) v);
          case 4 -> buf.putInt(p, (int) v);
          default -> buf.putLong(p, v);
        }
      }
    }
    return b.build();
  }

  /** The zero value of a struct of numeric tensors of fully defined shape. */
  static Object zeros(Type type) {
    if (type instanceof TensorType t) {
      if (!t.isFullyDefined()) {
        throw new IllegalArgumentException("no zero value for " + t + ": its shape is not known");
      }
      long[] dims = t.dims().stream().mapToLong(Long::longValue).toArray();
      return Tensor.zeros(t.dtype(), Shape.of(dims));
    }
    if (type instanceof StructType s) {
      List<Object> values = new ArrayList<>();
      for (int i = 0; i < s.size(); i++) {
        values.add(zeros(s.get(i)));
      }
      return StructValue.of(s.elements().stream().map(StructType.Element::name).toList(), values);
    }
    throw new IllegalArgumentException("no zero value for " + type);
  }

  /** Element-wise {@code a + b} of two equally shaped structs of tensors. */
  static Object plus(Object a, Object b) {
    return combine(a, b, false, "");
  }

  /** Element-wise {@code a * b} of two equally shaped structs of tensors. */
  static Object multiply(Object a, Object b) {
    return combine(a, b, true, "");
  }

  private static Object combine(Object a, Object b, boolean times, String path) {
    if (a instanceof StructValue sa && b instanceof StructValue sb && sa.size() == sb.size()) {
      List<Object> out = new ArrayList<>();
      for (int i = 0; i < sa.size(); i++) {
        out.add(combine(sa.get(i), sb.get(i), times, path + "[" + i + "]"));
      }
      return StructValue.of(sa.names(), out);
    }
    if (!(a instanceof Tensor x && b instanceof Tensor y)) {
      throw new IllegalArgumentException("cannot combine " + describe(a) + " and " + describe(b)
          + (path.isEmpty() ? "" : " at " + path));
    }
    if (x.dtype() != y.dtype() || !x.shape().equals(y.shape()) || !x.dtype().isNumeric()) {
      throw new IllegalArgumentException("cannot combine a " + x.dtype() + x.shape()
          + " tensor with a " + y.dtype() + y.shape() + " tensor element-wise"
          + (path.isEmpty() ? "" : " at " + path));
    }
    DType d = x.dtype();
    if (d.isInteger()) {
      long[] u = toLongs(x);
      long[] v = toLongs(y);
      for (int i = 0; i < u.length; i++) {
        u[i] = times ? u[i] * v[i] : u[i] + v[i];
      }
      return fromLongs(d, x.shape(), u);
    }
    double[] u = toDoubles(x);
    double[] v = toDoubles(y);
    if (d.isComplex() && times) {
      for (int i = 0; i < u.length; i += 2) {
        double re = u[i] * v[i] - u[i + 1] * v[i + 1];
        double im = u[i] * v[i + 1] + u[i + 1] * v[i];
        u[i] = re;
        u[i + 1] = im;
      }
    } else {
      for (int i = 0; i < u.length; i++) {
        u[i] = times ? u[i] * v[i] : u[i] + v[i];
      }
    }
    return fromDoubles(d, x.shape(), u);
  }

  /**
   * Element-wise true division {@code a / b} of two equally shaped structs of numeric tensors,
   * rounded once to the dtypes of {@code result}, as numpy's {@code true_divide} followed by
   * {@code astype}: integers are divided as doubles (a zero divisor gives an infinity or NaN),
   * complex numbers by Smith's algorithm.
   */
  static Object divide(Object a, Object b, Type result) {
    return divide(a, b, result, "");
  }

  private static Object divide(Object a, Object b, Type result, String path) {
    if (a instanceof StructValue sa && b instanceof StructValue sb && sa.size() == sb.size()
        && result instanceof StructType rs && rs.size() == sa.size()) {
      List<Object> out = new ArrayList<>();
      for (int i = 0; i < sa.size(); i++) {
        out.add(divide(sa.get(i), sb.get(i), rs.get(i), path + "[" + i + "]"));
      }
      return StructValue.of(sa.names(), out);
    }
    if (!(a instanceof Tensor x && b instanceof Tensor y && result instanceof TensorType r)) {
      throw new IllegalArgumentException("cannot divide " + describe(a) + " by " + describe(b)
          + (path.isEmpty() ? "" : " at " + path));
    }
    if (x.dtype() != y.dtype() || !x.shape().equals(y.shape()) || !x.dtype().isNumeric()) {
      throw new IllegalArgumentException("cannot divide a " + x.dtype() + x.shape()
          + " tensor by a " + y.dtype() + y.shape() + " tensor element-wise"
          + (path.isEmpty() ? "" : " at " + path));
    }
    double[] u = realOrComplex(x, r.dtype().isComplex());
    double[] v = realOrComplex(y, r.dtype().isComplex());
    if (r.dtype().isComplex()) {
      for (int i = 0; i < u.length; i += 2) {
        smith(u, v, i);
      }
    } else {
      for (int i = 0; i < u.length; i++) {
        u[i] = u[i] / v[i];
      }
    }
    return fromDoubles(r.dtype(), x.shape(), u);
  }

  /** The elements as doubles, interleaved with zero imaginary parts when {@code complex}. */
  private static double[] realOrComplex(Tensor t, boolean complex) {
    if (t.dtype().isComplex()) {
      return toDoubles(t);
    }
    double[] real;
    if (t.dtype().isInteger()) {
      long[] l = toLongs(t);
      real = new double[l.length];
      boolean unsigned64 = t.dtype() == DType.UINT64;
      for (int i = 0; i < l.length; i++) {
        // A uint64 above 2^63: halve it keeping the lost bit as a sticky bit, so the one
        // rounding to double is the correct one, then double it back.
        real[i] = unsigned64 && l[i] < 0 ? (double) ((l[i] >>> 1) | (l[i] & 1)) * 2.0 : l[i];
      }
    } else {
      real = toDoubles(t);
    }
    if (!complex) {
      return real;
    }
    double[] out = new double[real.length * 2];
    for (int i = 0; i < real.length; i++) {
      out[2 * i] = real[i];
    }
    return out;
  }

  /** {@code u[i..i+1] /= v[i..i+1]} for complex numbers, avoiding needless overflow (Smith). */
  private static void smith(double[] u, double[] v, int i) {
    double a = u[i];
    double b = u[i + 1];
    double c = v[i];
    double d = v[i + 1];
    if (Math.abs(c) >= Math.abs(d)) {
      double ratio = d / c;
      double denom = c + d * ratio;
      u[i] = (a + b * ratio) / denom;
      u[i + 1] = (b - a * ratio) / denom;
    } else {
      double ratio = c / d;
      double denom = c * ratio + d;
      u[i] = (a * ratio + b) / denom;
      u[i + 1] = (b * ratio - a) / denom;
    }
  }

  private static String describe(Object v) {
    return io.tributary.runtime.ValueChecker.describe(v);
  }
}
