package io.tributary.tensor;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Objects;

/**
 * The one mutable way to make a {@link Tensor}: allocate, set elements, then {@link #build()}.
 *
 * <p>After {@code build()} the builder refuses every call, so the tensor it returned can never
 * change. Element setters take the flat row-major index; {@link #writableBuffers()} and
 * {@link #readFully(InputStream)} fill the little-endian storage in bulk, which is how decoders
 * avoid per-element work.
 */
public final class TensorBuilder {
  private final DType dtype;
  private final Shape shape;
  private ByteStore bytes;
  private String[] strings;
  private boolean built;

  private TensorBuilder(DType dtype, Shape shape, int chunkShift) {
    this.dtype = Objects.requireNonNull(dtype, "dtype");
    this.shape = Objects.requireNonNull(shape, "shape");
    if (dtype == DType.STRING) {
      if (shape.size() > Integer.MAX_VALUE - 8) {
        throw new IllegalArgumentException("string tensor too large: " + shape.size() + " elements");
      }
      strings = new String[(int) shape.size()];
      java.util.Arrays.fill(strings, "");
    } else {
      long n = Math.multiplyExact(shape.size(), (long) dtype.itemSize());
      bytes = ByteStore.allocate(n, chunkShift);
    }
  }

  /** A zero-filled builder for a tensor of this dtype and shape. */
  public static TensorBuilder allocate(DType dtype, Shape shape) {
    return new TensorBuilder(dtype, shape, ByteStore.DEFAULT_CHUNK_SHIFT);
  }

  /**
   * Like {@link #allocate(DType, Shape)} with storage chunks of {@code 2^chunkShift} bytes
   * (4 to 30). Small chunks exercise the code paths of tensors larger than 2 GiB cheaply.
   */
  public static TensorBuilder allocate(DType dtype, Shape shape, int chunkShift) {
    return new TensorBuilder(dtype, shape, chunkShift);
  }

  public DType dtype() {
    return dtype;
  }

  public Shape shape() {
    return shape;
  }

  /** Bytes of element data (0 for strings). */
  public long byteSize() {
    return bytes == null ? 0 : bytes.length();
  }

  private long off(long i, int item) {
    check();
    Objects.checkIndex(i, shape.size());
    return i * item;
  }

  private void need(boolean dtypeFits, String setterNeeds) {
    if (!dtypeFits) {
      throw new IllegalStateException("builder is " + dtype + ", setter needs " + setterNeeds);
    }
  }


  private void check() {
    if (built) {
      throw new IllegalStateException("builder already built its tensor");
    }
  }

  public TensorBuilder setBoolean(long i, boolean v) {
    need(dtype == DType.BOOL, "[bool]");
    bytes.putByte(off(i, 1), (byte) (v ? 1 : 0));
    return this;
  }

  /** Sets an int8 or uint8 element's raw byte. */
  public TensorBuilder setByte(long i, byte v) {
    need(dtype == DType.INT8 || dtype == DType.UINT8, "[int8, uint8]");
    bytes.putByte(off(i, 1), v);
    return this;
  }

  /** Sets an int16, uint16, float16 or bfloat16 element's raw 16 bits. */
  public TensorBuilder setShort(long i, short v) {
    need(dtype.itemSize() == 2, "[int16, uint16, float16, bfloat16]");
    bytes.putShort(off(i, 2), v);
    return this;
  }

  /** Sets an int32 or uint32 element's raw 32 bits. */
  public TensorBuilder setInt(long i, int v) {
    need(dtype == DType.INT32 || dtype == DType.UINT32, "[int32, uint32]");
    bytes.putInt(off(i, 4), v);
    return this;
  }

  /** Sets an int64 or uint64 element's raw 64 bits. */
  public TensorBuilder setLong(long i, long v) {
    need(dtype == DType.INT64 || dtype == DType.UINT64, "[int64, uint64]");
    bytes.putLong(off(i, 8), v);
    return this;
  }

  /** Sets a float32 element, or a float16/bfloat16 one rounded to nearest even. */
  public TensorBuilder setFloat(long i, float v) {
    need(dtype == DType.FLOAT32 || dtype == DType.FLOAT16 || dtype == DType.BFLOAT16,
        "[float32, float16, bfloat16]");
    switch (dtype) {
      case FLOAT16 -> bytes.putShort(off(i, 2), Float.floatToFloat16(v));
      case BFLOAT16 -> bytes.putShort(off(i, 2), Bfloat16.fromFloat(v));
      default -> bytes.putFloat(off(i, 4), v);
    }
    return this;
  }

