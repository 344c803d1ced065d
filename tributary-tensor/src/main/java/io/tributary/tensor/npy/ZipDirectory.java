package io.tributary.tensor.npy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The central directory of a zip file on disk, read to judge an NPZ archive before any entry is
 * expanded: where each entry lies, so that entries whose bytes overlap (the trick of
 * non-recursive zip bombs, where many entries share one deflate stream) are refused, and what
 * each declares, so that the declared total is held to {@link NpzReadOptions}.
 *
 * <p>{@link java.util.zip.ZipFile}, which then reads the entries, does not expose entry offsets;
 * its entries are matched against these records by name and sizes.
 */
final class ZipDirectory {
  private static final int EOCD_SIG = 0x06054b50;
  private static final int CENTRAL_SIG = 0x02014b50;
  private static final int ZIP64_LOCATOR_SIG = 0x07064b50;
  private static final int ZIP64_EOCD_SIG = 0x06064b50;
  private static final int EOCD_SIZE = 22;
  private static final int CENTRAL_SIZE = 46;
  private static final int LOCAL_SIZE = 30;
  private static final long U32 = 0xFFFF_FFFFL;
  private static final int U16 = 0xFFFF;
  /** The largest central directory read; 16 MiB holds over 200,000 entries. */
  private static final long MAX_DIRECTORY = 16L << 20;

  /** One entry as the central directory declares it. */
  record Entry(String name, int method, long compressedSize, long size, long offset, int nameLength) {}

  private final Map<String, Entry> byName;

  private ZipDirectory(Map<String, Entry> byName) {
    this.byName = byName;
  }

  /** The record for {@code name}, or null when the directory has none. */
  Entry get(String name) {
    return byName.get(name);
  }

  int size() {
    return byName.size();
  }

  /**
   * Reads and judges the directory of {@code ch}.
   *
   * @throws NpyException naming the entry when entries overlap, declare more than the options
   *     allow, or the directory is malformed
   */
  static ZipDirectory read(FileChannel ch, NpzReadOptions options) throws IOException {
    long size = ch.size();
    int tailLength = (int) Math.min(size, EOCD_SIZE + U16);
    if (tailLength < EOCD_SIZE) {
      throw new NpyException("not a valid zip archive: " + size + " bytes is too short");
    }
    ByteBuffer tail = readAt(ch, size - tailLength, tailLength);
    int eocd = -1;
    for (int i = tailLength - EOCD_SIZE; i >= 0; i--) {
      if (tail.getInt(i) == EOCD_SIG && i + EOCD_SIZE + (tail.getShort(i + 20) & U16) == tailLength) {
        eocd = i;
        break;
      }
    }
    if (eocd < 0) {
      throw new NpyException("not a valid zip archive: no end of central directory record");
    }
    long eocdPos = size - tailLength + eocd;
    long count = tail.getShort(eocd + 10) & U16;
    long cdSize = tail.getInt(eocd + 12) & U32;
    long cdOffset = tail.getInt(eocd + 16) & U32;
    long cdLimit = eocdPos;
    if (count == U16 || cdSize == U32 || cdOffset == U32) {
      ByteBuffer loc = eocdPos >= 20 ? readAt(ch, eocdPos - 20, 20) : null;
      if (loc == null || loc.getInt(0) != ZIP64_LOCATOR_SIG) {
        throw new NpyException("not a valid zip archive: zip64 end of central directory locator missing");
      }
      long z64 = loc.getLong(8);
      if (z64 < 0 || z64 + 56 > eocdPos - 20) {
        throw new NpyException("not a valid zip archive: zip64 end record at " + z64 + " is outside the file");
      }
      ByteBuffer rec = readAt(ch, z64, 56);
      if (rec.getInt(0) != ZIP64_EOCD_SIG) {
        throw new NpyException("not a valid zip archive: zip64 end record missing at " + z64);
      }
      count = rec.getLong(32);
      cdSize = rec.getLong(40);
      cdOffset = rec.getLong(48);
      cdLimit = z64;
    }
    if (cdOffset < 0 || cdSize < 0 || cdOffset + cdSize > cdLimit || cdSize > MAX_DIRECTORY
        || count < 0 || count > cdSize / CENTRAL_SIZE) {
      throw new NpyException("not a valid zip archive: central directory of " + count + " entries in "
          + cdSize + " bytes at " + cdOffset + " does not fit the file (end records at " + cdLimit + ")");
    }
    ByteBuffer cd = readAt(ch, cdOffset, (int) cdSize);
    List<Entry> entries = new ArrayList<>((int) count);
    int p = 0;
    for (long i = 0; i < count; i++) {
      if (p + CENTRAL_SIZE > cd.limit() || cd.getInt(p) != CENTRAL_SIG) {
        throw new NpyException("not a valid zip archive: central directory record " + i + " is truncated");
      }
      int nameLen = cd.getShort(p + 28) & U16;
      int extraLen = cd.getShort(p + 30) & U16;
      int commentLen = cd.getShort(p + 32) & U16;
      if (p + CENTRAL_SIZE + nameLen + extraLen + commentLen > cd.limit()) {
        throw new NpyException("not a valid zip archive: central directory record " + i + " runs past its end");
      }
      byte[] rawName = new byte[nameLen];
      cd.get(p + CENTRAL_SIZE, rawName);
      String name = new String(rawName, StandardCharsets.UTF_8);
      long[] v = {cd.getInt(p + 24) & U32, cd.getInt(p + 20) & U32, cd.getInt(p + 42) & U32};
      zip64(name, cd.slice(p + CENTRAL_SIZE + nameLen, extraLen).order(ByteOrder.LITTLE_ENDIAN), v);
      if (v[0] < 0 || v[1] < 0 || v[2] < 0 || v[2] >= cdOffset) {
        throw new NpyException("entry '" + name + "': sizes or offset out of range (size " + v[0]
            + ", stored " + v[1] + ", at " + v[2] + ")");
      }
      entries.add(new Entry(name, cd.getShort(p + 10) & U16, v[1], v[0], v[2], nameLen));
      p += CENTRAL_SIZE + nameLen + extraLen + commentLen;
    }
    checkOverlap(entries, cdOffset);
    checkTotals(entries, size, options);
    Map<String, Entry> byName = new HashMap<>();
    for (Entry e : entries) {
      if (byName.putIfAbsent(e.name(), e) != null) {
        throw new NpyException("duplicate entry '" + e.name() + "'");
      }
    }
    return new ZipDirectory(byName);
  }

