package io.tributary.format.internal;

import io.tributary.format.EntrySizeException;
import io.tributary.format.internal.ArrayEntries.Header;
import io.tributary.tensor.DType;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.TensorBuilder;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.zip.CRC32;

/** Reads array entries: their headers, their data into memory, or their data memory-mapped. */
public final class ArrayReader {
  /** Bytes read first when looking for a header; most headers are far smaller. */
  private static final int FIRST_READ = 4096;

  /** Mapped pieces of a region over 2 GiB are this large (a power of two, as Tensor.wrap needs). */
  private static final long MAP_PIECE = 1L << 30;

  /**
   * Bytes moved at a time when loading. Small enough to stay in a core's L2 cache between the
   * copy that brings them in and the CRC-32 pass over them; with multi-megabyte slices they fall
   * out of cache and loading got about twice as slow (measured; see docs/benchmarks.md).
   */
  private static final int SLICE = 128 << 10;

  /** How {@link #load} moves an array's bytes from the file into the tensor. */
  public enum LoadPath {
    /**
     * Maps the data and copies it straight from the page cache into the tensor: one copy, where
     * reading costs two (the kernel's into a buffer, then the buffer's into the tensor). The
     * mapping lasts until the garbage collector drops it.
     */
    MAP_AND_COPY,
    /** Positional reads through a small direct buffer, then a copy into the tensor. */
    READ;

    /**
     * {@link #MAP_AND_COPY}, except on Windows, where a file cannot be replaced while a mapping of
     * it lasts, and the mappings of loads would make saving over a just-loaded file fail.
     */
    public static LoadPath platformDefault() {
      return System.getProperty("os.name", "").startsWith("Windows") ? READ : MAP_AND_COPY;
    }
  }

  private final ZipArchive zip;
  private final long maxInflatedEntry;
  private final LoadPath path;
  /**
   * One direct buffer reused from load to load: a fresh one per array costs more than reading the
   * array (the memory is zeroed and faulted in each time). Concurrent loads allocate their own.
   */
  private final AtomicReference<ByteBuffer> spare = new AtomicReference<>();

  /** A reader over {@code zip}, inflating deflated entries of at most {@code maxInflatedEntry} bytes. */
  public ArrayReader(ZipArchive zip, long maxInflatedEntry) {
    this(zip, maxInflatedEntry, LoadPath.platformDefault());
  }

  /** Like {@link #ArrayReader(ZipArchive, long)}, loading arrays by {@code path}. */
  public ArrayReader(ZipArchive zip, long maxInflatedEntry, LoadPath path) {
    this.zip = zip;
    this.maxInflatedEntry = Math.min(maxInflatedEntry, Integer.MAX_VALUE - 8);
    this.path = path;
  }

  /** The verified header of {@code e}; reads only the header's bytes of a stored entry. */
  public Header header(ZipEntryRecord e) throws IOException {
    if (e.method() != ZipEntryRecord.STORED) {
      return ArrayEntries.decode(e.name(), ByteBuffer.wrap(zip.read(e, maxInflatedEntry)), e.size());
    }
    return ArrayEntries.decode(e.name(), headerBytes(e), e.size());
  }

  private ByteBuffer headerBytes(ZipEntryRecord e) throws IOException {
    long start = zip.dataStart(e);
    int first = (int) Math.min(e.size(), FIRST_READ);
    ByteBuffer b = ZipArchive.readAt(zip.channel(), start, first);
    int total = ArrayEntries.headerLength(e.name(), b, e.size());
    if (total > first) {
      b = ZipArchive.readAt(zip.channel(), start, total);
    }
    return b;
  }

  /**
   * The array in {@code e}, read into memory (by this reader's {@link LoadPath}); with {@code
   * verify}, the entry's CRC-32 is checked on the way, over each slice while it is still in the
   * CPU's cache.
   */
  public Tensor load(ZipEntryRecord e, boolean verify) throws IOException {
    if (e.method() != ZipEntryRecord.STORED) {
      byte[] all = zip.read(e, maxInflatedEntry);
      Header h = ArrayEntries.decode(e.name(), ByteBuffer.wrap(all), e.size());
      return fromBytes(h, all);
    }
    Header h = header(e);
    if (h.dtype() == DType.STRING) {
      // The whole entry is header: read it at once, checking the CRC-32.
      byte[] all = zip.read(e, maxInflatedEntry);
      return fromBytes(ArrayEntries.decode(e.name(), ByteBuffer.wrap(all), e.size()), all);
    }
    long start = zip.dataStart(e);
    CRC32 crc = verify ? new CRC32() : null;
    TensorBuilder b = TensorBuilder.allocate(h.dtype(), h.shape());
    ByteBuffer staging = takeStaging();
    try {
      if (crc != null) {
        // The header and its padding count towards the entry's CRC-32 but are not kept.
        transfer(e, start, h.dataOffset(), null, crc, staging);
      }
      long at = start + h.dataOffset();
      for (ByteBuffer buf : b.writableBuffers()) {
        at = path == LoadPath.MAP_AND_COPY
            ? copyMapped(e, at, buf, crc)
            : transfer(e, at, buf.remaining(), buf, crc, staging);
      }
    } finally {
      spare.set(staging);
    }
    if (crc != null) {
      ZipArchive.checkCrc(e, crc.getValue());
    }
    return b.build();
  }

