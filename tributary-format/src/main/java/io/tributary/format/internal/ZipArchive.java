package io.tributary.format.internal;

import io.tributary.format.ChecksumMismatchException;
import io.tributary.format.DuplicateEntryException;
import io.tributary.format.EntrySizeException;
import io.tributary.format.ModelFormatException;
import io.tributary.format.ReadOptions;
import io.tributary.format.ZipBombException;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * A zip file opened for reading, with every structural check done before any entry is used.
 *
 * <p>Opening reads only the end records and the central directory: names are checked for
 * safety and duplicates, sizes against the file and each other, and entries for overlap (the
 * trick of non-recursive zip bombs). An entry's local header is read and checked against the
 * directory when the entry is first used, so opening a large file reads only its directory.
 * Stored and deflated entries are supported; deflated ones are inflated under a size limit.
 */
public final class ZipArchive implements Closeable {
  static final int LOCAL_SIG = 0x04034b50;
  static final int CENTRAL_SIG = 0x02014b50;
  static final int EOCD_SIG = 0x06054b50;
  static final int ZIP64_EOCD_SIG = 0x06064b50;
  static final int ZIP64_LOCATOR_SIG = 0x07064b50;
  static final int ZIP64_EXTRA = 0x0001;
  static final long U32 = 0xFFFF_FFFFL;
  static final int U16 = 0xFFFF;
  static final int LOCAL_HEADER_SIZE = 30;
  static final int CENTRAL_HEADER_SIZE = 46;
  static final int EOCD_SIZE = 22;
  static final int ZIP64_EOCD_SIZE = 56;
  static final int ZIP64_LOCATOR_SIZE = 20;

  /** The largest central directory this reader loads into memory. */
  static final long MAX_CENTRAL_DIRECTORY = 256L << 20;

  /** Deflated entries may expand at most this much... */
  static final long MAX_RATIO = 100;

  /** ...unless they expand to no more than this; tiny text compresses far better than 100:1. */
  static final long RATIO_EXEMPT_SIZE = 1L << 20;

  private static final int FLAG_ENCRYPTED = 1;
  private static final int FLAG_STRONG_ENCRYPTION = 1 << 6;
  private static final int FLAG_MASKED_DIRECTORY = 1 << 13;

  private final FileChannel channel;
  private final long fileSize;
  private final List<ZipEntryRecord> entries;
  private final Map<String, ZipEntryRecord> byKey;
  private final Map<String, Long> nextBoundary;
  private final long centralDirectoryOffset;
  private final long endOfEntries;
  private final Map<String, Long> dataStarts = new ConcurrentHashMap<>();

  private ZipArchive(FileChannel channel, long fileSize, List<ZipEntryRecord> entries, long cdOffset)
      throws ModelFormatException {
    this.channel = channel;
    this.fileSize = fileSize;
    this.entries = List.copyOf(entries);
    this.centralDirectoryOffset = cdOffset;
    this.byKey = new HashMap<>();
    for (ZipEntryRecord e : entries) {
      ZipEntryRecord before = byKey.putIfAbsent(EntryNames.key(e.name()), e);
      if (before != null) {
        throw new DuplicateEntryException(e.name(), before.name().equals(e.name())
            ? "appears twice in the zip directory"
            : "same name as entry '" + before.name() + "' but for case (tags are case-insensitive)");
      }
    }
    this.nextBoundary = new HashMap<>();
    List<ZipEntryRecord> sorted = new ArrayList<>(entries);
    sorted.sort(Comparator.comparingLong(ZipEntryRecord::localHeaderOffset));
    long end = 0;
    for (int i = 0; i < sorted.size(); i++) {
      ZipEntryRecord e = sorted.get(i);
      long boundary = i + 1 < sorted.size() ? sorted.get(i + 1).localHeaderOffset() : cdOffset;
      long minimalEnd = e.localHeaderOffset() + LOCAL_HEADER_SIZE + utf8Length(e.name()) + e.compressedSize();
      if (minimalEnd > boundary) {
        if (i + 1 < sorted.size()) {
          throw new ZipBombException(e.name(), "overlaps entry '" + sorted.get(i + 1).name()
              + "' (its bytes end at " + minimalEnd + ", the next entry starts at " + boundary + ")");
        }
        throw new EntrySizeException(e.name(), "declares " + e.compressedSize()
            + " stored bytes, which run into the central directory at " + cdOffset);
      }
      nextBoundary.put(e.name(), boundary);
      end = Math.max(end, minimalEnd);
    }
    this.endOfEntries = end;
  }

