package io.tributary.format.internal;

import io.tributary.format.FlatBufferVerificationException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Bounds checks for FlatBuffers, done before the generated accessors touch the bytes.
 *
 * <p>flatbuffers-java has no verifier, and its accessors trust every offset, so a hostile
 * buffer could make them read out of bounds or decode garbage. This class checks the root
 * offset, the file identifier, each table's vtable and every field this module reads: scalars lie
 * inside their table, offsets point forward into the buffer, vectors and strings fit, strings
 * are valid UTF-8 and NUL-terminated, and nested tables are verified in turn (to a bounded depth).
 */
public final class FlatBufferVerifier {
  private static final int MAX_DEPTH = 8;

  private final String entry;
  private final ByteBuffer bb;
  private final int limit;

  /** A verifier for the buffer's remaining bytes (position 0 is the buffer's start). */
  public FlatBufferVerifier(String entry, ByteBuffer buffer) {
    this.entry = entry;
    this.bb = buffer.slice().order(ByteOrder.LITTLE_ENDIAN);
    this.limit = bb.limit();
  }

  /** The buffer the offsets are relative to: little-endian, starting at 0. */
  public ByteBuffer buffer() {
    return bb;
  }

  private FlatBufferVerificationException fail(String problem) {
    return new FlatBufferVerificationException(entry, problem);
  }

  /**
   * Checks the root offset and the 4-character file identifier.
   *
   * @return the position of the root table
   */
  public int root(String identifier) throws FlatBufferVerificationException {
    if (limit < 8) {
      throw fail("FlatBuffer of " + limit + " bytes is too short");
    }
    byte[] id = new byte[4];
    bb.get(4, id);
    if (!new String(id, StandardCharsets.ISO_8859_1).equals(identifier)) {
      throw fail("file identifier is '" + new String(id, StandardCharsets.ISO_8859_1).replaceAll("\\p{Cntrl}", "?")
          + "', expected '" + identifier + "'");
    }
    int root = offsetTarget(0, "root");
    table(root, "root table");
    return root;
  }

  /** Follows the unsigned offset stored at {@code at}; the target must lie inside the buffer. */
  private int offsetTarget(int at, String what) throws FlatBufferVerificationException {
    need(at, 4, what + " offset");
    long off = bb.getInt(at) & 0xFFFF_FFFFL;
    long target = at + off;
    if (off == 0 || target + 4 > limit) {
      throw fail(what + " offset " + off + " at " + at + " points outside the " + limit + "-byte buffer");
    }
    return (int) target;
  }

  private void need(long at, long len, String what) throws FlatBufferVerificationException {
    if (at < 0 || len < 0 || at + len > limit) {
      throw fail(what + " at " + at + " (" + len + " bytes) lies outside the " + limit + "-byte buffer");
    }
  }

  /** Checks the table at {@code pos} and its vtable. */
  public void table(int pos, String what) throws FlatBufferVerificationException {
    need(pos, 4, what);
    if ((pos & 3) != 0) {
      throw fail(what + " at " + pos + " is not 4-byte aligned");
    }
    long vtable = (long) pos - bb.getInt(pos);
    need(vtable, 4, what + " vtable");
    if ((vtable & 1) != 0) {
      throw fail(what + " vtable at " + vtable + " is not 2-byte aligned");
    }
    int vtableSize = bb.getShort((int) vtable) & 0xFFFF;
    int tableSize = bb.getShort((int) vtable + 2) & 0xFFFF;
    if (vtableSize < 4 || (vtableSize & 1) != 0) {
      throw fail(what + " vtable size " + vtableSize + " is invalid");
    }
    need(vtable, vtableSize, what + " vtable");
    if (tableSize < 4) {
      throw fail(what + " inline size " + tableSize + " is invalid");
    }
    need(pos, tableSize, what);
  }

