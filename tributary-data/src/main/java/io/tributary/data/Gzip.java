package io.tributary.data;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.zip.GZIPInputStream;

/** Recognises gzip input by its magic bytes rather than by a file name. */
final class Gzip {
  private static final int MAGIC0 = 0x1f;
  private static final int MAGIC1 = 0x8b;

  private Gzip() {}

  /** True when {@code first} and {@code second} are the two bytes that open a gzip stream. */
  static boolean isMagic(int first, int second) {
    return first == MAGIC0 && second == MAGIC1;
  }

  /** {@code in}, decompressed when it starts with the gzip magic, buffered either way. */
  static InputStream maybeDecompress(InputStream in) throws IOException {
    BufferedInputStream b = new BufferedInputStream(in, 1 << 16);
    b.mark(2);
    int first = b.read();
    int second = b.read();
    b.reset();
    if (isMagic(first, second)) {
      return new BufferedInputStream(new GZIPInputStream(b, 1 << 16), 1 << 16);
    }
    return b;
  }
}
