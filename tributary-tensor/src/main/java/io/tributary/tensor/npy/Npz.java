package io.tributary.tensor.npy;

import io.tributary.tensor.Tensor;
import java.io.BufferedOutputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.zip.CRC32;
import java.util.zip.CheckedOutputStream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipException;
import java.util.zip.ZipFile;
import java.util.zip.ZipInputStream;
import java.util.zip.ZipOutputStream;

/**
 * Reads and writes numpy's NPZ archives: zip files of {@code NAME.npy} entries, stored
 * ({@code np.savez}) or deflated ({@code np.savez_compressed}).
 *
 * <p>Entry order is kept. Reading refuses duplicate names, entries that are not {@code .npy},
 * entries whose data disagrees with the sizes or CRC the archive declares, compression ratios
 * beyond what deflate can produce, entries whose bytes overlap in the file, and archives whose
 * entries together would expand past the limits of {@link NpzReadOptions} (by default 100 times
 * the archive's size, and 4 GiB of deflated data); every size is judged before anything of that
 * size is allocated.
 */
public final class Npz {
  private static final String SUFFIX = ".npy";
  /** Deflate cannot expand data by more than 1032:1; a little slack covers tiny entries. */
  private static final long MAX_RATIO = 1032;
  private static final long RATIO_SLACK = 4096;
  /** A fixed timestamp keeps archives reproducible byte for byte. */
  private static final LocalDateTime ENTRY_TIME = LocalDateTime.of(1980, 1, 1, 0, 0);

  private Npz() {}

  /**
   * Reads every array of the archive at {@code file}, in entry order.
   *
   * @throws NpyException naming the file (and the entry) when the archive is malformed
   */
  public static LinkedHashMap<String, Tensor> read(Path file) throws IOException {
    return read(file, NpzReadOptions.defaults());
  }

