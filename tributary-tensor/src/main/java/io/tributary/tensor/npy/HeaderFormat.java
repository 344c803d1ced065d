package io.tributary.tensor.npy;

import io.tributary.tensor.Shape;
import java.nio.charset.StandardCharsets;

/**
 * Writes the NPY preamble (magic, version, header length, header dict) exactly as numpy's
 * {@code numpy.lib.format} does.
 *
 * <p>numpy sorts the keys, writes shapes in Python's tuple syntax, appends spare spaces so that
 * the first dimension can later grow to 21 digits in place, and pads with spaces and a final
 * newline so the data starts on a 64-byte boundary. Matching that byte for byte lets our files
 * be compared with {@code np.save}'s.
 */
final class HeaderFormat {
  static final byte[] MAGIC = {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y'};
  static final int ALIGN = 64;
  /** numpy reserves room for the longest decimal a 64-bit axis length could need. */
  private static final int GROWTH_AXIS_MAX_DIGITS = 21;

  private HeaderFormat() {}

  /**
   * The preamble for a C-order array.
   *
   * @param version the version to write, or null for numpy's choice: 1.0 when the header fits
   * @throws NpyException when the header does not fit the requested version
   */
  static byte[] preamble(String descr, Shape shape, NpyVersion version) throws NpyException {
    StringBuilder dict = new StringBuilder(96)
        .append("{'descr': '").append(descr)
        .append("', 'fortran_order': False, 'shape': ").append(shapeRepr(shape)).append(", }");
    if (shape.rank() > 0) {
      dict.repeat(' ', Math.max(0, GROWTH_AXIS_MAX_DIGITS - Long.toString(shape.dim(0)).length()));
    }
    byte[] text = dict.toString().getBytes(StandardCharsets.UTF_8);
    NpyVersion v = version;
    if (v == null) {
      v = paddedLength(text.length, NpyVersion.V1_0) <= NpyVersion.V1_0.maxHeaderLength()
          ? NpyVersion.V1_0 : NpyVersion.V2_0;
    }
    long headerLength = paddedLength(text.length, v);
    if (headerLength > v.maxHeaderLength()) {
      throw new NpyException("a header of " + headerLength + " bytes does not fit NPY format " + v
          + "; write format 2.0 instead");
    }
    int prefix = MAGIC.length + 2 + v.lengthFieldSize();
    byte[] out = new byte[Math.toIntExact(prefix + headerLength)];
    System.arraycopy(MAGIC, 0, out, 0, MAGIC.length);
    out[6] = (byte) v.major();
    out[7] = (byte) v.minor();
    for (int i = 0; i < v.lengthFieldSize(); i++) {
      out[8 + i] = (byte) (headerLength >>> (8 * i));
    }
    System.arraycopy(text, 0, out, prefix, text.length);
    for (int i = prefix + text.length; i < out.length - 1; i++) {
      out[i] = ' ';
    }
    out[out.length - 1] = '\n';
    return out;
  }

  /** The header length field's value: the dict plus padding plus the newline. */
  private static long paddedLength(int textLength, NpyVersion v) {
    int prefix = MAGIC.length + 2 + v.lengthFieldSize();
    long withNewline = textLength + 1L;
    // numpy pads a full ALIGN bytes, not zero, when the header already ends on a boundary.
    long pad = ALIGN - ((prefix + withNewline) % ALIGN);
    return withNewline + pad;
  }

  /** Python's repr of a tuple of ints: {@code ()}, {@code (5,)}, {@code (3, 4)}. */
  static String shapeRepr(Shape shape) {
    StringBuilder sb = new StringBuilder("(");
    for (int i = 0; i < shape.rank(); i++) {
      sb.append(i == 0 ? "" : ", ").append(shape.dim(i));
    }
    return sb.append(shape.rank() == 1 ? ",)" : ")").toString();
  }
}