  /** Position of field {@code index} of the table at {@code pos}, or 0 when absent; checks {@code size} bytes fit. */
  public int field(int pos, int index, int size, String what) throws FlatBufferVerificationException {
    int vtable = pos - bb.getInt(pos);
    int vtableSize = bb.getShort(vtable) & 0xFFFF;
    int tableSize = bb.getShort(vtable + 2) & 0xFFFF;
    int slot = 4 + 2 * index;
    if (slot + 2 > vtableSize) {
      return 0;
    }
    int voff = bb.getShort(vtable + slot) & 0xFFFF;
    if (voff == 0) {
      return 0;
    }
    if (voff + size > tableSize) {
      throw fail("field '" + what + "' (" + size + " bytes at " + voff + ") lies outside its " + tableSize
          + "-byte table");
    }
    // At most 4-byte alignment is checkable: a size-prefixed buffer is 8-aligned 4 bytes before here.
    if (((pos + voff) & (Math.min(size, 4) - 1)) != 0) {
      throw fail("field '" + what + "' is not aligned");
    }
    return pos + voff;
  }

  /** Checks a scalar field; returns its position or 0 when absent (the default applies). */
  public int scalar(int table, int index, int size, String what) throws FlatBufferVerificationException {
    return field(table, index, size, what);
  }

  /**
   * Checks a vector field of {@code elementSize}-byte elements.
   *
   * @return the vector's length, or -1 when the field is absent
   */
  public long vector(int table, int index, int elementSize, String what) throws FlatBufferVerificationException {
    int f = field(table, index, 4, what);
    if (f == 0) {
      return -1;
    }
    int v = offsetTarget(f, what);
    if ((v & 3) != 0) {
      throw fail("vector '" + what + "' at " + v + " is not 4-byte aligned");
    }
    long len = bb.getInt(v) & 0xFFFF_FFFFL;
    need(v + 4L, len * elementSize, "vector '" + what + "' of " + len + " elements");
    return len;
  }

  /** Checks a string field; returns whether it is present. */
  public boolean string(int table, int index, String what, boolean required) throws FlatBufferVerificationException {
    int f = field(table, index, 4, what);
    if (f == 0) {
      if (required) {
        throw fail("required string '" + what + "' is missing");
      }
      return false;
    }
    checkString(offsetTarget(f, what), what);
    return true;
  }

  /** Checks every string of a vector-of-strings field; returns its length or -1 when absent. */
  public long stringVector(int table, int index, String what) throws FlatBufferVerificationException {
    long len = vector(table, index, 4, what);
    if (len > 0) {
      int v = offsetTarget(field(table, index, 4, what), what);
      for (int i = 0; i < len; i++) {
        checkString(offsetTarget(v + 4 + 4 * i, what + "[" + i + "]"), what + "[" + i + "]");
      }
    }
    return len;
  }

  /** Checks every table of a vector-of-tables field with {@code element}; returns its length or -1. */
  public long tableVector(int table, int index, String what, TableCheck element, int depth)
      throws FlatBufferVerificationException {
    if (depth > MAX_DEPTH) {
      throw fail("tables nested deeper than " + MAX_DEPTH);
    }
    long len = vector(table, index, 4, what);
    if (len > 0) {
      int v = offsetTarget(field(table, index, 4, what), what);
      for (int i = 0; i < len; i++) {
        int t = offsetTarget(v + 4 + 4 * i, what + "[" + i + "]");
        table(t, what + "[" + i + "]");
        element.check(this, t);
      }
    }
    return len;
  }

  private void checkString(int s, String what) throws FlatBufferVerificationException {
    long len = bb.getInt(s) & 0xFFFF_FFFFL;
    need(s + 4L, len + 1, "string '" + what + "'");
    if (bb.get((int) (s + 4 + len)) != 0) {
      throw fail("string '" + what + "' is not NUL-terminated");
    }
    try {
      StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(bb.slice(s + 4, (int) len));
    } catch (CharacterCodingException e) {
      throw fail("string '" + what + "' is not valid UTF-8");
    }
  }

  /** A check for the fields of one nested table. */
  @FunctionalInterface
  public interface TableCheck {
    void check(FlatBufferVerifier verifier, int table) throws FlatBufferVerificationException;
  }
}
