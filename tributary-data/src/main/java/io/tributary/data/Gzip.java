package io.tributary.data;

import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipException;

/** Recognises gzip input by its magic bytes rather than by a file name, and bounds its expansion. */
final class Gzip {
  private static final int MAGIC0 = 0x1f;
  private static final int MAGIC1 = 0x8b;

  private Gzip() {}

  /** True when {@code first} and {@code second} are the two bytes that open a gzip stream. */
  static boolean isMagic(int first, int second) {
    return first == MAGIC0 && second == MAGIC1;
  }

  /**
   * {@code in}, decompressed when it starts with the gzip magic, buffered either way; the
   * decompressed stream fails with a {@link DatasetFormatException} naming {@code source} once it
   * has produced more than {@code limits} allow for the compressed bytes read so far.
   */
  static InputStream maybeDecompress(InputStream in, GzipLimits limits, String source) throws IOException {
    BufferedInputStream b = new BufferedInputStream(in, 1 << 16);
    b.mark(2);
    int first = b.read();
    int second = b.read();
    b.reset();
    if (isMagic(first, second)) {
      Counting raw = new Counting(b);
      try {
        return new BufferedInputStream(new Bounded(new GZIPInputStream(raw, 1 << 16), raw, limits, source), 1 << 16);
      } catch (ZipException | EOFException e) {
        throw new DatasetFormatException(source, "corrupt gzip header: " + e.getMessage());
      }
    }
    return b;
  }

  /** Counts the compressed bytes that the inflater takes. */
  private static final class Counting extends FilterInputStream {
    long count;

    Counting(InputStream in) {
      super(in);
    }

    @Override
    public int read() throws IOException {
      int c = super.read();
      count += c >= 0 ? 1 : 0;
      return c;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      int n = super.read(b, off, len);
      count += Math.max(n, 0);
      return n;
    }

    @Override
    public long skip(long n) throws IOException {
      long k = super.skip(n);
      count += k;
      return k;
    }
  }

  /** Fails once the decompressed bytes pass what the limits allow for the compressed bytes read. */
  private static final class Bounded extends FilterInputStream {
    private final Counting raw;
    private final GzipLimits limits;
    private final String source;
    private long produced;

    Bounded(InputStream inflated, Counting raw, GzipLimits limits, String source) {
      super(inflated);
      this.raw = raw;
      this.limits = limits;
      this.source = source;
    }

    @Override
    public int read() throws IOException {
      byte[] one = new byte[1];
      int n = read(one, 0, 1);
      return n < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      int n;
      try {
        n = super.read(b, off, len);
      } catch (ZipException | EOFException e) {
        // Damage past the header: bad deflate blocks, a bad trailer, or a cut-off stream.
        DatasetFormatException bad =
            new DatasetFormatException(source, "corrupt gzip data: " + e.getMessage());
        bad.initCause(e);
        throw bad;
      }
      if (n > 0) {
        produced += n;
        if (produced > limits.maxBytes(raw.count)) {
          throw new DatasetFormatException(source, "gzip data " + limits.refusal(produced, raw.count));
        }
      }
      return n;
    }

    @Override
    public long skip(long n) throws IOException {
      int chunk = (int) Math.max(0, Math.min(n, 8192));
      return Math.max(0, read(new byte[chunk], 0, chunk));
    }
  }
}