  /**
   * Opens {@code path} and checks its structure, with the default expansion ratio.
   *
   * @param maxInflatedTotal the most bytes all deflated entries together may declare
   * @throws ModelFormatException (a subclass naming the entry) when the zip is malformed or unsafe
   */
  public static ZipArchive open(Path path, long maxInflatedTotal) throws IOException {
    return open(path, ReadOptions.defaults().withMaxInflatedBytes(maxInflatedTotal));
  }

  /**
   * Opens {@code path} and checks its structure, holding its entries to {@code options}' limits
   * on expansion.
   *
   * @throws ModelFormatException (a subclass naming the entry) when the zip is malformed or unsafe
   */
  public static ZipArchive open(Path path, ReadOptions options) throws IOException {
    FileChannel ch = FileChannel.open(path, StandardOpenOption.READ);
    boolean ok = false;
    try {
      ZipArchive z = read(ch, options);
      ok = true;
      return z;
    } finally {
      if (!ok) {
        ch.close();
      }
    }
  }

  private static ZipArchive read(FileChannel ch, ReadOptions options) throws IOException {
    long maxInflatedTotal = options.maxInflatedBytes();
    long size = ch.size();
    int tailLength = (int) Math.min(size, EOCD_SIZE + U16);
    if (tailLength < EOCD_SIZE) {
      throw new ModelFormatException("", "not a zip file: " + size + " bytes is too short");
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
      throw new ModelFormatException("", "not a zip file: no end of central directory record");
    }
    long eocdPos = size - tailLength + eocd;
    int disk = tail.getShort(eocd + 4) & U16;
    int cdDisk = tail.getShort(eocd + 6) & U16;
    long count = tail.getShort(eocd + 10) & U16;
    long cdSize = tail.getInt(eocd + 12) & U32;
    long cdOffset = tail.getInt(eocd + 16) & U32;
    long cdLimit = eocdPos;
    if (count == U16 || cdSize == U32 || cdOffset == U32) {
      if (eocdPos < ZIP64_LOCATOR_SIZE) {
        throw new ModelFormatException("", "zip64 end records missing");
      }
      ByteBuffer loc = readAt(ch, eocdPos - ZIP64_LOCATOR_SIZE, ZIP64_LOCATOR_SIZE);
      if (loc.getInt(0) != ZIP64_LOCATOR_SIG) {
        throw new ModelFormatException("", "zip64 end of central directory locator missing");
      }
      long z64 = loc.getLong(8);
      if (z64 < 0 || z64 + ZIP64_EOCD_SIZE > eocdPos - ZIP64_LOCATOR_SIZE) {
        throw new ModelFormatException("", "zip64 end of central directory record at " + z64 + " is outside the file");
      }
      ByteBuffer rec = readAt(ch, z64, ZIP64_EOCD_SIZE);
      if (rec.getInt(0) != ZIP64_EOCD_SIG) {
        throw new ModelFormatException("", "zip64 end of central directory record missing at " + z64);
      }
      disk = rec.getInt(16);
      cdDisk = rec.getInt(20);
      count = rec.getLong(32);
      cdSize = rec.getLong(40);
      cdOffset = rec.getLong(48);
      cdLimit = z64;
    }
    if (disk != 0 || cdDisk != 0) {
      throw new ModelFormatException("", "multi-volume zip files are not supported");
    }
    if (cdOffset < 0 || cdSize < 0 || cdOffset + cdSize > cdLimit) {
      throw new ModelFormatException("", "central directory (" + cdSize + " bytes at " + cdOffset
          + ") does not fit before the end records at " + cdLimit);
    }
    if (cdSize > MAX_CENTRAL_DIRECTORY) {
      throw new ModelFormatException("", "central directory of " + cdSize + " bytes exceeds the "
          + MAX_CENTRAL_DIRECTORY + " this reader allows");
    }
    if (count < 0 || count > cdSize / CENTRAL_HEADER_SIZE) {
      throw new ModelFormatException("", count + " entries cannot fit a central directory of " + cdSize + " bytes");
    }
    ByteBuffer cd = readAt(ch, cdOffset, (int) cdSize);
    List<ZipEntryRecord> entries = new ArrayList<>((int) count);
    int p = 0;
    long inflatedTotal = 0;
    long declaredTotal = 0;
    long maxTotal = options.maxTotalBytes(size);
    for (long i = 0; i < count; i++) {
      ZipEntryRecord e = parseCentral(cd, p, i, cdOffset);
      p += CENTRAL_HEADER_SIZE + (cd.getShort(p + 28) & U16) + (cd.getShort(p + 30) & U16)
          + (cd.getShort(p + 32) & U16);
      if (e.method() == ZipEntryRecord.DEFLATED) {
        if (e.size() > RATIO_EXEMPT_SIZE && e.size() / Math.max(1, e.compressedSize()) > MAX_RATIO) {
          throw new ZipBombException(e.name(), "declares " + e.size() + " bytes from " + e.compressedSize()
              + " compressed, a ratio over " + MAX_RATIO + ":1");
        }
        inflatedTotal += e.size();
        if (inflatedTotal > maxInflatedTotal) {
          throw new ZipBombException(e.name(), "deflated entries declare more than " + maxInflatedTotal
              + " bytes in total (raise ReadOptions.maxInflatedBytes to read it)");
        }
      } else if (e.compressedSize() != e.size()) {
        throw new EntrySizeException(e.name(), "stored entry declares " + e.size()
            + " bytes but occupies " + e.compressedSize());
      }
      declaredTotal += e.size();
      if (declaredTotal > maxTotal || declaredTotal < 0) {
        throw new ZipBombException(e.name(), "entries declare more than " + maxTotal + " bytes in total, over "
            + options.maxExpansionRatio() + " times the file's " + size
            + " bytes (raise ReadOptions.maxExpansionRatio to read it)");
      }
      entries.add(e);
    }
    return new ZipArchive(ch, size, entries, cdOffset);
  }

