package io.tributary.tensor;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.util.List;
import java.util.Optional;

/**
 * Finds NaN and infinite elements in tensors, the check every value from an untrusted party
 * (a client's update, a server's model) passes before it is used. Integer, bool and string
 * tensors are always finite; complex elements are finite when both parts are.
 */
public final class Finite {
  /** Elements read into an array at a time: a few KiB, so the array stays in cache. */
  private static final int CHUNK = 2048;

  private Finite() {}

  /** The row-major index of the first NaN or infinite element of {@code t}, or -1 if none. */
  public static long firstNonFinite(Tensor t) {
    DType d = t.dtype();
    if (!d.isFloating() && !d.isComplex()) {
      return -1;
    }
    if (d == DType.FLOAT32 || d == DType.FLOAT64 || d == DType.COMPLEX64
        || d == DType.COMPLEX128) {
      // Complex tensors are interleaved pairs of float32 or float64: element = pair index.
      int pairs = d.isComplex() ? 2 : 1;
      long pos = 0;
      // Read a chunk at a time into an array: a buffer's bulk get is a copy, its get(i) an
      // access through the buffer's memory session per element, several times slower.
      float[] floats = null;
      double[] doubles = null;
      for (ByteBuffer raw : t.dataBuffers()) {
        ByteBuffer b = raw.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        if (d == DType.FLOAT32 || d == DType.COMPLEX64) {
          FloatBuffer fb = b.asFloatBuffer();
          int n = fb.remaining();
          floats = floats != null ? floats : new float[CHUNK];
          for (int from = 0; from < n; from += floats.length) {
            int len = Math.min(floats.length, n - from);
            fb.get(from, floats, 0, len);
            for (int j = 0; j < len; j++) {
              if (!Float.isFinite(floats[j])) {
                return (pos + from + j) / pairs;
              }
            }
          }
          pos += n;
        } else {
          DoubleBuffer db = b.asDoubleBuffer();
          int n = db.remaining();
          doubles = doubles != null ? doubles : new double[CHUNK];
          for (int from = 0; from < n; from += doubles.length) {
            int len = Math.min(doubles.length, n - from);
            db.get(from, doubles, 0, len);
            for (int j = 0; j < len; j++) {
              if (!Double.isFinite(doubles[j])) {
                return (pos + from + j) / pairs;
              }
            }
          }
          pos += n;
        }
      }
      return -1;
    }
    for (long i = 0; i < t.size(); i++) {
      if (!Double.isFinite(t.getAsDouble(i))) {
        return i;
      }
    }
    return -1;
  }

  /** Whether every element of {@code t} is finite. */
  public static boolean isFinite(Tensor t) {
    return firstNonFinite(t) < 0;
  }

  /**
   * What is wrong with a list of tensors, such as {@code "tensor 2 (float32[3, 4]) holds NaN at
   * element 7"}, or empty when every element is finite.
   *
   * @param names the tensors' names for the message, or null to number them
   */
  public static Optional<String> problem(List<Tensor> tensors, List<String> names) {
    for (int i = 0; i < tensors.size(); i++) {
      Tensor t = tensors.get(i);
      long at = firstNonFinite(t);
      if (at >= 0) {
        String name = names == null ? "tensor " + i : "tensor '" + names.get(i) + "'";
        return Optional.of(name + " (" + t.dtype().name().toLowerCase(java.util.Locale.ROOT)
            + t.shape() + ") holds " + describe(t, at) + " at element " + at);
      }
    }
    return Optional.empty();
  }

  private static String describe(Tensor t, long i) {
    double v = t.dtype().isComplex()
        ? (Double.isFinite(t.getReal(i)) ? t.getImag(i) : t.getReal(i))
        : t.getAsDouble(i);
    return Double.isNaN(v) ? "NaN" : v > 0 ? "+Inf" : "-Inf";
  }
}
