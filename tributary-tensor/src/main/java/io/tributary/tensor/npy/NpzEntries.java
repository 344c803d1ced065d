package io.tributary.tensor.npy;

import io.tributary.tensor.Tensor;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Set;
import java.util.zip.CRC32;
import java.util.zip.CheckedInputStream;
import java.util.zip.ZipEntry;

/**
 * Checks and decodes the entries of one NPZ archive, in order.
 *
 * <p>Each entry's declared sizes are judged before its data is touched, and its data is checked
 * against them afterwards, so a lying archive is caught whichever zip reader supplied it.
 */
final class NpzEntries {
  private final LinkedHashMap<String, Tensor> arrays = new LinkedHashMap<>();
  private final Set<String> seen = new HashSet<>();
  private final NpzReadOptions options;
  private final long maxTotal;
  private long total;
  private long inflated;

  /** Entries of an archive of {@code archiveSize} bytes, read under {@code options}. */
  NpzEntries(NpzReadOptions options, long archiveSize) {
    this.options = options;
    this.maxTotal = options.maxTotalBytes(archiveSize);
  }

  LinkedHashMap<String, Tensor> arrays() {
    return arrays;
  }

  /**
   * Validates an entry's name and declared sizes; returns the array name (without {@code .npy}).
   */
  String admit(ZipEntry e) throws NpyException {
    String name = e.getName();
    if (e.isDirectory() || !name.endsWith(".npy")) {
      throw new NpyException("entry '" + name + "' is not a .npy array; NPZ archives hold only NAME.npy entries");
    }
    if (!seen.add(name)) {
      throw new NpyException("duplicate entry '" + name + "'");
    }
    long size = e.getSize();
    long compressed = e.getCompressedSize();
    switch (e.getMethod()) {
      case ZipEntry.STORED -> {
        if (size >= 0 && compressed >= 0 && size != compressed) {
          throw new NpyException("stored entry '" + name + "' declares " + size + " bytes but occupies "
              + compressed);
        }
      }
      case ZipEntry.DEFLATED -> {
        if (size >= 0 && compressed >= 0 && size > Npz.maxExpandedSize(compressed)) {
          throw new NpyException("entry '" + name + "' declares " + size + " bytes from " + compressed
              + " compressed bytes, a ratio deflate cannot produce");
        }
      }
      default -> throw new NpyException("entry '" + name + "' uses zip compression method " + e.getMethod()
          + "; only stored (0) and deflated (8) are supported");
    }
    if (size >= 0) {
      checkBudget("entry '" + name + "' declares", size, e.getMethod() == ZipEntry.DEFLATED);
    }
    return name.substring(0, name.length() - ".npy".length());
  }

  /**
   * Refuses an entry of {@code size} bytes when it would take the archive's entries past either
   * limit of the options.
   */
  private void checkBudget(String what, long size, boolean deflated) throws NpyException {
    if (ZipDirectory.saturatingAdd(total, size) > maxTotal) {
      throw new NpyException(what + " " + size + " bytes, which takes the entries past "
          + maxTotal + " bytes in total, over " + options.maxExpansionRatio()
          + " times the archive's size (raise NpzReadOptions.maxExpansionRatio to read it)");
    }
    if (deflated && ZipDirectory.saturatingAdd(inflated, size) > options.maxInflatedBytes()) {
      throw new NpyException(what + " " + size + " bytes, which takes the compressed"
          + " entries past " + options.maxInflatedBytes() + " bytes in total"
          + " (raise NpzReadOptions.maxInflatedBytes to read it)");
    }
  }

  /** What is done with one entry's array data once its header has been read and judged. */
  @FunctionalInterface
  interface Body {
    /**
     * Consumes exactly the array data that follows {@code header} from {@code r}.
     *
     * @return the decoded tensor to keep, or null when the data went elsewhere
     */
    Tensor data(NpyReader r, NpyReader.Parsed header) throws IOException;
  }

  /**
   * Decodes one entry's array from {@code raw}, its decompressed data.
   *
   * @param archiveLength the archive's size, which bounds entries whose sizes are not declared
   */
  void read(String key, ZipEntry e, InputStream raw, long archiveLength) throws NpyException {
    read(key, e, raw, archiveLength, NpyReader::data);
  }