  private static ZipEntryRecord parseCentral(ByteBuffer cd, int p, long index, long cdOffset)
      throws ModelFormatException {
    if (p + CENTRAL_HEADER_SIZE > cd.limit() || cd.getInt(p) != CENTRAL_SIG) {
      throw new ModelFormatException("", "central directory record " + index + " at " + (cdOffset + p)
          + " is truncated or has a bad signature");
    }
    int flags = cd.getShort(p + 8) & U16;
    int method = cd.getShort(p + 10) & U16;
    long crc = cd.getInt(p + 16) & U32;
    long csize = cd.getInt(p + 20) & U32;
    long usize = cd.getInt(p + 24) & U32;
    int nameLen = cd.getShort(p + 28) & U16;
    int extraLen = cd.getShort(p + 30) & U16;
    int commentLen = cd.getShort(p + 32) & U16;
    int diskStart = cd.getShort(p + 34) & U16;
    long offset = cd.getInt(p + 42) & U32;
    if ((long) p + CENTRAL_HEADER_SIZE + nameLen + extraLen + commentLen > cd.limit()) {
      throw new ModelFormatException("", "central directory record " + index + " runs past the directory's end");
    }
    byte[] rawName = new byte[nameLen];
    cd.get(p + CENTRAL_HEADER_SIZE, rawName);
    String name = decodeName(rawName, index);
    EntryNames.checkSafe(name);
    ByteBuffer extra = cd.slice(p + CENTRAL_HEADER_SIZE + nameLen, extraLen).order(ByteOrder.LITTLE_ENDIAN);
    long[] z64 = Zip64Extra.read(name, extra, usize == U32, csize == U32, offset == U32, diskStart == U16);
    usize = z64[0] >= 0 ? z64[0] : usize;
    csize = z64[1] >= 0 ? z64[1] : csize;
    offset = z64[2] >= 0 ? z64[2] : offset;
    if ((flags & (FLAG_ENCRYPTED | FLAG_STRONG_ENCRYPTION | FLAG_MASKED_DIRECTORY)) != 0) {
      throw new ModelFormatException(name, "encrypted entries are not supported");
    }
    if (method != ZipEntryRecord.STORED && method != ZipEntryRecord.DEFLATED) {
      throw new ModelFormatException(name, "compression method " + method + " is not supported (only stored and deflated)");
    }
    if (usize < 0 || csize < 0 || offset < 0 || offset >= cdOffset) {
      throw new EntrySizeException(name, "sizes or offset out of range (size " + usize + ", stored " + csize
          + ", at " + offset + ")");
    }
    return new ZipEntryRecord(name, flags, method, crc, csize, usize, offset);
  }