  /**
   * Reads every array of the archive at {@code file}, in entry order, under {@code options}'
   * limits on expansion.
   *
   * @throws NpyException naming the file (and the entry) when the archive is malformed, its
   *     entries overlap, or they would expand past the limits
   */
  public static LinkedHashMap<String, Tensor> read(Path file, NpzReadOptions options) throws IOException {
    Objects.requireNonNull(file, "file");
    Objects.requireNonNull(options, "options");
    long size = Files.size(file);
    try {
      ZipDirectory directory;
      try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
        directory = ZipDirectory.read(ch, options);
      }
      return read(file, size, directory, options);
    } catch (NpyException e) {
      throw e.in(file.toString());
    }
  }

  private static LinkedHashMap<String, Tensor> read(Path file, long size, ZipDirectory directory,
      NpzReadOptions options) throws IOException {
    try (ZipFile zip = open(file)) {
      NpzEntries entries = new NpzEntries(options, size);
      Enumeration<? extends ZipEntry> all = zip.entries();
      int count = 0;
      while (all.hasMoreElements()) {
        ZipEntry e = all.nextElement();
        count++;
        matchDirectory(e, directory.get(e.getName()));
        String name = entries.admit(e);
        try (InputStream in = zip.getInputStream(e)) {
          entries.read(name, e, in, size);
        }
      }
      if (count != directory.size()) {
        throw new NpyException("the zip reader found " + count + " entries, the central directory lists "
            + directory.size());
      }
      return entries.arrays();
    }
  }

  /** Refuses an entry that the checked directory does not list with the same sizes. */
  static void matchDirectory(ZipEntry e, ZipDirectory.Entry checked) throws NpyException {
    if (checked == null || checked.size() != e.getSize() || checked.compressedSize() != e.getCompressedSize()) {
      throw new NpyException("entry '" + e.getName() + "' is not the one the central directory lists"
          + (checked == null ? "" : " (" + checked.size() + " bytes, " + checked.compressedSize() + " stored)"));
    }
  }

  static ZipFile open(Path file) throws IOException {
    try {
      return new ZipFile(file.toFile());
    } catch (ZipException e) {
      throw new NpyException("not a valid zip archive: " + NpzEntries.describe(e), e);
    }
  }

  /**
   * Reads every array of an archive held in memory, in entry order.
   *
   * @throws NpyException naming the entry when the archive is malformed
   */
  public static LinkedHashMap<String, Tensor> read(byte[] zip) throws IOException {
    return read(zip, NpzReadOptions.defaults());
  }

  /**
   * Reads every array of an archive held in memory, in entry order, under {@code options}'
   * limits on expansion. Entries are read in the order of their bytes, so none can share data.
   *
   * @throws NpyException naming the entry when the archive is malformed or would expand past the
   *     limits
   */
  public static LinkedHashMap<String, Tensor> read(byte[] zip, NpzReadOptions options) throws IOException {
    Objects.requireNonNull(zip, "zip");
    Objects.requireNonNull(options, "options");
    if (isEmptyArchive(zip)) {
      return new LinkedHashMap<>();
    }
    if (zip.length < 4 || zip[0] != 'P' || zip[1] != 'K' || zip[2] != 3 || zip[3] != 4) {
      throw new NpyException("not a zip archive: it does not start with a local file header (PK\\3\\4)");
    }
    NpzEntries entries = new NpzEntries(options, zip.length);
    try (ZipInputStream in = new ZipInputStream(new ByteArrayInputStream(zip))) {
      ZipEntry e;
      while ((e = nextEntry(in)) != null) {
        String name = entries.admit(e);
        entries.read(name, e, in, zip.length);
      }
    }
    if (entries.arrays().isEmpty()) {
      throw new NpyException("zip archive holds no readable entries");
    }
    return entries.arrays();
  }

  private static ZipEntry nextEntry(ZipInputStream in) throws NpyException {
    try {
      return in.getNextEntry();
    } catch (IOException | IllegalArgumentException e) {
      // ZipInputStream reports undecodable entry names with IllegalArgumentException.
      throw new NpyException("malformed zip entry header: " + NpzEntries.describe(e), e);
    }
  }

  /** True for the 22-byte archive with no entries that {@code np.savez} writes for no arrays. */
  private static boolean isEmptyArchive(byte[] zip) {
    return zip.length == 22 && zip[0] == 'P' && zip[1] == 'K' && zip[2] == 5 && zip[3] == 6
        && zip[8] == 0 && zip[9] == 0 && zip[10] == 0 && zip[11] == 0;
  }

  /**
   * Writes {@code arrays} to {@code file} as {@code np.savez} (or, when {@code compressed},
   * {@code np.savez_compressed}) would; each key becomes the entry {@code key.npy}.
   */
  public static void write(Path file, Map<String, Tensor> arrays, boolean compressed) throws IOException {
    List<Named> prepared = prepare(arrays);
    try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 16)) {
      write(prepared, out, compressed);
    }
  }

  /**
   * Writes the archive {@link #write(Path, Map, boolean)} would write to {@code out}, which it
   * closes when done (the zip stream's end needs that), so wrap a stream that must stay open.
   */
  public static void write(OutputStream out, Map<String, Tensor> arrays, boolean compressed) throws IOException {
    Objects.requireNonNull(out, "out");
    write(prepare(arrays), out, compressed);
  }

  /** The archive {@link #write(Path, Map, boolean)} would write, in memory. */
  public static byte[] toBytes(Map<String, Tensor> arrays, boolean compressed) throws IOException {
    List<Named> prepared = prepare(arrays);
    long estimate = 22;
    for (Named n : prepared) {
      estimate += n.writer().totalLength() + 2L * (n.entryName().length() + 100);
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream(
        (int) Math.min(compressed ? 1 << 16 : estimate, Integer.MAX_VALUE - 8));
    write(prepared, out, compressed);
    return out.toByteArray();
  }

  /** Names unnamed arrays as {@code np.savez} does: {@code arr_0}, {@code arr_1}, .... */
  public static LinkedHashMap<String, Tensor> named(List<Tensor> arrays) {
    LinkedHashMap<String, Tensor> out = new LinkedHashMap<>();
    for (int i = 0; i < arrays.size(); i++) {
      out.put("arr_" + i, Objects.requireNonNull(arrays.get(i), "array " + i));
    }
    return out;
  }

  private record Named(String entryName, NpyWriter writer) {}

  private static List<Named> prepare(Map<String, Tensor> arrays) throws NpyException {
    List<Named> out = new ArrayList<>();
    for (Map.Entry<String, Tensor> e : arrays.entrySet()) {
      String entry = Objects.requireNonNull(e.getKey(), "array name") + SUFFIX;
      try {
        out.add(new Named(entry, NpyWriter.prepare(e.getValue(), null)));
      } catch (NpyException ex) {
        throw ex.in("array '" + e.getKey() + "'");
      }
    }
    return out;
  }

  private static void write(List<Named> arrays, OutputStream sink, boolean compressed) throws IOException {
    ZipOutputStream zip = new ZipOutputStream(sink);
    for (Named n : arrays) {
      ZipEntry entry = new ZipEntry(n.entryName());
      entry.setTimeLocal(ENTRY_TIME);
      if (compressed) {
        entry.setMethod(ZipEntry.DEFLATED);
      } else {
        // Stored entries need their size and CRC up front; a first pass over the data gets them.
        CRC32 crc = new CRC32();
        n.writer().writeTo(new CheckedOutputStream(OutputStream.nullOutputStream(), crc));
        entry.setMethod(ZipEntry.STORED);
        entry.setSize(n.writer().totalLength());
        entry.setCompressedSize(n.writer().totalLength());
        entry.setCrc(crc.getValue());
      }
      zip.putNextEntry(entry);
      n.writer().writeTo(zip);
      zip.closeEntry();
    }
    // Closing also releases the deflater's native memory; callers' streams tolerate a close.
    zip.close();
  }

  static long maxExpandedSize(long compressed) {
    return compressed * MAX_RATIO + RATIO_SLACK;
  }
}
