package io.tributary.tensor;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * An immutable n-dimensional array of one {@link DType}.
 *
 * <p>Fixed-width data lives in little-endian chunked storage addressed by {@code long}, so a
 * tensor may exceed 2 GiB. Element accessors take the flat row-major (C-order) index of the
 * element. {@link #reshape} and {@link #slice} return views that share storage; since no tensor
 * can be written after it is built, sharing is safe. Build tensors with the static factories or
 * with a {@link TensorBuilder}. A {@link #difference} of two lent arrays makes its storage only
 * when it is first read, and the sums and checks that can read the arrays in place never make it.
 */
public final class Tensor {
  private final DType dtype;
  private final Shape shape;
  private final ByteStore bytes; // fixed-width dtypes, unless deferred
  private final Difference deferred; // a difference's recipe, or null
  private final String[] strings; // DType.STRING
  private final long offset; // in elements
  private final long[] strides; // in elements
  private final boolean contiguous;

  Tensor(DType dtype, Shape shape, ByteStore bytes, String[] strings, long offset, long[] strides) {
    this(dtype, shape, bytes, null, strings, offset, strides);
  }

  private Tensor(DType dtype, Shape shape, ByteStore bytes, Difference deferred, String[] strings,
      long offset, long[] strides) {
    this.dtype = dtype;
    this.shape = shape;
    this.bytes = bytes;
    this.deferred = deferred;
    this.strings = strings;
    this.offset = offset;
    this.strides = strides;
    this.contiguous = isContiguous(shape, strides);
  }

  private static boolean isContiguous(Shape shape, long[] strides) {
    long expected = 1;
    for (int i = shape.rank() - 1; i >= 0; i--) {
      long d = shape.dim(i);
      if (d == 0) {
        return true;
      }
      if (d != 1 && strides[i] != expected) {
        return false;
      }
      expected *= d;
    }
    return true;
  }

  /** The storage: made now for a {@link #difference} that is still deferred. */
  private ByteStore store() {
    return deferred == null ? bytes : deferred.store();
  }

  // ---------------------------------------------------------------- factories

  /** A float32 tensor holding a copy of {@code values}. */
  public static Tensor ofFloats(Shape shape, float... values) {
    TensorBuilder b = TensorBuilder.allocate(DType.FLOAT32, shape);
    checkCount(shape, values.length);
    for (int i = 0; i < values.length; i++) {
      b.setFloat(i, values[i]);
    }
    return b.build();
  }

  /** A float64 tensor holding a copy of {@code values}. */
  public static Tensor ofDoubles(Shape shape, double... values) {
    TensorBuilder b = TensorBuilder.allocate(DType.FLOAT64, shape);
    checkCount(shape, values.length);
    for (int i = 0; i < values.length; i++) {
      b.setDouble(i, values[i]);
    }
    return b.build();
  }

  /** An int32 tensor holding a copy of {@code values}. */
  public static Tensor ofInts(Shape shape, int... values) {
    TensorBuilder b = TensorBuilder.allocate(DType.INT32, shape);
    checkCount(shape, values.length);
    for (int i = 0; i < values.length; i++) {
      b.setInt(i, values[i]);
    }
    return b.build();
  }

  /** An int64 tensor holding a copy of {@code values}. */
  public static Tensor ofLongs(Shape shape, long... values) {
    TensorBuilder b = TensorBuilder.allocate(DType.INT64, shape);
    checkCount(shape, values.length);
    for (int i = 0; i < values.length; i++) {
      b.setLong(i, values[i]);
    }
    return b.build();
  }

  /** A bool tensor holding a copy of {@code values}. */
  public static Tensor ofBooleans(Shape shape, boolean... values) {
    TensorBuilder b = TensorBuilder.allocate(DType.BOOL, shape);
    checkCount(shape, values.length);
    for (int i = 0; i < values.length; i++) {
      b.setBoolean(i, values[i]);
    }
    return b.build();
  }

  /** A string tensor holding {@code values}. */
  public static Tensor ofStrings(Shape shape, String... values) {
    TensorBuilder b = TensorBuilder.allocate(DType.STRING, shape);
    checkCount(shape, values.length);
    for (int i = 0; i < values.length; i++) {
      b.setString(i, values[i]);
    }
    return b.build();
  }

  /** A 0-d float32 tensor. */
  public static Tensor scalar(float value) {
    return ofFloats(Shape.scalar(), value);
  }

  /** A 0-d float64 tensor. */
  public static Tensor scalar(double value) {
    return ofDoubles(Shape.scalar(), value);
  }

  /**
   * A fixed-width tensor whose elements are the little-endian bytes {@code data}, copied.
   *
   * @throws IllegalArgumentException if the length is not the shape's element count times the
   *     item size
   */
  public static Tensor fromLittleEndian(DType dtype, Shape shape, byte[] data) {
    TensorBuilder b = TensorBuilder.allocate(dtype, shape);
    if (b.byteSize() != data.length) {
      throw new IllegalArgumentException(
          dtype + shape.toString() + " needs " + b.byteSize() + " bytes, got " + data.length);
    }
    b.putBytes(0, data, 0, data.length);
    return b.build();
  }

  /**
   * A fixed-width tensor that views the remaining bytes of {@code data} (little-endian, row-major)
   * without copying: this is how decoders hand out received buffers as tensors.
   *
   * <p>The tensor is immutable only if the bytes are: pass a read-only buffer, or one nobody
   * writes to again. The buffer's position and limit are not changed.
   *
   * @throws IllegalArgumentException if the byte count does not match the dtype and shape
   */
  public static Tensor wrap(DType dtype, Shape shape, ByteBuffer data) {
    if (!dtype.isFixedWidth()) {
      throw new IllegalArgumentException("cannot wrap bytes as a " + dtype + " tensor");
    }
    long need = Math.multiplyExact(shape.size(), (long) dtype.itemSize());
    if (need != data.remaining()) {
      throw new IllegalArgumentException(
          dtype + shape.toString() + " needs " + need + " bytes, got " + data.remaining());
    }
    return new Tensor(dtype, shape, ByteStore.wrap(data), null, 0, shape.contiguousStrides());
  }

  /**
   * Like {@link #wrap(DType, Shape, ByteBuffer)} for data spread over several buffers, such as the
   * memory-mapped pieces of a file region over 2 GiB: the remaining bytes of {@code data}, in
   * order, without copying. Every buffer but the last must hold the same power-of-two number of
   * bytes (at least 16), and the last no more.
   *
   * @throws IllegalArgumentException if the byte count does not match or the pieces are uneven
   */
  public static Tensor wrap(DType dtype, Shape shape, List<ByteBuffer> data) {
    if (!dtype.isFixedWidth()) {
      throw new IllegalArgumentException("cannot wrap bytes as a " + dtype + " tensor");
    }
    long need = Math.multiplyExact(shape.size(), (long) dtype.itemSize());
    long have = 0;
    for (ByteBuffer b : data) {
      have += b.remaining();
    }
    if (need != have) {
      throw new IllegalArgumentException(dtype + shape.toString() + " needs " + need + " bytes, got " + have);
    }
    if (need == 0) {
      return zeros(dtype, shape);
    }
    return new Tensor(dtype, shape, ByteStore.wrapChunks(data), null, 0, shape.contiguousStrides());
  }

  /**
   * Told when a tensor of {@link #difference} gives back the arrays it was lent: from then on the
   * lender may write them again.
   */
  @FunctionalInterface
  public interface Loan {
    /**
     * The arrays are the lender's again.
     *
     * @param restored whether the minuend holds the subtrahend's elements again (the copy that
     *     made the tensor's elements put them back in the same sweep); false when it holds what
     *     it held when lent
     */
    void returned(boolean restored);
  }

  /**
   * A float32 tensor of {@code minuend[i] - subtrahend[i]} (the first {@code shape.size()}
   * elements, row-major), made from the two arrays only when something reads this tensor's
   * elements, so that a client's update {@code trained - start} that is only added into a sum
   * is never written out ({@link TensorMath#addScaled(List, double[], double[], long)} and
   * {@link Finite} read the two arrays instead). The arrays are lent: the caller must not write
   * either of them until {@code loan} is told they are returned, which happens once, when the
   * elements are made (the sweep that makes them also puts the subtrahend's elements back into
   * the minuend, unless a reader holds the arrays then), when the tensor is {@link #discard}ed,
   * or when a sum that is its {@link #markLastRead last read} has read every element (putting
   * the subtrahend's elements back into the minuend as it went).
   * Each element is the float subtraction {@code minuend[i] - subtrahend[i]}, however and
   * whenever it is read, so the tensor is as immutable as any other.
   *
   * @throws IllegalArgumentException when an array holds fewer elements than the shape
   */
  public static Tensor difference(Shape shape, float[] minuend, float[] subtrahend, Loan loan) {
    return difference(shape, minuend, subtrahend, false, loan);
  }

  /**
   * As {@link #difference(Shape, float[], float[], Loan)}, where the caller has checked that
   * every element of {@code subtrahend} it lends is finite and below 2^127 in magnitude
   * ({@link Finite#withinHalfRange(float[], int)}, once for a subtrahend lent to many
   * differences, such as the model every client update starts from): a finiteness check of the
   * difference then reads only the minuend wherever it is within that range too. Saying so of a
   * subtrahend that is not makes such a check miss differences that overflow.
   */
  public static Tensor difference(Shape shape, float[] minuend, float[] subtrahend,
      boolean subtrahendWithinHalfRange, Loan loan) {
    int n = checkedDifferenceSize(shape, minuend.length, subtrahend.length);
    Objects.requireNonNull(loan, "loan");
    if (n == 0) {
      loan.returned(true);
      return zeros(DType.FLOAT32, shape);
    }
    return new Tensor(DType.FLOAT32, shape, null, new Difference(minuend, subtrahend, n,
        subtrahendWithinHalfRange, loan), null, 0, shape.contiguousStrides());
  }

  /** As {@link #difference(Shape, float[], float[], Loan)}, for a float64 tensor. */
  public static Tensor difference(Shape shape, double[] minuend, double[] subtrahend, Loan loan) {
    return difference(shape, minuend, subtrahend, false, loan);
  }

  /**
   * As {@link #difference(Shape, float[], float[], boolean, Loan)}, for a float64 tensor (the
   * range: below 2^1023, {@link Finite#withinHalfRange(double[], int)}).
   */
  public static Tensor difference(Shape shape, double[] minuend, double[] subtrahend,
      boolean subtrahendWithinHalfRange, Loan loan) {
    int n = checkedDifferenceSize(shape, minuend.length, subtrahend.length);
    Objects.requireNonNull(loan, "loan");
    if (n == 0) {
      loan.returned(true);
      return zeros(DType.FLOAT64, shape);
    }
    return new Tensor(DType.FLOAT64, shape, null, new Difference(minuend, subtrahend, n,
        subtrahendWithinHalfRange, loan), null, 0, shape.contiguousStrides());
  }

  /**
   * A float32 tensor of shape {@code [u.length, v.length]} holding what one rank-one step would
   * change: element (i, j) is {@code fma(fma(u[i], v[j], 0), alpha, s) - s} with {@code s =
   * start[i * v.length + j]}, the step a fused product-accumulate {@code start += alpha u v^T}
   * writes (a training step's weight update over a batch of one example), minus the start. Its
   * elements are computed where they are read: a sum ({@link TensorMath#addScaled(List, double[],
   * double[], long)}) reads the start once and no trained array exists, and {@link Finite} checks
   * the factors instead of the elements where their magnitudes bound every element ({@code
   * |u| |v| |alpha| < 2^126} with the start within half the range). The arrays are kept, not
   * copied: the caller must not write any of them while the tensor may be read. {@code
   * startWithinHalfRange}: as {@link #difference(Shape, float[], float[], boolean, Loan)} says
   * of its subtrahend.
   *
   * @throws IllegalArgumentException when {@code start} holds fewer than {@code u.length *
   *     v.length} elements or that product overflows an int
   */
  public static Tensor rankOneStep(float[] start, float[] u, float[] v, float alpha,
      boolean startWithinHalfRange) {
    long n = (long) u.length * v.length;
    if (n > Integer.MAX_VALUE || n > start.length) {
      throw new IllegalArgumentException("a rank-one step of " + u.length + " x " + v.length
          + " needs that many start elements, got " + start.length);
    }
    Shape shape = Shape.of(u.length, v.length);
    if (n == 0) {
      return zeros(DType.FLOAT32, shape);
    }
    return new Tensor(DType.FLOAT32, shape, null,
        new Difference(new RankOneFactors(start, u, v, alpha, RankOneFactors.VECTOR_PRESENT,
            startWithinHalfRange), startWithinHalfRange), null, 0,
        shape.contiguousStrides());
  }

  private static int checkedDifferenceSize(Shape shape, int minuend, int subtrahend) {
    long n = shape.size();
    if (n > minuend || n > subtrahend) {
      throw new IllegalArgumentException("a difference of shape " + shape + " needs " + n
          + " elements in each array, got " + minuend + " and " + subtrahend);
    }
    return (int) n;
  }

  /**
   * Whether this tensor's elements are yet to be made: a {@link #difference} whose arrays are
   * still lent. Reading the elements makes them.
   */
  public boolean isDeferred() {
    return deferred != null && deferred.pending();
  }

  /**
   * Makes a {@link #difference}'s elements now if they are not yet, which gives its arrays back
   * (no effect on any other tensor, nor on a made or discarded one).
   */
  public void materialize() {
    if (deferred != null) {
      deferred.settle();
    }
  }

  /**
   * Says that nothing will read this tensor's elements again: a {@link #difference} not yet
   * made gives its arrays back unread, and reading it (or a view of it) afterwards throws
   * {@link IllegalStateException}. No effect on any other tensor, nor on a made one.
   */
  public void discard() {
    if (deferred != null) {
      deferred.discard();
    }
  }

  /**
   * Says that the next sum over this tensor's elements ({@link TensorMath#addScaled(List,
   * double[], double[], long)}, slice after slice from element 0) is the last read of them by
   * the one reader that says so. When this is said once in all of a {@link #difference} not yet
   * made (of it or of its views), that sum puts the subtrahend's elements back into the minuend
   * in the same sweep that reads them, and the arrays are returned (restored) once every element
   * is read, without a sweep of their own; reading the elements after that sum began throws
   * {@link IllegalStateException}. Each reader to come says so once: said twice, a reader other
   * than the sum is still to come, and the arrays are returned as without it. No effect on any
   * other tensor, nor on a made or discarded one.
   */
  public void markLastRead() {
    if (deferred != null) {
      deferred.markLastRead();
    }
  }

  /**
   * As {@link #pinnedDifference}, for a sum over elements {@code [from, from + len)}: the
   * recipe, or null when the storage is to be read; {@code mode[0]} says whether the sum is to
   * give the elements back ({@link Difference#pinToSum}). The caller ends the pin with {@link
   * Difference#gaveBack} or {@link Difference#unpin}, as the mode says.
   */
  Difference pinnedDifferenceToSum(long from, int len, int[] mode) {
    mode[0] = Difference.UNPINNED;
    if (deferred == null || offset != 0 || !contiguous) {
      return null;
    }
    mode[0] = deferred.pinToSum(Math.toIntExact(from), len);
    return mode[0] == Difference.UNPINNED ? null : deferred;
  }

  /**
   * A deferred difference's recipe with its arrays held for the caller to read in place, or
   * null (then read the storage): only for a whole tensor (not a view) whose elements are not
   * made. The caller must {@link Difference#unpin} it once done.
   */
  Difference pinnedDifference() {
    if (deferred == null || offset != 0 || !contiguous || !deferred.pin()) {
      return null;
    }
    return deferred;
  }

  /** A tensor of zeros (empty strings for {@link DType#STRING}). */
  public static Tensor zeros(DType dtype, Shape shape) {
    return TensorBuilder.allocate(dtype, shape).build();
  }

  private static void checkCount(Shape shape, int count) {
    if (shape.size() != count) {
      throw new IllegalArgumentException(
          "shape " + shape + " holds " + shape.size() + " elements, got " + count + " values");
    }
  }

  // ---------------------------------------------------------------- structure

  public DType dtype() {
    return dtype;
  }

  public Shape shape() {
    return shape;
  }

  public int rank() {
    return shape.rank();
  }

  /** Number of elements. */
  public long size() {
    return shape.size();
  }

  /** Bytes of element data: size times item size; 0 for string tensors. */
  public long byteSize() {
    return shape.size() * dtype.itemSize();
  }

  /** True when the elements are laid out row-major without gaps. */
  public boolean isContiguous() {
    return contiguous;
  }

  /**
   * The same elements in a new shape with the same count, sharing storage when this tensor is
   * contiguous and copying once otherwise. One dimension may be -1 and is inferred.
   */
  public Tensor reshape(long... dims) {
    long[] d = dims.clone();
    int infer = -1;
    long known = 1;
    for (int i = 0; i < d.length; i++) {
      if (d[i] == -1) {
        if (infer >= 0) {
          throw new IllegalArgumentException("reshape: more than one -1 in " + Arrays.toString(dims));
        }
        infer = i;
      } else if (d[i] < 0) {
        throw new IllegalArgumentException("reshape: negative dimension in " + Arrays.toString(dims));
      } else {
        known = Math.multiplyExact(known, d[i]);
      }
    }
    if (infer >= 0) {
      if (known == 0 || size() % known != 0) {
        throw new IllegalArgumentException(
            "reshape: cannot infer -1 in " + Arrays.toString(dims) + " for " + size() + " elements");
      }
      d[infer] = size() / known;
    }
    Shape target = Shape.of(d);
    if (target.size() != size()) {
      throw new IllegalArgumentException(
          "reshape: " + shape + " has " + size() + " elements, " + target + " has " + target.size());
    }
    Tensor base = contiguous ? this : contiguous();
    return new Tensor(dtype, target, base.bytes, base.deferred, base.strings, base.offset,
        target.contiguousStrides());
  }

  /** A view of elements {@code [start, end)} along {@code axis}; shares storage. */
  public Tensor slice(int axis, long start, long end) {
    if (axis < 0 || axis >= rank()) {
      throw new IndexOutOfBoundsException("axis " + axis + " out of range for rank " + rank());
    }
    long dim = shape.dim(axis);
    if (start < 0 || end < start || end > dim) {
      throw new IndexOutOfBoundsException(
          "slice [" + start + ", " + end + ") out of range for axis " + axis + " of size " + dim);
    }
    long[] dims = shape.dims();
    dims[axis] = end - start;
    long newOffset = end > start ? offset + start * strides[axis] : offset;
    return new Tensor(dtype, Shape.of(dims), bytes, deferred, strings, newOffset, strides);
  }

  /** This tensor if contiguous, else a compact row-major copy. */
  public Tensor contiguous() {
    if (contiguous) {
      return this;
    }
    TensorBuilder b = TensorBuilder.allocate(dtype, shape);
    long n = size();
    if (dtype == DType.STRING) {
      for (long i = 0; i < n; i++) {
        b.setString(i, getString(i));
      }
    } else {
      int item = dtype.itemSize();
      byte[] tmp = new byte[item];
      for (long i = 0; i < n; i++) {
        store().get(elementOffset(i) * item, tmp, 0, item);
        b.putBytes(i * item, tmp, 0, item);
      }
    }
    return b.build();
  }

  /** Storage offset, in elements, of the element at flat row-major index {@code i}. */
  private long elementOffset(long i) {
    if (i < 0 || i >= shape.size()) {
      throw new IndexOutOfBoundsException("index " + i + " out of range for " + size() + " elements");
    }
    if (contiguous) {
      return offset + i;
    }
    long off = offset;
    for (int axis = shape.rank() - 1; axis >= 0; axis--) {
      long d = shape.dim(axis);
      off += (i % d) * strides[axis];
      i /= d;
    }
    return off;
  }

  /** Byte offset of element {@code i}, after checking the accessor fits this dtype. */
  private long byteOffset(long i, boolean dtypeFits, String accessorNeeds) {
    if (!dtypeFits) {
      // A constant message argument: no allocation on the hot path of every accessor.
      throw new IllegalStateException("tensor is " + dtype + ", accessor needs " + accessorNeeds);
    }
    return elementOffset(i) * dtype.itemSize();
  }


  // ---------------------------------------------------------------- element access

  public boolean getBoolean(long i) {
    return store().getByte(byteOffset(i, dtype == DType.BOOL, "[bool]")) != 0;
  }

  /** An int8 or uint8 element's raw byte. */
  public byte getByte(long i) {
    return store().getByte(byteOffset(i, dtype == DType.INT8 || dtype == DType.UINT8, "[int8, uint8]"));
  }

  /** An int16, uint16, float16 or bfloat16 element's raw 16 bits. */
  public short getShort(long i) {
    return store().getShort(byteOffset(i, dtype.itemSize() == 2, "[int16, uint16, float16, bfloat16]"));
  }

  /** An int32 or uint32 element's raw 32 bits. */
  public int getInt(long i) {
    return store().getInt(byteOffset(i, dtype == DType.INT32 || dtype == DType.UINT32, "[int32, uint32]"));
  }

  /** An int64 or uint64 element's raw 64 bits. */
  public long getLong(long i) {
    return store().getLong(byteOffset(i, dtype == DType.INT64 || dtype == DType.UINT64, "[int64, uint64]"));
  }

  /** A float32, float16 or bfloat16 element, widened to float. */
  public float getFloat(long i) {
    long off = byteOffset(i, dtype == DType.FLOAT32 || dtype == DType.FLOAT16 || dtype == DType.BFLOAT16,
        "[float32, float16, bfloat16]");
    return switch (dtype) {
      case FLOAT16 -> Float.float16ToFloat(store().getShort(off));
      case BFLOAT16 -> Float.intBitsToFloat((store().getShort(off) & 0xFFFF) << 16);
      default -> store().getFloat(off);
    };
  }

  public double getDouble(long i) {
    return store().getDouble(byteOffset(i, dtype == DType.FLOAT64, "[float64]"));
  }

  /** The real part of a complex64 or complex128 element. */
  public double getReal(long i) {
    long off = byteOffset(i, dtype.isComplex(), "[complex64, complex128]");
    return dtype == DType.COMPLEX64 ? store().getFloat(off) : store().getDouble(off);
  }

  /** The imaginary part of a complex64 or complex128 element. */
  public double getImag(long i) {
    long off = byteOffset(i, dtype.isComplex(), "[complex64, complex128]");
    return dtype == DType.COMPLEX64 ? store().getFloat(off + 4) : store().getDouble(off + 8);
  }

  public String getString(long i) {
    if (dtype != DType.STRING) {
      throw new IllegalStateException("tensor is " + dtype + ", accessor needs string");
    }
    return strings[(int) elementOffset(i)];
  }

  /**
   * Any real element as a double: bools as 0 or 1, unsigned integers by their unsigned value.
   *
   * @throws IllegalStateException for complex and string tensors
   */
  public double getAsDouble(long i) {
    return switch (dtype) {
      case BOOL -> getBoolean(i) ? 1 : 0;
      case INT8 -> getByte(i);
      case UINT8 -> getByte(i) & 0xFF;
      case INT16 -> getShort(i);
      case UINT16 -> getShort(i) & 0xFFFF;
      case INT32 -> getInt(i);
      case UINT32 -> getInt(i) & 0xFFFF_FFFFL;
      case INT64 -> getLong(i);
      case UINT64 -> unsignedToDouble(getLong(i));
      case FLOAT16, BFLOAT16, FLOAT32 -> getFloat(i);
      case FLOAT64 -> getDouble(i);
      case COMPLEX64, COMPLEX128, STRING ->
          throw new IllegalStateException("getAsDouble is for real dtypes, tensor is " + dtype);
    };
  }

  // ---------------------------------------------------------------- single elements

  /**
   * The one element of a one-element real tensor (a scalar, or any shape of size 1) as a double,
   * as {@link #getAsDouble} converts it; numpy's {@code item()}.
   *
   * @throws IllegalStateException if the tensor does not have exactly one element, or is complex
   *     or string
   */
  public double item() {
    requireOneElement("item()");
    return getAsDouble(0);
  }

  /**
   * The one element of a one-element float32, float16 or bfloat16 tensor, widened to float
   * without rounding.
   *
   * @throws IllegalStateException if the tensor does not have exactly one element, or has
   *     another dtype
   */
  public float floatItem() {
    requireOneElement("floatItem()");
    return getFloat(0);
  }

  /**
   * The one element of a one-element integer or bool tensor as a long: signed integers by value,
   * uint8, uint16 and uint32 by their unsigned value, bools as 0 or 1.
   *
   * @throws IllegalStateException if the tensor does not have exactly one element, is uint64
   *     (whose values do not all fit) or is not an integer or bool tensor
   */
  public long longItem() {
    requireOneElement("longItem()");
    return switch (dtype) {
      case BOOL -> getBoolean(0) ? 1 : 0;
      case INT8 -> getByte(0);
      case UINT8 -> getByte(0) & 0xFF;
      case INT16 -> getShort(0);
      case UINT16 -> getShort(0) & 0xFFFF;
      case INT32 -> getInt(0);
      case UINT32 -> getInt(0) & 0xFFFF_FFFFL;
      case INT64 -> getLong(0);
      default -> throw new IllegalStateException(
          "longItem() is for bool and integer dtypes other than uint64, tensor is " + dtype);
    };
  }

  /**
   * The one element of a one-element string tensor.
   *
   * @throws IllegalStateException if the tensor does not have exactly one element or is not a
   *     string tensor
   */
  public String stringItem() {
    requireOneElement("stringItem()");
    return getString(0);
  }

  private void requireOneElement(String accessor) {
    if (size() != 1) {
      throw new IllegalStateException(
          accessor + " needs a tensor of exactly one element, this one has shape " + shape);
    }
  }

  private static double unsignedToDouble(long v) {
    double d = (double) (v >>> 1) * 2.0;
    return d + (v & 1);
  }

  /** The element's raw little-endian bits, zero-extended; for equality of any fixed-width dtype. */
  long rawBits(long i, int part) {
    long off = elementOffset(i) * dtype.itemSize() + part * 8L;
    int width = Math.min(dtype.itemSize() - part * 8, 8);
    return switch (width) {
      case 1 -> store().getByte(off) & 0xFFL;
      case 2 -> store().getShort(off) & 0xFFFFL;
      case 4 -> store().getInt(off) & 0xFFFF_FFFFL;
      default -> store().getLong(off);
    };
  }

  // ---------------------------------------------------------------- bulk access

  /**
   * Read-only little-endian buffers that together hold every element's bytes in row-major order.
   * Views of this tensor's storage when it is contiguous; over a compact copy otherwise.
   *
   * @throws IllegalStateException for string tensors
   */
  public List<ByteBuffer> dataBuffers() {
    if (dtype == DType.STRING) {
      throw new IllegalStateException("string tensors have no fixed-width byte data");
    }
    if (!contiguous) {
      return contiguous().dataBuffers();
    }
    long start = offset * dtype.itemSize();
    return store().views(start, start + byteSize(), false);
  }

  /** Copies {@code len} data bytes starting at byte {@code from} of the row-major data. */
  public void copyBytes(long from, byte[] dst, int dstOff, int len) {
    Objects.checkFromIndexSize(from, len, byteSize());
    Tensor t = contiguous();
    t.store().get(t.offset * dtype.itemSize() + from, dst, dstOff, len);
  }

  /** Copies {@code len} data bytes from byte {@code from} of the row-major data into {@code dst}. */
  void copyBytes(long from, ByteStore dst, long at, long len) {
    Objects.checkFromIndexSize(from, len, byteSize());
    Tensor t = contiguous();
    dst.put(at, t.store(), t.offset * dtype.itemSize() + from, len);
  }

  /** Writes every element's bytes, little-endian and row-major, to {@code out}. */
  public void writeData(OutputStream out) throws IOException {
    if (dtype == DType.STRING) {
      throw new IllegalStateException("string tensors have no fixed-width byte data");
    }
    Tensor t = contiguous();
    long start = t.offset * dtype.itemSize();
    byte[] tmp = null;
    for (ByteBuffer b : t.store().views(start, start + byteSize(), true)) {
      if (b.hasArray()) {
        // Straight from heap storage: no intermediate copy.
        out.write(b.array(), b.arrayOffset() + b.position(), b.remaining());
        continue;
      }
      tmp = tmp == null ? new byte[1 << 16] : tmp;
      while (b.hasRemaining()) {
        int n = Math.min(tmp.length, b.remaining());
        b.get(tmp, 0, n);
        out.write(tmp, 0, n);
      }
    }
  }

  /** True when both tensors view the same storage; lets tests prove that views do not copy. */
  boolean sharesStorageWith(Tensor other) {
    return deferred != null ? deferred == other.deferred
        : bytes != null ? bytes == other.bytes : strings == other.strings;
  }

  /** The elements as a new float array (float32, float16 or bfloat16 tensors). */
  public float[] toFloatArray() {
    float[] out = new float[Math.toIntExact(size())];
    for (int i = 0; i < out.length; i++) {
      out[i] = getFloat(i);
    }
    return out;
  }

  /** Every real element as a double, as {@link #getAsDouble} converts it. */
  public double[] toDoubleArray() {
    double[] out = new double[Math.toIntExact(size())];
    for (int i = 0; i < out.length; i++) {
      out[i] = getAsDouble(i);
    }
    return out;
  }

  // ---------------------------------------------------------------- equality

  /**
   * Approximate equality for numeric tensors, as numpy's {@code allclose}: same dtype and shape,
   * and {@code |a - b| <= atol + rtol * |b|} elementwise; NaNs are equal to NaNs. Non-floating
   * tensors compare exactly.
   */
  public boolean allClose(Tensor other, double rtol, double atol) {
    return TensorEquality.allClose(this, other, rtol, atol);
  }

  /** {@link #allClose(Tensor, double, double)} with numpy's defaults 1e-5 and 1e-8. */
  public boolean allClose(Tensor other) {
    return allClose(other, 1e-5, 1e-8);
  }

  /**
   * Exact equality: same dtype, same shape and bitwise-equal elements (so NaN payloads must
   * match, and -0.0 differs from 0.0). Layout does not matter: a view equals its copy.
   */
  @Override
  public boolean equals(Object o) {
    return o instanceof Tensor other && TensorEquality.exactlyEqual(this, other);
  }

  @Override
  public int hashCode() {
    return TensorEquality.hash(this);
  }

  /** A short description such as {@code float32[2,3] [1.0, 2.0, 3.0, ...]}. */
  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder().append(dtype).append(shape).append(" [");
    long n = Math.min(size(), 6);
    for (long i = 0; i < n; i++) {
      sb.append(i == 0 ? "" : ", ").append(TensorEquality.elementText(this, i));
    }
    return sb.append(size() > n ? ", ...]" : "]").toString();
  }
}
