package io.tributary.tensor.serialization.internal;

import java.nio.ByteBuffer;

/**
 * Writes a protobuf message into an array sized in advance to exactly its encoded length.
 *
 * <p>Callers compute the size with {@link #varintSize} and {@link #tagSize} first, so the
 * message is written once with no growing buffer and no second copy; {@link #finish()} checks
 * that the size was right.
 */
public final class WireWriter {
  /** The largest message written: the JVM's practical array limit, below protobuf's 2 GiB. */
  public static final int MAX_MESSAGE_BYTES = Integer.MAX_VALUE - 8;

  private final byte[] buf;
  private int pos;

  /**
   * A writer for a message of exactly {@code size} bytes.
   *
   * @throws WireException if the size is over {@link #MAX_MESSAGE_BYTES}
   */
  public WireWriter(long size, String what) throws WireException {
    checkSize(size, what);
    this.buf = new byte[(int) size];
  }

  /**
   * Refuses a message of {@code size} bytes over {@link #MAX_MESSAGE_BYTES}, as the constructor
   * does; for messages written to a stream.
   */
  public static void checkSize(long size, String what) throws WireException {
    if (size > MAX_MESSAGE_BYTES) {
      throw new WireException(what + " needs " + size + " bytes, over the " + MAX_MESSAGE_BYTES
          + "-byte limit of one protobuf message");
    }
  }

  /** Bytes needed for {@code v} as a varint (negative values take 10). */
  public static int varintSize(long v) {
    int bits = 64 - Long.numberOfLeadingZeros(v | 1);
    return (bits + 6) / 7;
  }

  /** Bytes needed for the tag of {@code field}. */
  public static int tagSize(int field) {
    return varintSize((long) field << 3);
  }

  /** Bytes of a length-delimited field with a payload of {@code len} bytes, tag included. */
  public static long lengthDelimitedSize(int field, long len) {
    return tagSize(field) + varintSize(len) + len;
  }

  public void writeVarint(long v) {
    while ((v & ~0x7FL) != 0) {
      buf[pos++] = (byte) ((v & 0x7F) | 0x80);
      v >>>= 7;
    }
    buf[pos++] = (byte) v;
  }

  public void writeTag(int field, int wireType) {
    writeVarint(((long) field << 3) | wireType);
  }

  public void writeByte(byte b) {
    buf[pos++] = b;
  }

  public void writeBytes(byte[] src, int off, int len) {
    System.arraycopy(src, off, buf, pos, len);
    pos += len;
  }

  /** Copies the remaining bytes of {@code b} in bulk without moving its position. */
  public void writeBuffer(ByteBuffer b) {
    int n = b.remaining();
    b.get(b.position(), buf, pos, n);
    pos += n;
  }

  /** A writable window of the next {@code len} bytes, which the caller fills; then moves past it. */
  public ByteBuffer reserve(int len) {
    ByteBuffer window = ByteBuffer.wrap(buf, pos, len).slice();
    pos += len;
    return window;
  }

  /**
   * The finished message.
   *
   * @throws IllegalStateException if fewer bytes were written than were sized, a bug in the caller
   */
  public byte[] finish() {
    if (pos != buf.length) {
      throw new IllegalStateException("message sized " + buf.length + " bytes but " + pos + " written");
    }
    return buf;
  }
}
