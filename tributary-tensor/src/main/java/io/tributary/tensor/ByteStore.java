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
 * <p>Allocated stores use heap chunks of at most 2^30 bytes, so a store can exceed 2 GiB without
 * ever being one int-indexed buffer; every item size divides the chunk size, so no element
 * straddles two chunks. A wrapped store is one caller-supplied buffer (heap, direct, read-only or
 * memory-mapped) viewed without copying.
 */
final class ByteStore {
  static final int DEFAULT_CHUNK_SHIFT = 30;
  static final int MIN_CHUNK_SHIFT = 4;
  private static final int WRAPPED_SHIFT = 31;

  private static final VarHandle SHORT =
      MethodHandles.byteBufferViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle INT =
      MethodHandles.byteBufferViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle LONG =
      MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle FLOAT =
      MethodHandles.byteBufferViewVarHandle(float[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle DOUBLE =
      MethodHandles.byteBufferViewVarHandle(double[].class, ByteOrder.LITTLE_ENDIAN);

  private final ByteBuffer[] chunks;
  private final int shift;
  private final long mask;
  private final long length;

  private ByteStore(ByteBuffer[] chunks, int shift, long length) {
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
    ByteBuffer[] chunks = new ByteBuffer[(int) count];
    for (int i = 0; i < count; i++) {
      long remaining = length - ((long) i << chunkShift);
      chunks[i] = ByteBuffer.allocate((int) Math.min(chunkSize, remaining)).order(ByteOrder.LITTLE_ENDIAN);
    }
    return new ByteStore(chunks, chunkShift, length);
  }

  /** Views the remaining bytes of {@code buffer} without copying. */
  static ByteStore wrap(ByteBuffer buffer) {
    ByteBuffer b = buffer.slice().order(ByteOrder.LITTLE_ENDIAN);
    return new ByteStore(new ByteBuffer[] {b}, WRAPPED_SHIFT, b.remaining());
  }

  /**
   * Views several buffers as one store without copying: every buffer but the last holds the same
   * power-of-two number of bytes (at least 2^4), and the last no more. This is how a memory-mapped
   * region over 2 GiB, which no single buffer can hold, becomes one store.
   */
  static ByteStore wrapChunks(List<ByteBuffer> buffers) {
    if (buffers.size() == 1) {
      return wrap(buffers.get(0));
    }
    if (buffers.isEmpty()) {
      throw new IllegalArgumentException("no buffers to wrap");
    }
    int size = buffers.get(0).remaining();
    if (Integer.bitCount(size) != 1 || size < (1 << MIN_CHUNK_SHIFT)) {
      throw new IllegalArgumentException("chunk size must be a power of two of at least 2^"
          + MIN_CHUNK_SHIFT + " bytes, got " + size);
    }
    ByteBuffer[] chunks = new ByteBuffer[buffers.size()];
    long length = 0;
    for (int i = 0; i < chunks.length; i++) {
      int n = buffers.get(i).remaining();
      boolean last = i == chunks.length - 1;
      if (last ? n == 0 || n > size : n != size) {
        throw new IllegalArgumentException("buffer " + i + " holds " + n + " bytes; every buffer but the last must hold "
            + size + " and the last 1 to " + size);
      }
      chunks[i] = buffers.get(i).slice().order(ByteOrder.LITTLE_ENDIAN);
      length += n;
    }
    return new ByteStore(chunks, Integer.numberOfTrailingZeros(size), length);
  }

  long length() {
    return length;
  }

  private ByteBuffer chunk(long off) {
    return chunks[(int) (off >>> shift)];
  }

  byte getByte(long off) {
    return chunk(off).get((int) (off & mask));
  }

  short getShort(long off) {
    return (short) SHORT.get(chunk(off), (int) (off & mask));
  }

  int getInt(long off) {
    return (int) INT.get(chunk(off), (int) (off & mask));
  }

  long getLong(long off) {
    return (long) LONG.get(chunk(off), (int) (off & mask));
  }

  float getFloat(long off) {
    return (float) FLOAT.get(chunk(off), (int) (off & mask));
  }

  double getDouble(long off) {
    return (double) DOUBLE.get(chunk(off), (int) (off & mask));
  }

  void putByte(long off, byte v) {
    chunk(off).put((int) (off & mask), v);
  }

  void putShort(long off, short v) {
    SHORT.set(chunk(off), (int) (off & mask), v);
  }

  void putInt(long off, int v) {
    INT.set(chunk(off), (int) (off & mask), v);
  }

  void putLong(long off, long v) {
    LONG.set(chunk(off), (int) (off & mask), v);
  }

  void putFloat(long off, float v) {
    FLOAT.set(chunk(off), (int) (off & mask), v);
  }

  void putDouble(long off, double v) {
    DOUBLE.set(chunk(off), (int) (off & mask), v);
  }

  /** Copies {@code len} bytes from {@code src} into this store at {@code off}. */
  void put(long off, byte[] src, int srcOff, int len) {
    while (len > 0) {
      ByteBuffer c = chunk(off);
      int at = (int) (off & mask);
      int n = Math.min(len, c.capacity() - at);
      c.put(at, src, srcOff, n);
      off += n;
      srcOff += n;
      len -= n;
    }
  }

  /** Copies {@code len} bytes of {@code src} from {@code srcOff} into this store at {@code off}. */
  void put(long off, ByteStore src, long srcOff, long len) {
    while (len > 0) {
      ByteBuffer to = chunk(off);
      ByteBuffer from = src.chunk(srcOff);
      int at = (int) (off & mask);
      int fromAt = (int) (srcOff & src.mask);
      int n = (int) Math.min(len, Math.min(to.capacity() - at, from.capacity() - fromAt));
      to.put(at, from, fromAt, n);
      off += n;
      srcOff += n;
      len -= n;
    }
  }

  /** Copies {@code len} bytes at {@code off} into {@code dst}. */
  void get(long off, byte[] dst, int dstOff, int len) {
    while (len > 0) {
      ByteBuffer c = chunk(off);
      int at = (int) (off & mask);
      int n = Math.min(len, c.capacity() - at);
      c.get(at, dst, dstOff, n);
      off += n;
      dstOff += n;
      len -= n;
    }
  }

  /** Little-endian buffers over bytes {@code [from, to)}, in order; read-only unless asked. */
  List<ByteBuffer> views(long from, long to, boolean writable) {
    List<ByteBuffer> out = new ArrayList<>();
    long off = from;
    while (off < to) {
      ByteBuffer c = chunk(off);
      int at = (int) (off & mask);
      int n = (int) Math.min(to - off, c.capacity() - at);
      ByteBuffer b = c.slice(at, n);
      if (!writable) {
        b = b.asReadOnlyBuffer();
      }
      out.add(b.order(ByteOrder.LITTLE_ENDIAN));
      off += n;
    }
    return out;
  }

  /** The chunks themselves, for bulk fills by trusted code in this package. */
  ByteBuffer[] chunks() {
    return chunks;
  }
}
