package io.tributary.tensor.npy;

import io.tributary.tensor.Tensor;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * numpy's fixed-width strings: {@code U}n (n UTF-32 code units) and {@code S}n (n bytes, which
 * Tributary reads as UTF-8). Like numpy, trailing NULs are padding and are dropped on reading.
 */
final class NpyStrings {
  private static final int BLOCK_BYTES = 1 << 20;

  private NpyStrings() {}

  /** Decodes {@code count} elements laid out one after another from {@code raw[off]}. */
  static String[] decode(byte[] raw, int off, int count, Descr descr) throws NpyException {
    String[] out = new String[count];
    int item = descr.itemSize();
    if (descr.kind() == Descr.Kind.UNICODE) {
      ByteBuffer b = ByteBuffer.wrap(raw).order(descr.order());
      int[] points = new int[item / 4];
      for (int e = 0; e < count; e++) {
        int base = off + e * item;
        int used = 0;
        for (int k = 0; k < points.length; k++) {
          int cp = b.getInt(base + 4 * k);
          if (cp != 0) {
            if (!Character.isValidCodePoint(cp)) {
              throw new NpyException("element " + e + " of '" + descr.text() + "' holds 0x"
                  + Integer.toHexString(cp) + ", which is not a Unicode code point");
            }
            used = k + 1;
          }
          points[k] = cp;
        }
        out[e] = new String(points, 0, used);
      }
    } else {
      CharsetDecoder utf8 = StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT);
      for (int e = 0; e < count; e++) {
        int base = off + e * item;
        int end = item;
        while (end > 0 && raw[base + end - 1] == 0) {
          end--;
        }
        try {
          CharBuffer chars = utf8.decode(ByteBuffer.wrap(raw, base, end));
          out[e] = chars.toString();
        } catch (CharacterCodingException ex) {
          throw new NpyException("element " + e + " of byte-string dtype '" + descr.text()
              + "' is not valid UTF-8, so it cannot become a string element", ex);
        }
      }
    }
    return out;
  }

  /** numpy's width for these strings: the most code points in any element, at least 1. */
  static int width(Tensor t) {
    long n = t.size();
    int width = 1;
    for (long i = 0; i < n; i++) {
      String s = t.getString(i);
      width = Math.max(width, s.codePointCount(0, s.length()));
    }
    return width;
  }

  /** Writes elements {@code [from, to)} as little-endian UTF-32 into zeroed {@code dst}. */
  static void encode(Tensor t, int width, long from, long to, byte[] dst, int off) {
    ByteBuffer b = ByteBuffer.wrap(dst).order(ByteOrder.LITTLE_ENDIAN);
    int item = width * 4;
    for (long i = from; i < to; i++) {
      String s = t.getString(i);
      int at = off + (int) (i - from) * item;
      for (int k = 0; k < s.length(); ) {
        int cp = s.codePointAt(k);
        b.putInt(at, cp);
        at += 4;
        k += Character.charCount(cp);
      }
    }
  }

  /** Writes every element as little-endian UTF-32, {@code width} code points each. */
  static void write(Tensor t, int width, OutputStream out) throws IOException {
    long item = width * 4L;
    long n = t.size();
    long perBlock = Math.max(1, BLOCK_BYTES / item);
    byte[] block = new byte[(int) (Math.min(perBlock, Math.max(n, 1)) * item)];
    for (long from = 0; from < n; from += perBlock) {
      long to = Math.min(n, from + perBlock);
      int len = (int) ((to - from) * item);
      Arrays.fill(block, 0, len, (byte) 0);
      encode(t, width, from, to, block, 0);
      out.write(block, 0, len);
    }
  }
}
