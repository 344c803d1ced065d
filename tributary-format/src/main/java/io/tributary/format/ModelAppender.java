package io.tributary.format;

import io.tributary.format.ModelFile.Resolved;
import io.tributary.format.ModelWriter.Layout;
import io.tributary.format.internal.EntryNames;
import io.tributary.format.internal.TextEntries.Ref;
import io.tributary.format.internal.ZipArchive;
import io.tributary.format.internal.ZipEntryRecord;
import io.tributary.format.internal.ZipWriter;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32;

/**
 * Adds tags, one after another, to a model file kept open: the way to write a run's checkpoints,
 * where each tag costs the bytes of that tag, not of the file.
 *
 * <p>{@link #open} reads and checks the file once and keeps its index (tags, entries, where each
 * tag's arrays are) in memory; {@link #addTag} then writes in place, over the file's tail
 * ({@code tags.txt}, the central directory and the end records): the new tag's entries, a new
 * {@code tags.txt} and a new central directory that lists the earlier entries from the index. It
 * reads nothing of the earlier tags and copies none of their bytes. Only the tail, which names
 * every entry, grows with the number of tags.
 *
 * <p>A crash never loses the tags already there. Before the tail is overwritten, it is saved to
 * a journal beside the file ({@code .NAME.journal}) and made durable (the file and its folder are
 * fsynced); the file is fsynced once the new tag is written, and only then is the journal
 * removed. A write that fails is rolled back at once; one that was killed leaves the journal,
 * and {@link #recover} (which {@link #open} calls first) puts the saved tail back, leaving the
 * file as it was before that tag. Readers of a file that may have been left so, such as a resume
 * from checkpoints, call {@link #recover} before {@link ModelFile#open}. Only one writer may work
 * on a file at a time; the writer holds a lock on the journal while it exists, so {@link
 * #recover} leaves a live writer's journal alone.
 */
public final class ModelAppender implements Closeable {
  private static final long MAGIC = 0x314c4e52_4a425254L; // "TRBJRNL1", little-endian
  private static final int JOURNAL_HEADER = 8 + 8 + 8 + 4;

  private final Path journal;
  private final FileChannel channel;
  private final List<String> tags;
  private final List<ZipEntryRecord> entries;
  private final Map<String, Layout> layouts;
  /** Where the tail starts (the end of the last tag's entries) and where the file ends. */
  private long tailOffset;
  private long length;

  private ModelAppender(Path file, FileChannel channel, List<String> tags,
      List<ZipEntryRecord> entries, Map<String, Layout> layouts, long tailOffset, long length) {
    this.journal = journalOf(file);
    this.channel = channel;
    this.tags = tags;
    this.entries = entries;
    this.layouts = layouts;
    this.tailOffset = tailOffset;
    this.length = length;
  }

  /**
   * Opens the existing model {@code file} for adding tags, after {@link #recover} has undone an
   * interrupted addition; reads and checks the file's structure and every tag's references once.
   *
   * @throws ModelFormatException when the file is malformed
   * @throws IOException when it cannot be read or opened for writing
   */
  public static ModelAppender open(Path file) throws IOException {
    recover(file);
    // As every write into a folder does: temporary files of ModelWriter's writers that were
    // killed (the first checkpoint is one) go.
    Path folder = file.toAbsolutePath().getParent();
    if (folder != null) {
      AtomicFile.removeAbandoned(folder);
    }
    List<String> tags;
    List<ZipEntryRecord> kept = new ArrayList<>();
    Map<String, Layout> layouts = new HashMap<>();
    long tail = 0;
    long length;
    try (ModelFile m = ModelFile.open(file)) {
      tags = new ArrayList<>(m.tags());
      for (ModelTag t : m.allTags()) {
        layouts.put(EntryNames.key(t.name()), layoutOf(t));
      }
      ZipArchive zip = m.zip();
      for (ZipEntryRecord e : zip.entries()) {
        if (!e.name().equals(ModelFile.TAGS_ENTRY)) {
          kept.add(e);
          tail = Math.max(tail, zip.dataStart(e) + e.compressedSize());
        }
      }
      length = zip.fileSize();
    }
    FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
    return new ModelAppender(file, ch, tags, kept, layouts, tail, length);
  }