  private static String decodeName(byte[] raw, long index) throws ModelFormatException {
    try {
      return StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(raw))
          .toString();
    } catch (CharacterCodingException e) {
      throw new ModelFormatException("#" + index, "entry name is not valid UTF-8", e);
    }
  }

  static int utf8Length(String s) {
    return s.getBytes(StandardCharsets.UTF_8).length;
  }

  static ByteBuffer readAt(FileChannel ch, long pos, int len) throws IOException {
    ByteBuffer b = ByteBuffer.allocate(len).order(ByteOrder.LITTLE_ENDIAN);
    while (b.hasRemaining()) {
      int n = ch.read(b, pos + b.position());
      if (n < 0) {
        throw new ModelFormatException("", "file ends at " + (pos + b.position()) + ", inside a zip structure");
      }
    }
    return b.flip();
  }

  /** The entries in central-directory order. */
  public List<ZipEntryRecord> entries() {
    return entries;
  }

  /** The entry named {@code name}, compared case-insensitively. */
  public Optional<ZipEntryRecord> find(String name) {
    return Optional.ofNullable(byKey.get(EntryNames.key(name)));
  }

  /** The file's size in bytes. */
  public long fileSize() {
    return fileSize;
  }

  /** Where the last entry's stored bytes end: everything before is entries, everything after directory. */
  public long endOfEntries() {
    return endOfEntries;
  }

  /** Where the central directory starts. */
  public long centralDirectoryOffset() {
    return centralDirectoryOffset;
  }

  /** The channel, for bulk reads and memory-mapping of stored entries. */
  public FileChannel channel() {
    return channel;
  }

  /**
   * Where {@code e}'s stored bytes start, after reading and checking its local header against
   * the central directory.
   */
  public long dataStart(ZipEntryRecord e) throws IOException {
    Long known = dataStarts.get(e.name());
    if (known != null) {
      return known;
    }
    long at = e.localHeaderOffset();
    ByteBuffer h = readAt(channel, at, LOCAL_HEADER_SIZE);
    if (h.getInt(0) != LOCAL_SIG) {
      throw new ModelFormatException(e.name(), "no local file header at " + at);
    }
    int flags = h.getShort(6) & U16;
    int method = h.getShort(8) & U16;
    long crc = h.getInt(14) & U32;
    long csize = h.getInt(18) & U32;
    long usize = h.getInt(22) & U32;
    int nameLen = h.getShort(26) & U16;
    int extraLen = h.getShort(28) & U16;
    long boundary = nextBoundary.get(e.name());
    long start = at + LOCAL_HEADER_SIZE + nameLen + extraLen;
    if (start > boundary) {
      throw new EntrySizeException(e.name(), "local header runs into the next entry or the directory");
    }
    ByteBuffer rest = readAt(channel, at + LOCAL_HEADER_SIZE, nameLen + extraLen);
    byte[] rawName = new byte[nameLen];
    rest.get(0, rawName);
    if (!Arrays.equals(rawName, e.name().getBytes(StandardCharsets.UTF_8))) {
      throw new ModelFormatException(e.name(), "local header names '"
          + new String(rawName, StandardCharsets.UTF_8) + "', the central directory this entry");
    }
    if (method != e.method()) {
      throw new ModelFormatException(e.name(), "local header says compression method " + method
          + ", the central directory " + e.method());
    }
    if ((flags & 8) == 0) {
      ByteBuffer extra = rest.slice(nameLen, extraLen).order(ByteOrder.LITTLE_ENDIAN);
      long[] z64 = Zip64Extra.read(e.name(), extra, usize == U32, csize == U32, false, false);
      usize = z64[0] >= 0 ? z64[0] : usize;
      csize = z64[1] >= 0 ? z64[1] : csize;
      if (usize != e.size() || csize != e.compressedSize()) {
        throw new EntrySizeException(e.name(), "local header declares " + usize + " bytes (" + csize
            + " stored), the central directory " + e.size() + " (" + e.compressedSize() + " stored)");
      }
      if (crc != e.crc()) {
        throw new ChecksumMismatchException(e.name(), "local header and central directory disagree on the CRC-32");
      }
    }
    if (start + e.compressedSize() > boundary) {
      throw new EntrySizeException(e.name(), e.compressedSize() + " stored bytes from " + start
          + " run past " + boundary + ", where the next entry or the directory starts");
    }
    dataStarts.put(e.name(), start);
    return start;
  }

  /**
   * The whole uncompressed content of {@code e}, checked against its CRC-32.
   *
   * @param maxBytes the most bytes the caller accepts for this kind of entry
   */
  public byte[] read(ZipEntryRecord e, long maxBytes) throws IOException {
    if (e.size() > maxBytes) {
      throw new EntrySizeException(e.name(), "declares " + e.size() + " bytes, more than the "
          + maxBytes + " allowed for this entry");
    }
    if (e.compressedSize() > Integer.MAX_VALUE - 8) {
      throw new EntrySizeException(e.name(), "stores " + e.compressedSize() + " bytes, too many to read at once");
    }
    long start = dataStart(e);
    byte[] stored = new byte[(int) e.compressedSize()];
    ByteBuffer b = ByteBuffer.wrap(stored);
    while (b.hasRemaining()) {
      if (channel.read(b, start + b.position()) < 0) {
        throw new EntrySizeException(e.name(), "file ends inside the entry's data");
      }
    }
    byte[] out = e.method() == ZipEntryRecord.STORED ? stored : inflate(e, stored);
    CRC32 crc = new CRC32();
    crc.update(out);
    checkCrc(e, crc.getValue());
    return out;
  }

  private static byte[] inflate(ZipEntryRecord e, byte[] compressed) throws EntrySizeException {
    byte[] out = new byte[(int) e.size()];
    Inflater inf = new Inflater(true);
    try {
      inf.setInput(compressed);
      int n = 0;
      while (n < out.length && !inf.finished()) {
        int got = inf.inflate(out, n, out.length - n);
        if (got == 0 && (inf.needsInput() || inf.needsDictionary())) {
          break;
        }
        n += got;
      }
      if (n < out.length) {
        throw new EntrySizeException(e.name(), "inflates to only " + n + " of the declared " + e.size() + " bytes");
      }
      if (!inf.finished() && inf.inflate(new byte[1]) > 0) {
        throw new EntrySizeException(e.name(), "inflates to more than the declared " + e.size() + " bytes");
      }
      return out;
    } catch (DataFormatException ex) {
      throw new EntrySizeException(e.name(), "corrupt deflate data: " + ex.getMessage());
    } finally {
      inf.end();
    }
  }

  /** Throws unless {@code actual} is the CRC-32 the directory records for {@code e}. */
  public static void checkCrc(ZipEntryRecord e, long actual) throws ChecksumMismatchException {
    if (actual != e.crc()) {
      throw new ChecksumMismatchException(e.name(), "CRC-32 is %08x, the directory records %08x"
          .formatted(actual, e.crc()));
    }
  }

  /** Entries sorted by position, for copying the archive's prefix. */
  public List<ZipEntryRecord> entriesByOffset() {
    List<ZipEntryRecord> sorted = new ArrayList<>(entries);
    sorted.sort(Comparator.comparingLong(ZipEntryRecord::localHeaderOffset));
    return Collections.unmodifiableList(sorted);
  }

  @Override
  public void close() throws IOException {
    channel.close();
  }
}
