package io.tributary.format.internal;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32;

/**
 * Writes a zip file of stored (uncompressed) entries whose data can be aligned, with zip64
 * records wherever a size or offset needs them.
 *
 * <p>Padding for alignment goes into an extra field with Android zipalign's id 0xD935, which zip
 * readers skip. Entries copied from another archive keep their bytes; entries already present in
 * the output (a copied prefix) are only listed in the new central directory.
 */
public final class ZipWriter {
  /** The extra field that holds alignment padding (as Android's zipalign writes it). */
  static final int ALIGNMENT_EXTRA = 0xD935;

  /** The largest slice handed to the channel at once, so the JDK's temporary direct buffer stays small. */
  static final int IO_SLICE = 4 << 20;

  // DOS date 1980-01-01, time 00:00: files with the same content are byte-identical.
  private static final int DOS_TIME = 0;
  private static final int DOS_DATE = (1 << 5) | 1;
  private static final int FLAG_UTF8 = 1 << 11;
  private static final int UNIX_FILE_ATTRIBUTES = 0100644 << 16;

  private final FileChannel channel;
  private final List<ZipEntryRecord> written = new ArrayList<>();
  private long position;
  private boolean finished;

  /** A writer that starts writing at {@code position} of {@code channel}. */
  public ZipWriter(FileChannel channel, long position) {
    this.channel = channel;
    this.position = position;
  }

  /** Where the next byte goes. */
  public long position() {
    return position;
  }

  /** The entries the central directory will list so far, in order. */
  public List<ZipEntryRecord> entries() {
    return List.copyOf(written);
  }

  /** Lists {@code e}, whose bytes are already in the output at its offset, in the directory. */
  public void keep(ZipEntryRecord e) {
    written.add(e);
  }

  /**
   * Starts a stored entry of exactly {@code size} bytes; the byte at {@code alignedOffset} of its
   * data will sit at a file position that is a multiple of {@code alignment} (a power of two, at least 8).
   */
  public EntryOutput begin(String name, long size, int alignment, long alignedOffset) throws IOException {
    check();
    return new EntryOutput(name, size, alignment, alignedOffset);
  }

  /** Writes a whole small entry. */
  public void addSmall(String name, byte[] data, int alignment) throws IOException {
    try (EntryOutput out = begin(name, data.length, alignment, 0)) {
      out.write(data, 0, data.length);
    }
  }

  /**
   * Copies {@code e} from {@code source} (stored or deflated bytes as they are) under
   * {@code newName}, aligning the byte at {@code alignedOffset} of its data as {@link #begin} does.
   */
  public void copy(ZipArchive source, ZipEntryRecord e, String newName, int alignment, long alignedOffset)
      throws IOException {
    check();
    long from = source.dataStart(e);
    long headerAt = position;
    writeLocalHeader(newName, e.method(), e.crc(), e.compressedSize(), e.size(), alignment, alignedOffset);
    transfer(source.channel(), from, e.compressedSize());
    written.add(new ZipEntryRecord(newName, FLAG_UTF8, e.method(), e.crc(), e.compressedSize(), e.size(), headerAt));
  }

  /** Copies {@code count} bytes from {@code source} at {@code from} to the current position. */
  public void transfer(FileChannel source, long from, long count) throws IOException {
    long done = 0;
    while (done < count) {
      long n = source.transferTo(from + done, count - done, channel.position(position + done));
      if (n <= 0) {
        throw new IOException("source ended after " + done + " of " + count + " bytes");
      }
      done += n;
    }
    position += count;
  }