  private static Layout layoutOf(ModelTag t) {
    Map<String, Ref> params = new LinkedHashMap<>();
    for (Map.Entry<String, Resolved> e : t.resolvedParams().entrySet()) {
      params.put(e.getKey(), new Ref(e.getValue().owner(), e.getValue().index()));
    }
    Map<String, List<Ref>> updater = new LinkedHashMap<>();
    for (Map.Entry<String, List<Resolved>> e : t.resolvedUpdater().entrySet()) {
      List<Ref> refs = new ArrayList<>();
      for (Resolved r : e.getValue()) {
        refs.add(new Ref(r.owner(), r.index()));
      }
      updater.put(e.getKey(), refs);
    }
    return new Layout(t.name(), params, updater);
  }

  /** The file's tags, oldest first, including those added here. */
  public List<String> tags() {
    return List.copyOf(tags);
  }

  /** {@link #addTag(String, TagContents, SaveListener)} without a listener. */
  public void addTag(String tag, TagContents contents) throws IOException {
    addTag(tag, contents, SaveListener.none());
  }

  /**
   * Adds {@code tag}, as the newest, on disk when this returns. A tag may share arrays of any
   * earlier tag. The listener is told each entry with the file position after it.
   *
   * @throws IllegalArgumentException when the tag is invalid or already in the file (ignoring
   *     case)
   * @throws IOException when the tag cannot be written; the file then holds what it held before
   *     (or, when even putting the tail back failed, the journal from which {@link #recover} does)
   */
  public void addTag(String tag, TagContents contents, SaveListener listener) throws IOException {
    Tags.check(tag);
    Layout same = layouts.get(EntryNames.key(tag));
    if (same != null) {
      throw new IllegalArgumentException("the file already has tag '" + same.tag() + "'");
    }
    byte[] oldTail = read(channel, tailOffset, length - tailOffset);
    try (FileChannel j = FileChannel.open(journal, StandardOpenOption.CREATE_NEW,
        StandardOpenOption.WRITE)) {
      // Held until the journal is removed: recover leaves a live writer's journal alone.
      j.lock();
      j.write(journalBytes(tailOffset, length, oldTail));
      j.force(true);
      AtomicFile.syncFolder(journal.toAbsolutePath().getParent());
      ZipWriter z;
      Layout layout;
      try {
        z = new ZipWriter(channel, tailOffset);
        for (ZipEntryRecord e : entries) {
          z.keep(e);
        }
        layout = ModelWriter.writeTag(z, tag, contents, layouts, null, listener);
        List<ZipEntryRecord> written = z.entries();
        List<String> newTags = new ArrayList<>(tags);
        newTags.add(tag);
        long newTail = z.position();
        ModelWriter.finish(z, newTags, listener);
        channel.force(true);
        entries.clear();
        entries.addAll(written);
        tags.add(tag);
        layouts.put(EntryNames.key(tag), layout);
        tailOffset = newTail;
        length = z.position();
      } catch (IOException | RuntimeException e) {
        // Put the tail back now; when that fails too, the journal stays for recover.
        try {
          restore(channel, tailOffset, oldTail);
          Files.delete(journal);
          AtomicFile.syncFolder(journal.toAbsolutePath().getParent());
        } catch (IOException r) {
          e.addSuppressed(r);
        }
        throw e;
      }
      Files.delete(journal);
      AtomicFile.syncFolder(journal.toAbsolutePath().getParent());
    }
  }

