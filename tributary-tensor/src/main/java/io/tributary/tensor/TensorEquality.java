package io.tributary.tensor;

/** Exact and approximate comparison of tensors, kept out of {@link Tensor} to keep it small. */
final class TensorEquality {
  private static final int HASHED_ELEMENTS = 64;

  private TensorEquality() {}

  static boolean exactlyEqual(Tensor a, Tensor b) {
    if (a == b) {
      return true;
    }
    if (a.dtype() != b.dtype() || !a.shape().equals(b.shape())) {
      return false;
    }
    long n = a.size();
    if (a.dtype() == DType.STRING) {
      for (long i = 0; i < n; i++) {
        if (!a.getString(i).equals(b.getString(i))) {
          return false;
        }
      }
      return true;
    }
    if (a.byteSize() == 0) {
      return true;
    }
    if (a.isContiguous() && b.isContiguous()) {
      return buffersEqual(a, b);
    }
    int parts = (a.dtype().itemSize() + 7) / 8;
    for (long i = 0; i < n; i++) {
      for (int p = 0; p < parts; p++) {
        if (a.rawBits(i, p) != b.rawBits(i, p)) {
          return false;
        }
      }
    }
    return true;
  }

  /** Compares the bytes of two contiguous tensors of equal byte size, chunk by chunk. */
  private static boolean buffersEqual(Tensor a, Tensor b) {
    var ab = a.dataBuffers();
    var bb = b.dataBuffers();
    int ia = 0;
    int ib = 0;
    java.nio.ByteBuffer x = ab.get(0).duplicate();
    java.nio.ByteBuffer y = bb.get(0).duplicate();
    while (true) {
      int n = Math.min(x.remaining(), y.remaining());
      if (!x.slice(x.position(), n).equals(y.slice(y.position(), n))) {
        return false;
      }
      x.position(x.position() + n);
      y.position(y.position() + n);
      if (!x.hasRemaining()) {
        if (++ia == ab.size()) {
          return true;
        }
        x = ab.get(ia).duplicate();
      }
      if (!y.hasRemaining()) {
        y = bb.get(++ib).duplicate();
      }
    }
  }

  static boolean allClose(Tensor a, Tensor b, double rtol, double atol) {
    if (a.dtype() != b.dtype() || !a.shape().equals(b.shape())) {
      return false;
    }
    DType d = a.dtype();
    if (!d.isFloating() && !d.isComplex()) {
      return exactlyEqual(a, b);
    }
    long n = a.size();
    for (long i = 0; i < n; i++) {
      if (d.isComplex()) {
        double ar = a.getReal(i);
        double ai = a.getImag(i);
        double br = b.getReal(i);
        double bi = b.getImag(i);
        if (Double.isNaN(ar) || Double.isNaN(ai) || Double.isNaN(br) || Double.isNaN(bi)) {
          if ((Double.isNaN(ar) || Double.isNaN(ai)) != (Double.isNaN(br) || Double.isNaN(bi))) {
            return false;
          }
          continue;
        }
        boolean infinite = Double.isInfinite(ar) || Double.isInfinite(ai) || Double.isInfinite(br) || Double.isInfinite(bi);
        if (!close(Math.hypot(ar - br, ai - bi), Math.hypot(br, bi), ar == br && ai == bi, infinite, rtol, atol)) {
          return false;
        }
      } else {
        double x = a.getAsDouble(i);
        double y = b.getAsDouble(i);
        if (Double.isNaN(x) || Double.isNaN(y)) {
          if (Double.isNaN(x) != Double.isNaN(y)) {
            return false;
          }
          continue;
        }
        boolean infinite = Double.isInfinite(x) || Double.isInfinite(y);
        if (!close(Math.abs(x - y), Math.abs(y), x == y, infinite, rtol, atol)) {
          return false;
        }
      }
    }
    return true;
  }

  private static boolean close(
      double diff, double magnitude, boolean identical, boolean infinite, double rtol, double atol) {
    // As numpy: an infinity is close only to the same infinity, whatever the tolerance.
    return identical || (!infinite && diff <= atol + rtol * magnitude);
  }

  static int hash(Tensor t) {
    int h = 31 * t.dtype().hashCode() + t.shape().hashCode();
    long n = Math.min(t.size(), HASHED_ELEMENTS);
    for (long i = 0; i < n; i++) {
      if (t.dtype() == DType.STRING) {
        h = 31 * h + t.getString(i).hashCode();
      } else {
        h = 31 * h + Long.hashCode(t.rawBits(i, 0));
      }
    }
    return h;
  }

  static String elementText(Tensor t, long i) {
    return switch (t.dtype()) {
      case STRING -> '"' + t.getString(i) + '"';
      case BOOL -> Boolean.toString(t.getBoolean(i));
      case COMPLEX64, COMPLEX128 -> "(" + t.getReal(i) + (t.getImag(i) < 0 ? "" : "+") + t.getImag(i) + "j)";
      case UINT64 -> Long.toUnsignedString(t.getLong(i));
      case FLOAT16, BFLOAT16, FLOAT32 -> Float.toString(t.getFloat(i));
      case FLOAT64 -> Double.toString(t.getDouble(i));
      default -> Long.toString((long) t.getAsDouble(i));
    };
  }
}
