package io.tributary.flower.internal;

import com.google.protobuf.ByteOutput;
import com.google.protobuf.ByteString;
import com.google.protobuf.UnsafeByteOperations;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;

/**
 * The bytes of a {@link ByteString} as one array, without a copy when the string is backed by a
 * whole array, as the large {@code bytes} fields of a parsed message are.
 *
 * <p>Received messages are never written again, and the tensors decoded from them are read-only
 * views, so sharing the parsed array saves a copy of every model that arrives (a gigabyte for a
 * gigabyte model). Anything else (a slice, a rope of several chunks) is copied.
 */
final class WholeArray extends ByteOutput {
  private final int size;
  private byte[] whole;
  private byte[] copy;
  private int position;

  private WholeArray(int size) {
    this.size = size;
  }

  /** The bytes of {@code s}: its own array when it has exactly one, else a copy. */
  static byte[] of(ByteString s) {
    if (s.isEmpty()) {
      return new byte[0];
    }
    WholeArray out = new WholeArray(s.size());
    try {
      UnsafeByteOperations.unsafeWriteTo(s, out);
    } catch (IOException e) {
      throw new UncheckedIOException("reading bytes held in memory", e);
    }
    return out.whole != null ? out.whole : out.copy;
  }

  @Override
  public void write(byte value) {
    buffer()[position++] = value;
  }

  @Override
  public void write(byte[] value, int offset, int length) {
    System.arraycopy(value, offset, buffer(), position, length);
    position += length;
  }

  @Override
  public void writeLazy(byte[] value, int offset, int length) {
    if (position == 0 && offset == 0 && length == size && value.length == size && copy == null) {
      whole = value;
      position = length;
      return;
    }
    write(value, offset, length);
  }

  @Override
  public void write(ByteBuffer value) {
    int n = value.remaining();
    value.get(buffer(), position, n);
    position += n;
  }

  @Override
  public void writeLazy(ByteBuffer value) {
    write(value);
  }

  private byte[] buffer() {
    if (copy == null) {
      copy = new byte[size];
      if (whole != null) {
        System.arraycopy(whole, 0, copy, 0, position);
        whole = null;
      }
    }
    return copy;
  }
}
