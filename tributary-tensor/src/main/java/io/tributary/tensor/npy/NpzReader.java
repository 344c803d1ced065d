package io.tributary.tensor.npy;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import java.util.Objects;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * Reads an NPZ archive on disk one entry at a time, handing each array on as the NPY bytes that
 * {@code np.save} writes for the tensor {@link Npz#read(Path, NpzReadOptions)} would return,
 * without holding the arrays in memory.
 *
 * <p>{@link #open} judges the archive as {@link Npz#read(Path, NpzReadOptions)} does (its central
 * directory, entry names, declared sizes and limits) and reads every entry's header, so that the
 * names and the NPY length of every array are known before any data is read. {@link #transferTo}
 * then reads the entries in order and writes each array's NPY to the stream a {@link Sink} gives
 * for it. Numeric little-endian row-major data (what {@code np.savez} and
 * {@code np.savez_compressed} write) is copied from the zip entry to the sink through a buffer of
 * 1 MiB, and never held whole; big-endian or Fortran-order arrays and string arrays are decoded
 * into one tensor at a time and re-encoded. Each entry's size and CRC are checked once its data
 * has been copied, so a sink should write somewhere that is discarded when this fails (such as
 * {@code AtomicFile}'s temporary file).
 *
 * <p>Problems of the archive are {@link NpyException}s naming the file and the entry, with the
 * messages {@link Npz#read(Path, NpzReadOptions)} gives; failures of the sink's streams come out
 * as they were thrown.
 */
public final class NpzReader implements Closeable {
  /** Where the NPY of each array goes. */
  @FunctionalInterface
  public interface Sink {
    /**
     * The stream for array {@code index}, which is then given exactly {@code npyLength} bytes; it
     * is not closed.
     */
    OutputStream next(int index, String name, long npyLength) throws IOException;
  }

  private final Path file;
  private final long size;
  private final NpzReadOptions options;
  private final ZipFile zip;
  private final List<ZipEntry> entries;
  private final List<String> names;
  private final List<Long> npyLengths;
  private boolean transferred;

  private NpzReader(Path file, long size, NpzReadOptions options, ZipFile zip, List<ZipEntry> entries,
      List<String> names, List<Long> npyLengths) {
    this.file = file;
    this.size = size;
    this.options = options;
    this.zip = zip;
    this.entries = entries;
    this.names = names;
    this.npyLengths = npyLengths;
  }

  /**
   * Opens the archive at {@code file} and reads every entry's header under {@code options}'
   * limits.
   *
   * @throws NpyException naming the file (and the entry) when the archive or a header is
   *     malformed, entries overlap, or they would expand past the limits
   */
  public static NpzReader open(Path file, NpzReadOptions options) throws IOException {
    Objects.requireNonNull(file, "file");
    Objects.requireNonNull(options, "options");
    long size = Files.size(file);
    ZipFile zip = null;
    try {
      ZipDirectory directory;
      try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
        directory = ZipDirectory.read(ch, options);
      }
      zip = Npz.open(file);
      NpzEntries scanned = new NpzEntries(options, size);
      List<ZipEntry> entries = new ArrayList<>();
      List<String> names = new ArrayList<>();
      List<Long> lengths = new ArrayList<>();
      Enumeration<? extends ZipEntry> all = zip.entries();
      while (all.hasMoreElements()) {
        ZipEntry e = all.nextElement();
        Npz.matchDirectory(e, directory.get(e.getName()));
        names.add(scanned.admit(e));
        try (InputStream in = zip.getInputStream(e)) {
          lengths.add(scanned.scan(e, in, size));
        }
        entries.add(e);
      }
      if (entries.size() != directory.size()) {
        throw new NpyException("the zip reader found " + entries.size() + " entries, the central directory lists "
            + directory.size());
      }
      NpzReader r = new NpzReader(file, size, options, zip, List.copyOf(entries),
          Collections.unmodifiableList(names), List.copyOf(lengths));
      zip = null;
      return r;
    } catch (NpyException e) {
      throw e.in(file.toString());
    } finally {
      if (zip != null) {
        zip.close();
      }
    }
  }

  /** The number of arrays. */
  public int size() {
    return entries.size();
  }

  /** The arrays' names (entry names without {@code .npy}), in entry order. */
  public List<String> names() {
    return names;
  }

  /** The length of each array's NPY, as {@link #transferTo} writes it, in entry order. */
  public List<Long> npyLengths() {
    return npyLengths;
  }

  /**
   * Reads every entry in order and writes its array's NPY to the stream {@code sink} gives for
   * it. Can be called once.
   *
   * @throws NpyException naming the file and the entry when an entry's data is malformed,
   *     truncated or disagrees with its declared size or CRC
   * @throws IOException as thrown by the sink or its streams
   */
  public void transferTo(Sink sink) throws IOException {
    Objects.requireNonNull(sink, "sink");
    if (transferred) {
      throw new IllegalStateException("the entries of " + file + " have been read already");
    }
    transferred = true;
    NpzEntries read = new NpzEntries(options, size);
    try {
      for (int i = 0; i < entries.size(); i++) {
        ZipEntry e = entries.get(i);
        String name = read.admit(e);
        int index = i;
        long expected = npyLengths.get(i);
        try (InputStream in = zip.getInputStream(e)) {
          read.read(name, e, in, size, (r, header) -> {
            if (r.isCanonicalData(header)) {
              byte[] preamble = r.canonicalPreamble(header);
              OutputStream out = next(sink, index, name, expected, preamble.length + r.dataLength(header));
              OutputFailure.write(out, preamble, 0, preamble.length);
              r.transferData(header, out);
            } else {
              NpyWriter w = NpyWriter.prepare(r.data(header), null);
              w.writeTo(OutputFailure.guard(next(sink, index, name, expected, w.totalLength())));
            }
            return null;
          });
        }
      }
    } catch (NpyException e) {
      throw e.in(file.toString());
    } catch (OutputFailure e) {
      throw e.getCause();
    }
  }

  private static OutputStream next(Sink sink, int index, String name, long expected, long length)
      throws NpyException {
    if (length != expected) {
      throw new NpyException("changed while it was read: its array now takes " + length + " bytes, not "
          + expected);
    }
    try {
      return sink.next(index, name, length);
    } catch (IOException e) {
      throw new OutputFailure(e);
    }
  }

  @Override
  public void close() throws IOException {
    zip.close();
  }
}