  private void writeLocalHeader(String name, int method, long crc, long csize, long size, int alignment,
      long alignedOffset) throws IOException {
    byte[] rawName = name.getBytes(StandardCharsets.UTF_8);
    boolean zip64 = size >= ZipArchive.U32 || csize >= ZipArchive.U32;
    int zip64Len = zip64 ? 20 : 0;
    long headerEnd = position + ZipArchive.LOCAL_HEADER_SIZE + rawName.length + zip64Len;
    int pad = (int) Math.floorMod(-(headerEnd + alignedOffset), (long) alignment);
    if (pad > 0 && pad < 6) {
      pad += alignment;
    }
    ByteBuffer h = ByteBuffer.allocate(ZipArchive.LOCAL_HEADER_SIZE + rawName.length + zip64Len + pad)
        .order(ByteOrder.LITTLE_ENDIAN);
    h.putInt(ZipArchive.LOCAL_SIG).putShort((short) (zip64 ? 45 : 20)).putShort((short) FLAG_UTF8)
        .putShort((short) method).putShort((short) DOS_TIME).putShort((short) DOS_DATE).putInt((int) crc)
        .putInt((int) (zip64 ? ZipArchive.U32 : csize)).putInt((int) (zip64 ? ZipArchive.U32 : size))
        .putShort((short) rawName.length).putShort((short) (zip64Len + pad)).put(rawName);
    if (zip64) {
      h.putShort((short) ZipArchive.ZIP64_EXTRA).putShort((short) 16).putLong(size).putLong(csize);
    }
    if (pad > 0) {
      h.putShort((short) ALIGNMENT_EXTRA).putShort((short) (pad - 4)).putShort((short) alignment);
    }
    writeFully(h.clear(), position);
    position += h.capacity();
  }

  private void writeFully(ByteBuffer b, long at) throws IOException {
    long p = at;
    while (b.hasRemaining()) {
      p += channel.write(b, p);
    }
  }

  /** Writes the central directory and end records; the writer can no longer be used. */
  public void finish() throws IOException {
    check();
    finished = true;
    long cdOffset = position;
    for (ZipEntryRecord e : written) {
      writeCentral(e);
    }
    long cdSize = position - cdOffset;
    int count = written.size();
    boolean zip64 = count >= ZipArchive.U16 || cdSize >= ZipArchive.U32 || cdOffset >= ZipArchive.U32;
    ByteBuffer end = ByteBuffer.allocate(
            (zip64 ? ZipArchive.ZIP64_EOCD_SIZE + ZipArchive.ZIP64_LOCATOR_SIZE : 0) + ZipArchive.EOCD_SIZE)
        .order(ByteOrder.LITTLE_ENDIAN);
    if (zip64) {
      long z64 = position;
      end.putInt(ZipArchive.ZIP64_EOCD_SIG).putLong(ZipArchive.ZIP64_EOCD_SIZE - 12).putShort((short) 45)
          .putShort((short) 45).putInt(0).putInt(0).putLong(count).putLong(count).putLong(cdSize).putLong(cdOffset);
      end.putInt(ZipArchive.ZIP64_LOCATOR_SIG).putInt(0).putLong(z64).putInt(1);
    }
    end.putInt(ZipArchive.EOCD_SIG).putShort((short) 0).putShort((short) 0)
        .putShort((short) Math.min(count, ZipArchive.U16)).putShort((short) Math.min(count, ZipArchive.U16))
        .putInt((int) Math.min(cdSize, ZipArchive.U32)).putInt((int) Math.min(cdOffset, ZipArchive.U32))
        .putShort((short) 0);
    writeFully(end.clear(), position);
    position += end.capacity();
    channel.truncate(position);
  }