  /** Replaces the values marked 0xFFFFFFFF (size, compressed size, offset) by the zip64 extra field's. */
  private static void zip64(String name, ByteBuffer extra, long[] v) throws NpyException {
    boolean any = v[0] == U32 || v[1] == U32 || v[2] == U32;
    int p = 0;
    while (any && p + 4 <= extra.limit()) {
      int id = extra.getShort(p) & U16;
      int len = extra.getShort(p + 2) & U16;
      if (id == 1) {
        int q = p + 4;
        for (int k = 0; k < 3; k++) {
          if (v[k] == U32) {
            if (q + 8 > p + 4 + len || q + 8 > extra.limit()) {
              throw new NpyException("entry '" + name + "': zip64 extra field is too short");
            }
            v[k] = extra.getLong(q);
            q += 8;
          }
        }
        return;
      }
      p += 4 + len;
    }
  }

  /**
   * Refuses entries whose bytes run into the next entry: sorted by position, each entry's local
   * header, name and stored bytes must end before the next one starts.
   */
  private static void checkOverlap(List<Entry> entries, long cdOffset) throws NpyException {
    List<Entry> sorted = new ArrayList<>(entries);
    sorted.sort(Comparator.comparingLong(Entry::offset));
    for (int i = 0; i < sorted.size(); i++) {
      Entry e = sorted.get(i);
      long boundary = i + 1 < sorted.size() ? sorted.get(i + 1).offset() : cdOffset;
      long end = e.offset() + LOCAL_SIZE + e.nameLength() + e.compressedSize();
      if (end > boundary || end < 0) {
        throw new NpyException("entry '" + e.name() + "': its bytes (to " + end + ") overlap "
            + (i + 1 < sorted.size() ? "entry '" + sorted.get(i + 1).name() + "' at " : "the central directory at ")
            + boundary + "; archives whose entries share data are refused as zip bombs");
      }
    }
  }

  private static void checkTotals(List<Entry> entries, long fileSize, NpzReadOptions options)
      throws NpyException {
    long maxTotal = options.maxTotalBytes(fileSize);
    long total = 0;
    long inflated = 0;
    for (Entry e : entries) {
      total = saturatingAdd(total, e.size());
      if (total > maxTotal) {
        throw new NpyException("entry '" + e.name() + "': the entries declare more than " + maxTotal
            + " bytes in total, over " + options.maxExpansionRatio() + " times the archive's " + fileSize
            + " bytes (raise NpzReadOptions.maxExpansionRatio to read it)");
      }
      if (e.method() != 0) {
        inflated = saturatingAdd(inflated, e.size());
        if (inflated > options.maxInflatedBytes()) {
          throw new NpyException("entry '" + e.name() + "': the compressed entries declare more than "
              + options.maxInflatedBytes() + " bytes in total (raise NpzReadOptions.maxInflatedBytes to read it)");
        }
      }
    }
  }

  static long saturatingAdd(long a, long b) {
    long s = a + b;
    return s < 0 ? Long.MAX_VALUE : s;
  }

  private static ByteBuffer readAt(FileChannel ch, long pos, int len) throws IOException {
    ByteBuffer b = ByteBuffer.allocate(len).order(ByteOrder.LITTLE_ENDIAN);
    while (b.hasRemaining()) {
      if (ch.read(b, pos + b.position()) < 0) {
        throw new NpyException("not a valid zip archive: the file ends at " + (pos + b.position())
            + ", inside a zip structure");
      }
    }
    return b.flip();
  }
}
