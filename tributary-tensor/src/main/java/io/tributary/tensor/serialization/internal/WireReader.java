package io.tributary.tensor.serialization.internal;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

/**
 * A bounds-checked cursor over one protobuf message held in a byte array.
 *
 * <p>Every read checks the remaining length first, so a truncated or hostile message ends in a
 * {@link WireException} naming the offset, never in an {@code ArrayIndexOutOfBoundsException} or
 * a huge allocation. Offsets in messages are relative to the start of the message.
 */
public final class WireReader {
  /** Wire types of the protobuf encoding. */
  public static final int VARINT = 0;
  public static final int I64 = 1;
  public static final int LEN = 2;
  public static final int SGROUP = 3;
  public static final int EGROUP = 4;
  public static final int I32 = 5;

  private static final int MAX_FIELD_NUMBER = (1 << 29) - 1;

  private final byte[] buf;
  private final int start;
  private final int limit;
  private int pos;

  /** A reader over {@code buf[off, off + len)}. */
  public WireReader(byte[] buf, int off, int len) {
    this(buf, off, off, end(buf, off, len));
  }

  private static int end(byte[] buf, int off, int len) {
    Objects.checkFromIndexSize(off, len, buf.length);
    return off + len;
  }

  private WireReader(byte[] buf, int start, int from, int limit) {
    this.buf = buf;
    this.start = start;
    this.limit = limit;
    this.pos = from;
  }

  /**
   * A reader over the next {@code len} bytes, which reports offsets relative to this reader's
   * message; this reader moves past them.
   */
  public WireReader sub(int len, String what) throws WireException {
    int from = pos;
    skipBytes(len, what);
    return new WireReader(buf, start, from, from + len);
  }

  public boolean hasMore() {
    return pos < limit;
  }

  /** The absolute index of the next byte in the backing array. */
  public int position() {
    return pos;
  }

  /** The offset of an absolute array index within the message, for error messages. */
  public int offsetOf(int absolute) {
    return absolute - start;
  }

  /** Reads a varint of at most 10 bytes. */
  public long readVarint(String what) throws WireException {
    int at = pos;
    long result = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (pos >= limit) {
        throw new WireException("truncated varint in " + what, offsetOf(at));
      }
      byte b = buf[pos++];
      result |= (long) (b & 0x7F) << shift;
      if (b >= 0) {
        return result;
      }
    }
    throw new WireException("varint longer than 10 bytes in " + what, offsetOf(at));
  }

  /**
   * Reads a field tag and checks its field number and wire type.
   *
   * @return the tag: field number shifted left by 3, or'ed with the wire type
   */
  public int readTag() throws WireException {
    int at = pos;
    long tag = readVarint("field tag");
    int wireType = (int) (tag & 7);
    long field = tag >>> 3;
    if (field == 0 || field > MAX_FIELD_NUMBER) {
      throw new WireException("invalid field number " + field, offsetOf(at));
    }
    if (wireType > I32) {
      throw new WireException("invalid wire type " + wireType + " for field " + field, offsetOf(at));
    }
    return (int) tag;
  }

  /** Reads a length prefix and checks that that many bytes remain. */
  public int readLength(String what) throws WireException {
    int at = pos;
    long len = readVarint("length of " + what);
    if (len < 0 || len > limit - pos) {
      throw new WireException(
          "length " + Long.toUnsignedString(len) + " of " + what + " runs past the end of the message ("
              + (limit - pos) + " bytes left)", offsetOf(at));
    }
    return (int) len;
  }

  /** Checks that {@code n} bytes remain, then moves past them. */
  public void skipBytes(int n, String what) throws WireException {
    if (n > limit - pos) {
      throw new WireException(
          "truncated " + what + ": needs " + n + " bytes, " + (limit - pos) + " left", offsetOf(pos));
    }
    pos += n;
  }

  /**
   * Skips the value of a field whose tag was just read, whatever its wire type; groups are skipped
   * to their matching end tag without recursion.
   */
  public void skipField(int tag) throws WireException {
    int wireType = tag & 7;
    switch (wireType) {
      case VARINT -> readVarint("field " + (tag >>> 3));
      case I64 -> skipBytes(8, "64-bit field " + (tag >>> 3));
      case I32 -> skipBytes(4, "32-bit field " + (tag >>> 3));
      case LEN -> {
        int len = readLength("field " + (tag >>> 3)); // not "pos += readLength()": that adds to the old pos
        pos += len;
      }
      case SGROUP -> skipGroup(tag >>> 3);
      default -> throw new WireException("unexpected end-group tag for field " + (tag >>> 3), offsetOf(pos));
    }
  }

  private void skipGroup(int field) throws WireException {
    int at = pos;
    int[] open = new int[8];
    int depth = 0;
    open[depth++] = field;
    while (depth > 0) {
      if (pos >= limit) {
        throw new WireException("group " + field + " has no end tag", offsetOf(at));
      }
      int tag = readTag();
      int wireType = tag & 7;
      if (wireType == SGROUP) {
        if (depth == open.length) {
          open = Arrays.copyOf(open, depth * 2);
        }
        open[depth++] = tag >>> 3;
      } else if (wireType == EGROUP) {
        if (open[depth - 1] != tag >>> 3) {
          throw new WireException("end tag of group " + (tag >>> 3) + " closes group "
              + open[depth - 1], offsetOf(pos));
        }
        depth--;
      } else {
        skipField(tag);
      }
    }
  }

  /** Decodes {@code len} bytes at absolute index {@code off} as strict UTF-8. */
  public String utf8(int off, int len, String what) throws WireException {
    try {
      return StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(buf, off, len))
          .toString();
    } catch (CharacterCodingException e) {
      throw new WireException("invalid UTF-8 in " + what, offsetOf(off));
    }
  }
}