  private void writeCentral(ZipEntryRecord e) throws IOException {
    byte[] rawName = e.name().getBytes(StandardCharsets.UTF_8);
    boolean bigSize = e.size() >= ZipArchive.U32;
    boolean bigCsize = e.compressedSize() >= ZipArchive.U32;
    boolean bigOffset = e.localHeaderOffset() >= ZipArchive.U32;
    int zip64Data = 8 * ((bigSize ? 1 : 0) + (bigCsize ? 1 : 0) + (bigOffset ? 1 : 0));
    int extraLen = zip64Data > 0 ? 4 + zip64Data : 0;
    int version = zip64Data > 0 ? 45 : 20;
    ByteBuffer c = ByteBuffer.allocate(ZipArchive.CENTRAL_HEADER_SIZE + rawName.length + extraLen)
        .order(ByteOrder.LITTLE_ENDIAN);
    c.putInt(ZipArchive.CENTRAL_SIG).putShort((short) ((3 << 8) | 45)).putShort((short) version)
        .putShort((short) (e.flags() | FLAG_UTF8)).putShort((short) e.method()).putShort((short) DOS_TIME)
        .putShort((short) DOS_DATE).putInt((int) e.crc())
        .putInt((int) (bigCsize ? ZipArchive.U32 : e.compressedSize()))
        .putInt((int) (bigSize ? ZipArchive.U32 : e.size()))
        .putShort((short) rawName.length).putShort((short) extraLen).putShort((short) 0).putShort((short) 0)
        .putShort((short) 0).putInt(UNIX_FILE_ATTRIBUTES)
        .putInt((int) (bigOffset ? ZipArchive.U32 : e.localHeaderOffset())).put(rawName);
    if (extraLen > 0) {
      c.putShort((short) ZipArchive.ZIP64_EXTRA).putShort((short) zip64Data);
      if (bigSize) {
        c.putLong(e.size());
      }
      if (bigCsize) {
        c.putLong(e.compressedSize());
      }
      if (bigOffset) {
        c.putLong(e.localHeaderOffset());
      }
    }
    writeFully(c.clear(), position);
    position += c.capacity();
  }

  private void check() {
    if (finished) {
      throw new IllegalStateException("zip already finished");
    }
  }

  /**
   * The data of one stored entry being written: exactly the declared number of bytes, after
   * which {@link #close()} records the CRC-32 in the local header.
   */
  public final class EntryOutput extends OutputStream {
    private final String name;
    private final long size;
    private final long headerAt;
    private final long dataAt;
    private final CRC32 crc = new CRC32();
    private long count;
    private boolean closed;

    private EntryOutput(String name, long size, int alignment, long alignedOffset) throws IOException {
      this.name = name;
      this.size = size;
      this.headerAt = position;
      writeLocalHeader(name, ZipEntryRecord.STORED, 0, size, size, alignment, alignedOffset);
      this.dataAt = position;
    }

    @Override
    public void write(int b) throws IOException {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      crc.update(b, off, len);
      for (int done = 0; done < len; ) {
        int n = Math.min(IO_SLICE, len - done);
        put(ByteBuffer.wrap(b, off + done, n));
        done += n;
      }
    }

    /** Writes the remaining bytes of {@code b}, leaving its position at its limit. */
    public void write(ByteBuffer b) throws IOException {
      ByteBuffer view = b.duplicate();
      crc.update(view);
      while (b.hasRemaining()) {
        ByteBuffer slice = b.slice(b.position(), Math.min(IO_SLICE, b.remaining()));
        put(slice);
        b.position(b.position() + slice.capacity());
      }
    }

    private void put(ByteBuffer b) throws IOException {
      int n = b.remaining();
      if (count + n > size) {
        throw new IllegalStateException(name + ": more than the declared " + size + " bytes written");
      }
      writeFully(b, dataAt + count);
      count += n;
      position = dataAt + count;
    }

    /** Where this entry's data starts in the file. */
    public long dataPosition() {
      return dataAt;
    }

    @Override
    public void close() throws IOException {
      if (closed) {
        return;
      }
      closed = true;
      if (count != size) {
        throw new IllegalStateException(name + ": " + count + " bytes written, " + size + " declared");
      }
      ByteBuffer c = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(0, (int) crc.getValue());
      writeFully(c, headerAt + 14);
      written.add(new ZipEntryRecord(name, FLAG_UTF8, ZipEntryRecord.STORED, crc.getValue(), size, size, headerAt));
    }
  }
}