  /**
   * Reads {@code len} bytes at {@code at} through {@code staging} into {@code dst} (or nowhere),
   * adding them to {@code crc} (if any); returns the position after them.
   */
  private long transfer(ZipEntryRecord e, long at, long len, ByteBuffer dst, CRC32 crc, ByteBuffer staging)
      throws IOException {
    FileChannel ch = zip.channel();
    long end = at + len;
    while (at < end) {
      staging.clear().limit((int) Math.min(staging.capacity(), end - at));
      while (staging.hasRemaining()) {
        if (ch.read(staging, at + staging.position()) < 0) {
          throw new EntrySizeException(e.name(), "file ends inside the entry's data");
        }
      }
      staging.flip();
      at += staging.remaining();
      if (crc != null) {
        crc.update(staging.duplicate());
      }
      if (dst != null) {
        dst.put(staging);
      }
    }
    return at;
  }

  /**
   * Copies {@code dst.remaining()} bytes at {@code at} from a mapping of the file into {@code dst},
   * adding each slice to {@code crc} (if any) from {@code dst}, so that what is checked is what
   * the tensor holds; returns the position after them.
   */
  private long copyMapped(ZipEntryRecord e, long at, ByteBuffer dst, CRC32 crc) throws IOException {
    int len = dst.remaining();
    if (len == 0) {
      return at;
    }
    FileChannel ch = zip.channel();
    if (ch.size() < at + len) {
      throw new EntrySizeException(e.name(), "file ends inside the entry's data");
    }
    MappedByteBuffer src = ch.map(FileChannel.MapMode.READ_ONLY, at, len);
    try {
      for (int off = 0; off < len; off += SLICE) {
        int n = Math.min(SLICE, len - off);
        int p = dst.position();
        dst.put(src.slice(off, n));
        if (crc != null) {
          crc.update(dst.slice(p, n));
        }
      }
    } catch (InternalError err) {
      // The JVM reports a fault on a mapped page past the end of a file that shrank this way.
      if (ch.size() < at + len) {
        throw new EntrySizeException(e.name(), "file shrank while the entry's data was read", err);
      }
      throw err;
    }
    return at + len;
  }

  /** The spare staging buffer, or a new one while another thread holds it. */
  private ByteBuffer takeStaging() {
    ByteBuffer s = spare.getAndSet(null);
    return s != null ? s : ByteBuffer.allocateDirect(SLICE);
  }

  private static Tensor fromBytes(Header h, byte[] all) {
    if (h.dtype() == DType.STRING) {
      return Tensor.ofStrings(h.shape(), h.strings());
    }
    TensorBuilder b = TensorBuilder.allocate(h.dtype(), h.shape());
    b.putBytes(0, all, (int) h.dataOffset(), (int) h.dataLength());
    return b.build();
  }

  /**
   * The array in {@code e} as a read-only view of the memory-mapped file, without reading it
   * (the operating system pages it in on use). The CRC-32 is not checked, since that would read
   * it all. Deflated entries and string arrays cannot be mapped and are loaded instead.
   */
  public Tensor map(ZipEntryRecord e) throws IOException {
    Header h = header(e);
    if (e.method() != ZipEntryRecord.STORED || h.dtype() == DType.STRING) {
      return load(e, true);
    }
    long at = zip.dataStart(e) + h.dataOffset();
    long len = h.dataLength();
    if (len == 0) {
      return Tensor.zeros(h.dtype(), h.shape());
    }
    FileChannel ch = zip.channel();
    if (len <= Integer.MAX_VALUE) {
      return Tensor.wrap(h.dtype(), h.shape(), ch.map(FileChannel.MapMode.READ_ONLY, at, len));
    }
    List<ByteBuffer> pieces = new ArrayList<>();
    for (long off = 0; off < len; off += MAP_PIECE) {
      pieces.add(ch.map(FileChannel.MapMode.READ_ONLY, at + off, Math.min(MAP_PIECE, len - off)));
    }
    return Tensor.wrap(h.dtype(), h.shape(), pieces);
  }
}