  /**
   * Reads one entry as {@link #read(String, ZipEntry, InputStream, long)} does, but hands its
   * array data to {@code body}; the entry's sizes and CRC are checked after the body is done.
   * Failures to write that the body reports as {@link OutputFailure} pass through unchanged.
   */
  void read(String key, ZipEntry e, InputStream raw, long archiveLength, Body body) throws NpyException {
    String where = "entry '" + e.getName() + "'";
    long declared = e.getSize();
    long declaredCrc = e.getCrc();
    Counting counted = new Counting(raw);
    CheckedInputStream in = new CheckedInputStream(counted, new CRC32());
    boolean deflated = e.getMethod() == ZipEntry.DEFLATED;
    try {
      // The header says how many bytes the array takes; that is judged before it is allocated.
      NpyReader r = NpyReader.of(in, limit(e, archiveLength));
      NpyReader.Parsed header = r.header();
      checkBudget("expands to", r.position() + r.dataLength(header), deflated);
      Tensor t = body.data(r, header);
      if (in.read() >= 0) {
        throw new NpyException("holds more bytes than its array (declared size " + declared + ")");
      }
      if (declared >= 0 && counted.count != declared) {
        throw new NpyException("declares " + declared + " bytes but holds " + counted.count);
      }
      if (declaredCrc >= 0 && in.getChecksum().getValue() != declaredCrc) {
        throw new NpyException("CRC-32 mismatch: declared " + Long.toHexString(declaredCrc) + ", data has "
            + Long.toHexString(in.getChecksum().getValue()));
      }
      if (t != null) {
        arrays.put(key, t);
      }
      count(counted.count, deflated);
    } catch (NpyException ex) {
      throw ex.in(where);
    } catch (IOException ex) {
      // Zip-level failures (bad deflate data, early end) mean a corrupt archive, not a failing disk.
      throw new NpyException(where + ": corrupt entry data: " + describe(ex), ex);
    }
  }

  /**
   * Reads only the header of one entry (and the data of a string array, whose NPY width depends
   * on its elements), judging it as {@link #read} would; returns the length of the NPY that
   * {@code np.save} writes for the tensor {@link #read} returns. The entry's expected size counts
   * towards the limits, so that scanning every entry judges the archive as reading it would.
   */
  long scan(ZipEntry e, InputStream raw, long archiveLength) throws NpyException {
    String where = "entry '" + e.getName() + "'";
    boolean deflated = e.getMethod() == ZipEntry.DEFLATED;
    try {
      NpyReader r = NpyReader.of(raw, limit(e, archiveLength));
      NpyReader.Parsed header = r.header();
      long size = r.position() + r.dataLength(header);
      checkBudget("expands to", size, deflated);
      long npy = r.isString(header)
          ? NpyWriter.prepare(r.data(header), null).totalLength()
          : r.canonicalPreamble(header).length + r.dataLength(header);
      count(size, deflated);
      return npy;
    } catch (NpyException ex) {
      throw ex.in(where);
    } catch (IOException ex) {
      throw new NpyException(where + ": corrupt entry data: " + describe(ex), ex);
    }
  }

  private static long limit(ZipEntry e, long archiveLength) {
    long declared = e.getSize();
    long compressed = e.getCompressedSize() >= 0 ? e.getCompressedSize() : archiveLength;
    return declared >= 0 ? declared : Npz.maxExpandedSize(compressed);
  }

  private void count(long bytes, boolean deflated) {
    total = ZipDirectory.saturatingAdd(total, bytes);
    if (deflated) {
      inflated = ZipDirectory.saturatingAdd(inflated, bytes);
    }
  }

  /** An exception's message, or its type when it has none (as EOFException often does). */
  static String describe(Exception e) {
    return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
  }

  /** Counts the bytes that pass through. */
  private static final class Counting extends FilterInputStream {
    long count;

    Counting(InputStream in) {
      super(in);
    }

    @Override
    public int read() throws IOException {
      int b = super.read();
      if (b >= 0) {
        count++;
      }
      return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      int n = super.read(b, off, len);
      if (n > 0) {
        count += n;
      }
      return n;
    }

    @Override
    public long skip(long n) throws IOException {
      long k = super.skip(n);
      count += k;
      return k;
    }
  }
}
