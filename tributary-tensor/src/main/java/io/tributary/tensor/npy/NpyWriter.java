package io.tributary.tensor.npy;

import io.tributary.tensor.DType;
import io.tributary.tensor.Tensor;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * Encodes a tensor as NPY: a prepared preamble followed by the little-endian, row-major data.
 *
 * @param tensor the tensor, made contiguous so its data buffers are views, not fresh copies
 * @param preamble magic, version, header length and padded header dict
 * @param dataLength bytes of array data after the preamble
 * @param stringWidth code points per element for string tensors, else 0
 */
record NpyWriter(Tensor tensor, byte[] preamble, long dataLength, int stringWidth) {
  private static final int MAX_ARRAY = Integer.MAX_VALUE - 8;
  private static final int COPY_BLOCK = 1 << 20;

  /**
   * Prepares {@code t} for writing in {@code version}, or numpy's choice when null.
   *
   * @throws NpyUnsupportedDtypeException for bfloat16
   * @throws NpyException for a shape numpy could not read back (over 64 dimensions)
   */
  static NpyWriter prepare(Tensor t, NpyVersion version) throws NpyException {
    Objects.requireNonNull(t, "tensor");
    if (t.shape().rank() > NumpyShapes.MAX_RANK) {
      throw new NpyException("rank " + t.shape().rank() + " is over numpy's limit of " + NumpyShapes.MAX_RANK
          + " dimensions, so numpy could not read the file");
    }
    if (t.dtype() == DType.STRING) {
      int width = NpyStrings.width(t);
      if (width > MAX_ARRAY / 4) {
        throw new NpyException("a string element of " + width + " code points is too long for NPY");
      }
      long length;
      try {
        length = Math.multiplyExact(t.size(), width * 4L);
      } catch (ArithmeticException e) {
        throw new NpyException("string tensor " + t.shape() + " of width " + width + " is too large", e);
      }
      return new NpyWriter(t, HeaderFormat.preamble("<U" + width, t.shape(), version), length, width);
    }
    String descr = Descr.forFixedWidth(t.dtype());
    Tensor c = t.contiguous();
    return new NpyWriter(c, HeaderFormat.preamble(descr, c.shape(), version), c.byteSize(), 0);
  }

  long totalLength() {
    return preamble.length + dataLength;
  }

  /** The whole NPY file in one exactly sized array. */
  byte[] toArray() throws NpyException {
    long total = totalLength();
    if (total > MAX_ARRAY) {
      throw new NpyException("an NPY of " + total + " bytes does not fit in one byte array;"
          + " write it to a stream instead");
    }
    byte[] out = new byte[(int) total];
    System.arraycopy(preamble, 0, out, 0, preamble.length);
    int at = preamble.length;
    if (stringWidth > 0) {
      NpyStrings.encode(tensor, stringWidth, 0, tensor.size(), out, at);
    } else {
      for (ByteBuffer b : tensor.dataBuffers()) {
        int n = b.remaining();
        b.get(out, at, n);
        at += n;
      }
    }
    return out;
  }

  /** Writes the preamble and data to {@code out}, through a bounded copy buffer. */
  void writeTo(OutputStream out) throws IOException {
    out.write(preamble);
    if (stringWidth > 0) {
      NpyStrings.write(tensor, stringWidth, out);
      return;
    }
    byte[] block = new byte[(int) Math.min(COPY_BLOCK, dataLength)];
    for (ByteBuffer b : tensor.dataBuffers()) {
      while (b.hasRemaining()) {
        int n = Math.min(block.length, b.remaining());
        b.get(block, 0, n);
        out.write(block, 0, n);
      }
    }
  }
}
