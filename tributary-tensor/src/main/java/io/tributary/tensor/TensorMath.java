package io.tributary.tensor;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Element-wise arithmetic on tensors of one dtype and shape, and weighted accumulation of tensors
 * into a {@code double[]}: the one implementation that the runtime's aggregation, the Flower
 * server and the Flower training client share.
 *
 * <p><b>Numerics.</b> Real floating values (float16, bfloat16, float32, float64) are computed in
 * double precision and rounded once to the dtype; for float32 and float64 this gives exactly the
 * result of the operation in the dtype itself (for float32, because a double holds more than
 * twice a float's precision, rounding the double result to float is the correctly rounded
 * float result). Complex values are computed component-wise in double precision (products by
 * the textbook formula, quotients by Smith's algorithm). Integers are computed in 64-bit two's
 * complement and truncated to the dtype's width, which is arithmetic modulo 2<sup>bits</sup> for
 * signed and unsigned dtypes alike. Bool and string tensors have no arithmetic.
 *
 * <p>Data is read and written in bulk through the tensors' little-endian storage, never through
 * a per-element accessor in a hot loop. Results are new tensors; inputs are never modified. The
 * element count of a tensor these methods work on is bounded by {@link #MAX_ELEMENTS} (per
 * component for complex dtypes), since the work arrays are Java arrays.
 */
public final class TensorMath {
  /** The most elements (array entries) a work array, and so an operand, may hold. */
  public static final long MAX_ELEMENTS = Integer.MAX_VALUE - 16;
  /** Elements moved per bulk copy: small enough to stay in the first-level cache. */
  static final int BLOCK = 4096;

  private TensorMath() {}

  /**
   * {@code a + b}, element by element.
   *
   * @throws IllegalArgumentException if the dtypes or shapes differ, or the dtype is not numeric
   */
  public static Tensor add(Tensor a, Tensor b) {
    return combine(a, b, '+');
  }

  /**
   * {@code a - b}, element by element.
   *
   * @throws IllegalArgumentException if the dtypes or shapes differ, or the dtype is not numeric
   */
  public static Tensor subtract(Tensor a, Tensor b) {
    return combine(a, b, '-');
  }

  /**
   * {@code a * b}, element by element (complex numbers multiplied as complex numbers).
   *
   * @throws IllegalArgumentException if the dtypes or shapes differ, or the dtype is not numeric
   */
  public static Tensor multiply(Tensor a, Tensor b) {
    return combine(a, b, '*');
  }

  /**
   * True division {@code a / b}, element by element, rounded once to {@code result}, as numpy's
   * {@code true_divide} followed by {@code astype}: integers are divided as doubles (a zero
   * divisor gives an infinity or NaN), complex numbers by Smith's algorithm; real operands of a
   * complex {@code result} have imaginary part zero.
   *
   * @throws IllegalArgumentException if the dtypes or shapes differ, the dtype is not numeric, or
   *     {@code result} is not floating or complex
   */
  public static Tensor divide(Tensor a, Tensor b, DType result) {
    check(a, b, "divide");
    if (!result.isFloating() && !result.isComplex()) {
      throw new IllegalArgumentException("a quotient is floating or complex, not " + result);
    }
    double[] u = realOrComplex(a, result.isComplex());
    double[] v = realOrComplex(b, result.isComplex());
    if (result.isComplex()) {
      for (int i = 0; i < u.length; i += 2) {
        smith(u, v, i);
      }
    } else {
      for (int i = 0; i < u.length; i++) {
        u[i] = u[i] / v[i];
      }
    }
    return fromDoubles(result, a.shape(), u);
  }

  /**
   * {@code acc[i] += w * t[i]} for every element of a real floating tensor, in element order:
   * the weighted accumulation of a weighted mean.
   *
   * @throws IllegalArgumentException if {@code t} is not real floating
   * @throws IndexOutOfBoundsException if {@code acc} has fewer elements than {@code t}
   */
  public static void addScaled(Tensor t, double w, double[] acc) {
    if (!t.dtype().isFloating()) {
      throw new IllegalArgumentException("cannot accumulate a " + t.dtype()
          + " tensor into doubles: it is not real floating");
    }
    accumulate(t, w, acc);
  }

  /**
   * {@code acc[i] += w[k] * t_k[i]} for float32 or float64 tensors of one dtype and shape, for k
   * in order within each tile of 4096 elements: the same sums, in the same order per element, as
   * {@link #addScaled(Tensor, double, double[])} for each tensor in turn, with each tile of
   * {@code acc} kept in cache across the tensors.
   *
   * @throws IllegalArgumentException if the tensors are not all float32 or all float64 of one
   *     shape, or there is not one weight per tensor
   */
  public static void addScaled(List<Tensor> tensors, double[] w, double[] acc) {
    if (tensors.isEmpty() || w.length != tensors.size()) {
      throw new IllegalArgumentException("need one weight per tensor, got " + w.length
          + " weights for " + tensors.size() + " tensors");
    }
    Tensor first = tensors.get(0);
    for (Tensor t : tensors) {
      if ((t.dtype() != DType.FLOAT32 && t.dtype() != DType.FLOAT64)
          || t.dtype() != first.dtype() || !t.shape().equals(first.shape())) {
        throw new IllegalArgumentException("tiled accumulation takes float32 or float64 tensors "
            + "of one dtype and shape, got " + t.dtype() + t.shape() + " after "
            + first.dtype() + first.shape());
      }
    }
    addScaledTiled(tensors, w, acc);
  }

  /**
   * {@code acc[j] += w[k] * t_k[from + j]} for {@code j < acc.length}, k in order: {@link
   * #addScaled(List, double[], double[])} over the slice of the tensors' elements that starts at
   * {@code from}, so that a sum too large for one array (a G1 "humongous" object) can be kept in
   * pieces. Per element it performs the same operations in the same order, so summing piece by
   * piece gives the bits of summing into one array.
   *
   * @throws IllegalArgumentException as {@link #addScaled(List, double[], double[])} does, and
   *     when the slice runs past the tensors' elements
   */
  public static void addScaled(List<Tensor> tensors, double[] w, double[] acc, long from) {
    if (tensors.isEmpty() || w.length != tensors.size()) {
      throw new IllegalArgumentException("need one weight per tensor, got " + w.length
          + " weights for " + tensors.size() + " tensors");
    }
    Tensor first = tensors.get(0);
    for (Tensor t : tensors) {
      if ((t.dtype() != DType.FLOAT32 && t.dtype() != DType.FLOAT64)
          || t.dtype() != first.dtype() || !t.shape().equals(first.shape())) {
        throw new IllegalArgumentException("tiled accumulation takes float32 or float64 tensors "
            + "of one dtype and shape, got " + t.dtype() + t.shape() + " after "
            + first.dtype() + first.shape());
      }
    }
    if (from < 0 || from + acc.length > first.size()) {
      throw new IllegalArgumentException("elements [" + from + ", " + (from + acc.length)
          + ") are not inside a tensor of " + first.size());
    }
    addScaledTiled(tensors, w, acc, from);
  }

  /**
   * A tensor's elements as doubles, for a numeric tensor that is floating or complex (complex
   * ones as interleaved real and imaginary parts).
   *
   * @throws IllegalArgumentException if the tensor has more than {@link #MAX_ELEMENTS} entries
   */
  public static double[] toDoubles(Tensor t) {
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
      accumulate(t, 1.0, out);
      return out;
    }
    for (int i = 0; i < out.length; i++) {
      out[i] = t.getAsDouble(i);
    }
    return out;
  }

  /**
   * An integer or bool tensor's elements as longs (unsigned dtypes and bool zero-extended).
   *
   * @throws IllegalArgumentException if the tensor has more than {@link #MAX_ELEMENTS} elements
   */
  public static long[] toLongs(Tensor t) {
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

  /**
   * A tensor of a floating or complex dtype from doubles (interleaved real and imaginary parts
   * for complex dtypes), each rounded once to the dtype.
   */
  public static Tensor fromDoubles(DType dtype, Shape shape, double[] values) {
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

  /**
   * A tensor of an integer or bool dtype from longs, truncated to the dtype's width (bool: any
   * non-zero value is true).
   */
  public static Tensor fromLongs(DType dtype, Shape shape, long[] values) {
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

  /**
   * The length of a work array for {@code t} with {@code perElement} entries per element.
   *
   * @throws IllegalArgumentException if that is more than {@link #MAX_ELEMENTS}
   */
  public static int arrayLength(Tensor t, int perElement) {
    long n = t.size() * perElement;
    if (t.size() > MAX_ELEMENTS / perElement) {
      throw new IllegalArgumentException(
          "a " + t.dtype() + t.shape() + " tensor has too many elements (" + t.size()
              + ") for array arithmetic; at most " + MAX_ELEMENTS / perElement);
    }
    return (int) n;
  }

  private static void check(Tensor a, Tensor b, String op) {
    if (a.dtype() != b.dtype() || !a.shape().equals(b.shape()) || !a.dtype().isNumeric()) {
      throw new IllegalArgumentException("cannot " + op + " a " + a.dtype() + a.shape()
          + " tensor and a " + b.dtype() + b.shape() + " tensor element-wise");
    }
  }

  private static Tensor combine(Tensor x, Tensor y, char op) {
    check(x, y, switch (op) {
      case '+' -> "add";
      case '-' -> "subtract";
      default -> "multiply";
    });
    DType d = x.dtype();
    if (d == DType.FLOAT32) {
      return combineFloats(x, y, op);
    }
    if (d.isInteger()) {
      long[] u = toLongs(x);
      long[] v = toLongs(y);
      for (int i = 0; i < u.length; i++) {
        u[i] = switch (op) {
          case '+' -> u[i] + v[i];
          case '-' -> u[i] - v[i];
          default -> u[i] * v[i];
        };
      }
      return fromLongs(d, x.shape(), u);
    }
    double[] u = toDoubles(x);
    double[] v = toDoubles(y);
    if (d.isComplex() && op == '*') {
      for (int i = 0; i < u.length; i += 2) {
        double re = u[i] * v[i] - u[i + 1] * v[i + 1];
        double im = u[i] * v[i + 1] + u[i + 1] * v[i];
        u[i] = re;
        u[i + 1] = im;
      }
    } else {
      for (int i = 0; i < u.length; i++) {
        u[i] = switch (op) {
          case '+' -> u[i] + v[i];
          case '-' -> u[i] - v[i];
          default -> u[i] * v[i];
        };
      }
    }
    return fromDoubles(d, x.shape(), u);
  }

  /**
   * {@link #combine} for float32, a block at a time into the result's buffers: float arithmetic
   * gives the bits of the float64 route rounded back (a sum, difference or product of two floats
   * computed in double and rounded once to float is the correctly rounded float result), and no
   * array of a whole tensor is made, so a 4 MB model's difference (a Flower client's update) takes
   * the result's 4 MB, not 20.
   */
  private static Tensor combineFloats(Tensor x, Tensor y, char op) {
    TensorBuilder out = TensorBuilder.allocate(DType.FLOAT32, x.shape());
    FloatCursor a = new FloatCursor(x);
    FloatCursor b = new FloatCursor(y);
    int block = (int) Math.min(BLOCK, x.size());
    float[] u = new float[block];
    float[] v = new float[block];
    for (ByteBuffer buf : out.writableBuffers()) {
      FloatBuffer fb = buf.order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer();
      while (fb.hasRemaining()) {
        int n = Math.min(block, fb.remaining());
        a.get(u, n);
        b.get(v, n);
        for (int j = 0; j < n; j++) {
          u[j] = switch (op) {
            case '+' -> u[j] + v[j];
            case '-' -> u[j] - v[j];
            default -> u[j] * v[j];
          };
        }
        fb.put(u, 0, n);
      }
    }
    return out.build();
  }

  /** A float32 tensor's elements read in order, across its buffers. */
  private static final class FloatCursor {
    private final List<ByteBuffer> buffers;
    private FloatBuffer current;
    private int next;

    FloatCursor(Tensor t) {
      this.buffers = buffers(t);
    }

    /** The next {@code n} elements into {@code dst[0, n)}. */
    void get(float[] dst, int n) {
      int at = 0;
      while (at < n) {
        if (current == null || !current.hasRemaining()) {
          current = buffers.get(next++).asFloatBuffer();
          continue;
        }
        int m = Math.min(n - at, current.remaining());
        current.get(dst, at, m);
        at += m;
      }
    }
  }

  private static List<ByteBuffer> buffers(Tensor t) {
    List<ByteBuffer> out = new ArrayList<>();
    for (ByteBuffer b : t.dataBuffers()) {
      out.add(b.duplicate().order(ByteOrder.LITTLE_ENDIAN));
    }
    return out;
  }

  /** {@code acc[i] += w * t[i]} for a real floating tensor, in element order. */
  private static void accumulate(Tensor t, double w, double[] acc) {
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
  private static void addScaledTiled(List<Tensor> tensors, double[] w, double[] acc) {
    if (tensors.size() == 1 && !tensors.get(0).isDeferred()) {
      accumulate(tensors.get(0), w[0], acc);
      return;
    }
    addScaledTiled(tensors, w, acc, 0);
  }

  /**
   * {@code acc[j] += w[k] * t_k[from + j]} for float32 or float64 tensors of one shape, for k in
   * order within each tile of {@link #BLOCK} elements.
   */
  private static void addScaledTiled(List<Tensor> tensors, double[] w, double[] acc, long from) {
    // A deferred difference (a client's trained - start) is read from its two arrays in place:
    // the same float subtraction, never written out. Where this sum is its last read, the start
    // is put back into the trained array in the same sweep.
    Difference[] pinned = new Difference[tensors.size()];
    boolean[] giveBack = new boolean[tensors.size()];
    boolean completed = false;
    try {
      List<List<ByteBuffer>> views = new ArrayList<>();
      int[] mode = new int[1];
      for (int k = 0; k < tensors.size(); k++) {
        Tensor t = tensors.get(k);
        pinned[k] = t.pinnedDifferenceToSum(from, acc.length, mode);
        giveBack[k] = mode[0] == Difference.GIVE_BACK;
        views.add(pinned[k] != null ? null : buffers(t));
      }
      addScaledTiled(views, pinned, giveBack, tensors.get(0).dtype() == DType.FLOAT32, w, acc,
          from);
      completed = true;
    } finally {
      for (int k = 0; k < pinned.length; k++) {
        if (pinned[k] == null) {
          continue;
        }
        if (giveBack[k]) {
          pinned[k].gaveBack(Math.toIntExact(from + acc.length), completed);
        } else {
          pinned[k].unpin();
        }
      }
    }
  }

  private static void addScaledTiled(List<List<ByteBuffer>> views, Difference[] pinned,
      boolean[] giveBack, boolean f32, double[] w, double[] acc, long from) {
    int item = f32 ? 4 : 8;
    int tile = Math.min(BLOCK, acc.length);
    float[] xf = f32 ? new float[tile] : null;
    double[] xd = f32 ? null : new double[tile];
    boolean[] sparse = new boolean[pinned.length];
    boolean anySparse = false;
    for (int k = 0; k < pinned.length; k++) {
      sparse[k] = pinned[k] != null && pinned[k].factors() != null && pinned[k].factors().sparse()
          && Double.isFinite(w[k]);
      anySparse |= sparse[k];
    }
    RankOneRun[] runs = rankOneRuns(pinned, sparse, w);
    for (int start = 0; start < acc.length; start += BLOCK) {
      int len = Math.min(BLOCK, acc.length - start);
      // A sparse step adds only its non-zero rows: the same bits where no sum is -0 or NaN.
      boolean sparseOk = anySparse && plainSums(acc, start, len);
      for (int k = 0; k < views.size(); k++) {
        double wk = w[k];
        if (runs[k] != null) {
          runs[k].add(Math.toIntExact(from + start), len, acc, start, xf);
          k += runs[k].size() - 1;
          continue;
        }
        if (pinned[k] != null) {
          int at = Math.toIntExact(from + start);
          if (sparse[k] && sparseOk) {
            pinned[k].factors().addSparse(at, len, wk, acc, start);
          } else if (pinned[k].factors() != null) {
            // The step's change, computed into the tile from the factors and the start (which
            // the batch's other updates of the same start find in cache).
            pinned[k].factors().add(at, len, wk, acc, start, xf);
          } else if (f32 && giveBack[k]) {
            addDifferenceGivingBack(pinned[k].minuendFloats(), pinned[k].subtrahendFloats(), at,
                wk, acc, start, len);
          } else if (f32) {
            addDifference(pinned[k].minuendFloats(), pinned[k].subtrahendFloats(), at, wk, acc,
                start, len);
          } else if (giveBack[k]) {
            addDifferenceGivingBack(pinned[k].minuendDoubles(), pinned[k].subtrahendDoubles(), at,
                wk, acc, start, len);
          } else {
            addDifference(pinned[k].minuendDoubles(), pinned[k].subtrahendDoubles(), at, wk, acc,
                start, len);
          }
          continue;
        }
        int done = 0;
        long at = from + start;
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
   * Whether {@code acc[at, at + len)} holds no -0 and no NaN: there adding a zero (+0 or -0)
   * leaves every element as it is, so a step's zero rows may be skipped.
   */
  static boolean plainSums(double[] acc, int at, int len) {
    if (RankOneFactors.VECTOR_PRESENT) {
      // It reads the whole of a batch's sums (8 MB for a million parameters): memory-bound on
      // vectors, where this loop spent several times longer.
      return VectorRankOne.plainSums(acc, at, len);
    }
    return plainSumsScalar(acc, at, len);
  }

  /** {@link #plainSums} one element at a time. */
  static boolean plainSumsScalar(double[] acc, int at, int len) {
    boolean plain = true;
    for (int i = at; i < at + len; i++) {
      double x = acc[i];
      // -0 is the only value equal to 0 whose bits are negative; NaN is not equal to itself.
      plain &= x == x && (x != 0 || Double.doubleToRawLongBits(x) == 0);
    }
    return plain;
  }

  /**
   * The runs of consecutive rank-one differences that {@link RankOneRun} adds in one sweep, at
   * the index of each run's first difference (null elsewhere): two or more that share a start
   * and a shape, with the Vector API kernel, none of them sparse (those add their rows alone).
   */
  private static RankOneRun[] rankOneRuns(Difference[] pinned, boolean[] sparse, double[] w) {
    RankOneRun[] runs = new RankOneRun[pinned.length];
    int k = 0;
    while (k < pinned.length) {
      RankOneFactors first = pinned[k] == null || sparse[k] ? null : pinned[k].factors();
      int end = k + 1;
      while (first != null && end < pinned.length && pinned[end] != null && !sparse[end]
          && pinned[end].factors() != null && first.runsWith(pinned[end].factors())) {
        end++;
      }
      if (end - k >= 2) {
        RankOneFactors[] f = new RankOneFactors[end - k];
        for (int c = 0; c < f.length; c++) {
          f[c] = pinned[k + c].factors();
        }
        runs[k] = new RankOneRun(f, Arrays.copyOfRange(w, k, end));
      }
      k = end;
    }
    return runs;
  }

  /**
   * {@code acc[to + j] += w * (a[at + j] - b[at + j])} for {@code j < len}: the float
   * difference, then widened, as reading the made difference gives it.
   */
  private static void addDifference(float[] a, float[] b, int at, double w, double[] acc, int to,
      int len) {
    for (int j = 0; j < len; j++) {
      float x = a[at + j] - b[at + j];
      acc[to + j] += w * x;
    }
  }

  /** As {@link #addDifference(float[], float[], int, double, double[], int, int)}, doubles. */
  private static void addDifference(double[] a, double[] b, int at, double w, double[] acc,
      int to, int len) {
    for (int j = 0; j < len; j++) {
      double x = a[at + j] - b[at + j];
      acc[to + j] += w * x;
    }
  }

  /**
   * As {@link #addDifference(float[], float[], int, double, double[], int, int)}, and
   * {@code a[at + j] = b[at + j]} once read: the sum that is a difference's last read gives the
   * trained array its start back in the sweep that reads both.
   */
  private static void addDifferenceGivingBack(float[] a, float[] b, int at, double w,
      double[] acc, int to, int len) {
    for (int j = 0; j < len; j++) {
      float s = b[at + j];
      float x = a[at + j] - s;
      a[at + j] = s;
      acc[to + j] += w * x;
    }
  }

  /** As {@link #addDifferenceGivingBack(float[], float[], int, double, double[], int, int)}. */
  private static void addDifferenceGivingBack(double[] a, double[] b, int at, double w,
      double[] acc, int to, int len) {
    for (int j = 0; j < len; j++) {
      double s = b[at + j];
      double x = a[at + j] - s;
      a[at + j] = s;
      acc[to + j] += w * x;
    }
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
}
