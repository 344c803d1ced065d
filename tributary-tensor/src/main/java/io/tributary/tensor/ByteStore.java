package io.tributary.tensor;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * Little-endian bytes addressed by a {@code long}, held in power-of-two chunks.
 *
 * <p>Chunks are at most 2^30 bytes, so a store can exceed 2 GiB without ever being one
 * int-indexed buffer. Every item size divides the chunk size, so no element straddles two chunks.
 */
final class ByteStore {
  static final int DEFAULT_CHUNK_SHIFT = 30;
  static final int MIN_CHUNK_SHIFT = 4;

  private static final VarHandle SHORT =
      MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle INT =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle LONG =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle FLOAT =
      MethodHandles.byteArrayViewVarHandle(float[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle DOUBLE =
      MethodHandles.byteArrayViewVarHandle(double[].class, ByteOrder.LITTLE_ENDIAN);

  private final byte[][] chunks;
  private final int shift;
  private final long mask;
  private final long length;

  private ByteStore(byte[][] chunks, int shift, long length) {
    this.chunks = chunks;
    this.shift = shift;
    this.mask = (1L << shift) - 1;
    this.length = length;
  }

  static ByteStore allocate(long length, int chunkShift) {
    if (chunkShift < MIN_CHUNK_SHIFT || chunkShift > DEFAULT_CHUNK_SHIFT) {
      throw new IllegalArgumentException(
          "chunk size must be 2^" + MIN_CHUNK_SHIFT + " to 2^" + DEFAULT_CHUNK_SHIFT
              + " bytes, got 2^" + chunkShift);
    }
    if (length < 0) {
      throw new IllegalArgumentException("negative length " + length);
    }
    long chunkSize = 1L << chunkShift;
    long count = (length + chunkSize - 1) >>> chunkShift;
    if (count > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("too many bytes for one store: " + length);
    }
    byte[][] chunks = new byte[(int) count][];
    for (int i = 0; i < count; i++) {
      long remaining = length - ((long) i << chunkShift);
      chunks[i] = new byte[(int) Math.min(chunkSize, remaining)];
    }
    return new ByteStore(chunks, chunkShift, length);
  }

  /** Wraps one array without copying; the caller gives up the array. */
  static ByteStore adopt(byte[] bytes) {
    if (bytes.length <= (1 << DEFAULT_CHUNK_SHIFT)) {
      return new ByteStore(new byte[][] {bytes}, DEFAULT_CHUNK_SHIFT, bytes.length);
    }
    ByteStore store = allocate(bytes.length, DEFAULT_CHUNK_SHIFT);
    store.put(0, bytes, 0, bytes.length);
    return store;
  }

  long length() {
    return length;
  }

  byte getByte(long off) {
    return chunks[(int) (off >>> shift)][(int) (off & mask)];
  }

  short getShort(long off) {
    return (short) SHORT.get(chunks[(int) (off >>> shift)], (int) (off & mask));
  }

  int getInt(long off) {
    return (int) INT.get(chunks[(int) (off >>> shift)], (int) (off & mask));
  }

  long getLong(long off) {
    return (long) LONG.get(chunks[(int) (off >>> shift)], (int) (off & mask));
  }

  float getFloat(long off) {
    return (float) FLOAT.get(chunks[(int) (off >>> shift)], (int) (off & mask));
  }

  double getDouble(long off) {
    return (double) DOUBLE.get(chunks[(int) (off >>> shift)], (int) (off & mask));
  }

  void putByte(long off, byte v) {
    chunks[(int) (off >>> shift)][(int) (off & mask)] = v;
  }

  void putShort(long off, short v) {
    SHORT.set(chunks[(int) (off >>> shift)], (int) (off & mask), v);
  }

  void putInt(long off, int v) {
    INT.set(chunks[(int) (off >>> shift)], (int) (off & mask), v);
  }

  void putLong(long off, long v) {
    LONG.set(chunks[(int) (off >>> shift)], (int) (off & mask), v);
  }

  void putFloat(long off, float v) {
    FLOAT.set(chunks[(int) (off >>> shift)], (int) (off & mask), v);
  }

  void putDouble(long off, double v) {
    DOUBLE.set(chunks[(int) (off >>> shift)], (int) (off & mask), v);
  }

  /** Copies {@code len} bytes from {@code src} into this store at {@code off}. */
  void put(long off, byte[] src, int srcOff, int len) {
    while (len > 0) {
      byte[] chunk = chunks[(int) (off >>> shift)];
      int at = (int) (off & mask);
      int n = Math.min(len, chunk.length - at);
      System.arraycopy(src, srcOff, chunk, at, n);
      off += n;
      srcOff += n;
      len -= n;
    }
  }

  /** Copies {@code len} bytes at {@code off} into {@code dst}. */
  void get(long off, byte[] dst, int dstOff, int len) {
    while (len > 0) {
      byte[] chunk = chunks[(int) (off >>> shift)];
      int at = (int) (off & mask);
      int n = Math.min(len, chunk.length - at);
      System.arraycopy(chunk, at, dst, dstOff, n);
      off += n;
      dstOff += n;
      len -= n;
    }
  }

  /** Little-endian buffers over bytes {@code [from, to)}, in order; writable when asked. */
  List<ByteBuffer> views(long from, long to, boolean writable) {
    List<ByteBuffer> out = new ArrayList<>();
    long off = from;
    while (off < to) {
      int index = (int) (off >>> shift);
      int at = (int) (off & mask);
      int n = (int) Math.min(to - off, chunks[index].length - at);
      ByteBuffer b = ByteBuffer.wrap(chunks[index], at, n).slice();
      if (!writable) {
        b = b.asReadOnlyBuffer();
      }
      out.add(b.order(ByteOrder.LITTLE_ENDIAN));
      off += n;
    }
    return out;
  }

  /** The chunk arrays themselves, for bulk fills by trusted code in this package. */
  byte[][] chunks() {
    return chunks;
  }
}