  /**
   * Undoes an addition to {@code file} that was interrupted (its writer killed): puts back the
   * tail the journal saved and removes the journal, so the file holds the tags it held before.
   * Does nothing when there is no journal or a live writer holds it; removes a journal that was
   * itself cut short (its writer was killed before touching the file).
   *
   * @return true when the file was put back
   * @throws ModelFormatException when a whole journal does not fit the file
   * @throws IOException when the file or journal cannot be read or written
   */
  public static boolean recover(Path file) throws IOException {
    Path j = journalOf(file);
    if (!Files.exists(j)) {
      return false;
    }
    try (FileChannel jc = FileChannel.open(j, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      FileLock lock;
      try {
        lock = jc.tryLock();
      } catch (OverlappingFileLockException e) {
        return false;
      }
      if (lock == null) {
        return false;
      }
      long size = jc.size();
      Journal saved = size < JOURNAL_HEADER || size > Integer.MAX_VALUE ? null
          : parse(read(jc, 0, size));
      if (saved != null) {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ,
            StandardOpenOption.WRITE)) {
          if (ch.size() < saved.tailOffset()) {
            throw new ModelFormatException(j.getFileName().toString(), "saves the tail of "
                + file.getFileName() + " from byte " + saved.tailOffset() + ", but the file has "
                + ch.size() + " bytes");
          }
          restore(ch, saved.tailOffset(), saved.tail());
        } catch (NoSuchFileException e) {
          throw new ModelFormatException(j.getFileName().toString(), "is the journal of "
              + file.getFileName() + ", which is missing");
        }
      }
      Files.delete(j);
    }
    AtomicFile.syncFolder(j.toAbsolutePath().getParent());
    return true;
  }

  /** The journal of {@code file}: {@code .NAME.journal} in the same folder. */
  static Path journalOf(Path file) {
    return file.resolveSibling("." + file.getFileName() + ".journal");
  }

  private record Journal(long tailOffset, byte[] tail) {}

  private static ByteBuffer journalBytes(long tailOffset, long length, byte[] tail) {
    ByteBuffer b = ByteBuffer.allocate(JOURNAL_HEADER + tail.length).order(ByteOrder.LITTLE_ENDIAN);
    b.putLong(MAGIC).putLong(tailOffset).putLong(length);
    CRC32 crc = new CRC32();
    crc.update(b.array(), 8, 16);
    crc.update(tail);
    b.putInt((int) crc.getValue()).put(tail);
    return b.flip();
  }

  /** The journal's contents, or null when it was cut short or is not one. */
  private static Journal parse(byte[] bytes) {
    ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    if (b.getLong(0) != MAGIC) {
      return null;
    }
    long tailOffset = b.getLong(8);
    long length = b.getLong(16);
    if (tailOffset < 0 || length - tailOffset != bytes.length - JOURNAL_HEADER) {
      return null;
    }
    CRC32 crc = new CRC32();
    crc.update(bytes, 8, 16);
    crc.update(bytes, JOURNAL_HEADER, bytes.length - JOURNAL_HEADER);
    if ((int) crc.getValue() != b.getInt(24)) {
      return null;
    }
    byte[] tail = new byte[bytes.length - JOURNAL_HEADER];
    System.arraycopy(bytes, JOURNAL_HEADER, tail, 0, tail.length);
    return new Journal(tailOffset, tail);
  }

  private static void restore(FileChannel ch, long tailOffset, byte[] tail) throws IOException {
    ch.truncate(tailOffset);
    ByteBuffer b = ByteBuffer.wrap(tail);
    while (b.hasRemaining()) {
      ch.write(b, tailOffset + b.position());
    }
    ch.force(true);
  }

  private static byte[] read(FileChannel ch, long from, long count) throws IOException {
    if (count > Integer.MAX_VALUE - JOURNAL_HEADER) {
      throw new ModelFormatException("", "a tail of " + count + " bytes is too large to journal");
    }
    ByteBuffer b = ByteBuffer.allocate((int) count);
    while (b.hasRemaining()) {
      if (ch.read(b, from + b.position()) < 0) {
        throw new ModelFormatException("", "file ends at " + (from + b.position())
            + ", inside its tail");
      }
    }
    return b.array();
  }

  /** Closes the file; the tags added are on disk already. */
  @Override
  public void close() throws IOException {
    channel.close();
  }
}