  public TensorBuilder setDouble(long i, double v) {
    need(dtype == DType.FLOAT64, "[float64]");
    bytes.putDouble(off(i, 8), v);
    return this;
  }

  /** Sets a complex64 or complex128 element. */
  public TensorBuilder setComplex(long i, double real, double imag) {
    need(dtype.isComplex(), "[complex64, complex128]");
    if (dtype == DType.COMPLEX64) {
      long o = off(i, 8);
      bytes.putFloat(o, (float) real);
      bytes.putFloat(o + 4, (float) imag);
    } else {
      long o = off(i, 16);
      bytes.putDouble(o, real);
      bytes.putDouble(o + 8, imag);
    }
    return this;
  }

  public TensorBuilder setString(long i, String v) {
    need(dtype == DType.STRING, "[string]");
    check();
    Objects.checkIndex(i, shape.size());
    strings[(int) i] = Objects.requireNonNull(v, "string element");
    return this;
  }

  /**
   * Sets any real element from a double, converting as a cast would: bools are {@code v != 0},
   * integers truncate toward zero.
   */
  public TensorBuilder setFromDouble(long i, double v) {
    switch (dtype) {
      case BOOL -> setBoolean(i, v != 0);
      case INT8, UINT8 -> setByte(i, (byte) (long) v);
      case INT16, UINT16 -> setShort(i, (short) (long) v);
      case INT32, UINT32 -> setInt(i, (int) (long) v);
      case INT64 -> setLong(i, (long) v);
      case UINT64 -> setLong(i, v >= 0x1p63 ? (long) (v - 0x1p63) ^ Long.MIN_VALUE : (long) v);
      case FLOAT16, BFLOAT16, FLOAT32 -> setFloat(i, (float) v);
      case FLOAT64 -> setDouble(i, v);
      case COMPLEX64, COMPLEX128 -> setComplex(i, v, 0);
      case STRING -> throw new IllegalStateException("setFromDouble on a string builder");
    }
    return this;
  }

  /** Copies {@code len} little-endian bytes into the data at byte offset {@code at}. */
  public TensorBuilder putBytes(long at, byte[] src, int srcOff, int len) {
    check();
    fixedWidth();
    Objects.checkFromIndexSize(at, len, bytes.length());
    Objects.checkFromIndexSize(srcOff, len, src.length);
    bytes.put(at, src, srcOff, len);
    return this;
  }

  /**
   * Copies {@code len} bytes of {@code src}'s row-major data, from its byte {@code from}, into the
   * data at byte offset {@code at}, without an intermediate array.
   *
   * @throws IllegalStateException if either is a string tensor
   */
  public TensorBuilder putBytes(long at, Tensor src, long from, long len) {
    check();
    fixedWidth();
    if (src.dtype() == DType.STRING) {
      throw new IllegalStateException("string tensors have no fixed-width byte data");
    }
    Objects.checkFromIndexSize(at, len, bytes.length());
    src.copyBytes(from, bytes, at, len);
    return this;
  }

  /** Writable little-endian buffers over all the data bytes, in row-major order. */
  public List<ByteBuffer> writableBuffers() {
    check();
    fixedWidth();
    return bytes.views(0, bytes.length(), true);
  }

  /**
   * Fills all the data bytes from {@code in}, reading directly into storage.
   *
   * @throws EOFException naming how many bytes were still missing when the stream ended
   */
  public TensorBuilder readFully(InputStream in) throws IOException {
    check();
    fixedWidth();
    long done = 0;
    for (ByteBuffer chunk : bytes.chunks()) {
      byte[] array = chunk.array();
      int at = 0;
      while (at < array.length) {
        int n = in.read(array, at, array.length - at);
        if (n < 0) {
          throw new EOFException(
              "data ends after " + (done + at) + " of " + bytes.length() + " bytes");
        }
        at += n;
      }
      done += array.length;
    }
    return this;
  }

  private void fixedWidth() {
    if (bytes == null) {
      throw new IllegalStateException("string builders have no byte data");
    }
  }

  /** The finished tensor; the builder can no longer be used. */
  public Tensor build() {
    check();
    built = true;
    Tensor t = new Tensor(dtype, shape, bytes, strings, 0, shape.contiguousStrides());
    bytes = null;
    strings = null;
    return t;
  }
}
