package io.tributary.tensor.npy;

import io.tributary.tensor.DType;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.TensorBuilder;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

/**
 * Decodes one NPY array from a byte array or from a stream with a known byte limit.
 *
 * <p>Every length read from the input is checked against the bytes that can still be there
 * before anything of that length is allocated, so a header claiming a terabyte fails at once.
 * Stream input is consumed exactly up to the end of the array and never beyond.
 */
final class NpyReader {
  /** numpy refuses headers over 10000 characters by default; we allow more, but not unbounded. */
  static final int MAX_HEADER_BYTES = 1 << 20;
  private static final int MAX_ARRAY = Integer.MAX_VALUE - 8;
  private static final int TRANSFER_BLOCK = 1 << 20;

  private final byte[] array;
  private final InputStream in;
  private final long limit;
  private final boolean view;
  private long pos;

  private NpyReader(byte[] array, InputStream in, long limit, boolean view) {
    this.array = array;
    this.in = in;
    this.limit = limit;
    this.view = view;
  }

  static NpyReader of(byte[] npy) {
    return new NpyReader(npy, null, npy.length, false);
  }

  /** A reader whose tensors view {@code npy}'s data bytes where the layout allows it. */
  static NpyReader viewing(byte[] npy) {
    return new NpyReader(npy, null, npy.length, true);
  }

  /** A reader of at most {@code maxBytes} from {@code in}. */
  static NpyReader of(InputStream in, long maxBytes) {
    if (maxBytes < 0) {
      throw new IllegalArgumentException("maxBytes must not be negative: " + maxBytes);
    }
    return new NpyReader(null, in, maxBytes, false);
  }

  /** Bytes consumed so far. */
  long position() {
    return pos;
  }

  /** Bytes that may still follow within the limit. */
  long remaining() {
    return limit - pos;
  }

  /** A parsed header together with the dict details the public record leaves out. */
  record Parsed(NpyHeader header, HeaderDict dict) {}

  Parsed header() throws IOException {
    byte[] magic = take(HeaderFormat.MAGIC.length + 2, "the magic string");
    if (!Arrays.equals(magic, 0, HeaderFormat.MAGIC.length, HeaderFormat.MAGIC, 0, HeaderFormat.MAGIC.length)) {
      throw new NpyException("not an NPY array: expected the magic string 93 4e 55 4d 50 59 (\\x93NUMPY),"
          + " found " + HexFormat.ofDelimiter(" ").formatHex(magic, 0, HeaderFormat.MAGIC.length));
    }
    NpyVersion version = NpyVersion.of(magic[6] & 0xFF, magic[7] & 0xFF);
    byte[] lengthField = take(version.lengthFieldSize(), "the header length");
    long length = 0;
    for (int i = 0; i < lengthField.length; i++) {
      length |= (lengthField[i] & 0xFFL) << (8 * i);
    }
    if (length > MAX_HEADER_BYTES) {
      throw new NpyException("header length " + length + " exceeds the limit of " + MAX_HEADER_BYTES + " bytes");
    }
    byte[] raw = take((int) length, "the header");
    String text;
    try {
      text = version.headerCharset().newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(raw)).toString();
    } catch (CharacterCodingException e) {
      throw new NpyException("header of NPY " + version + " is not valid " + version.headerCharset(), e);
    }
    HeaderDict dict = HeaderParser.parse(text);
    NpyHeader header = new NpyHeader(version, dict.descr(), dict.fortranOrder(), dict.shape(), (int) pos);
    return new Parsed(header, dict);
  }

  /**
   * The bytes of array data that follow {@code parsed}'s header, after checking its dtype and
   * that numpy could create its shape.
   */
  long dataLength(Parsed parsed) throws NpyException {
    HeaderDict dict = parsed.dict();
    Descr descr = Descr.parse(dict.descr(), dict.descrIsString());
    Shape shape = dict.shape();
    String problem = NumpyShapes.problem(shape.dims(), descr.itemSize());
    if (problem != null) {
      throw new NpyException("'" + descr.text() + "': " + problem);
    }
    // Within 2^63 - 1 by the check above.
    return shape.size() * descr.itemSize();
  }

  /**
   * True when the data after {@code parsed}'s header is already what {@link NpyWriter} writes for
   * the tensor {@link #data} would return: numeric, little-endian (or single-byte) and row-major.
   * Such data can be copied as it is, without decoding.
   */
  boolean isCanonicalData(Parsed parsed) throws NpyException {
    HeaderDict dict = parsed.dict();
    Descr descr = Descr.parse(dict.descr(), dict.descrIsString());
    return descr.kind() == Descr.Kind.NUMERIC && !descr.needsSwap()
        && !(dict.fortranOrder() && dict.shape().rank() > 1);
  }

  /** True for string arrays, whose NPY as {@link NpyWriter} writes it depends on the elements. */
  boolean isString(Parsed parsed) throws NpyException {
    HeaderDict dict = parsed.dict();
    return Descr.parse(dict.descr(), dict.descrIsString()).dtype() == DType.STRING;
  }

  /**
   * The preamble {@link NpyWriter} writes for the tensor {@link #data} would return from a
   * numeric array: numpy's header for the little-endian, C-order descr of the same dtype.
   */
  byte[] canonicalPreamble(Parsed parsed) throws NpyException {
    HeaderDict dict = parsed.dict();
    Descr descr = Descr.parse(dict.descr(), dict.descrIsString());
    return HeaderFormat.preamble(Descr.forFixedWidth(descr.dtype()), dict.shape(), null);
  }

  /**
   * Copies the array data that follows {@code parsed}'s header to {@code out} as it is, through a
   * bounded buffer, with the checks {@link #data} makes on its length. Failures to write to
   * {@code out} come out as {@link OutputFailure}, so that callers can tell them from bad input.
   */
  void transferData(Parsed parsed, OutputStream out) throws IOException {
    HeaderDict dict = parsed.dict();
    Descr descr = Descr.parse(dict.descr(), dict.descrIsString());
    long length = dataLength(parsed);
    if (length > remaining()) {
      throw new NpyException("truncated: shape " + HeaderFormat.shapeRepr(dict.shape()) + " of '"
          + descr.text() + "' needs " + length + " bytes of data but only " + remaining()
          + " follow the header");
    }
    byte[] block = array != null ? null : new byte[(int) Math.min(TRANSFER_BLOCK, Math.max(length, 1))];
    long done = 0;
    while (done < length) {
      int want = (int) Math.min(TRANSFER_BLOCK, length - done);
      if (array != null) {
        OutputFailure.write(out, array, (int) (pos + done), want);
        done += want;
        continue;
      }
      int n = in.read(block, 0, want);
      if (n < 0) {
        throw new NpyException("truncated array data: data ends after " + done + " of " + length + " bytes");
      }
      OutputFailure.write(out, block, 0, n);
      done += n;
    }
    pos += length;
  }

  /** Reads the array data that follows {@code parsed}'s header. */
  Tensor data(Parsed parsed) throws IOException {
    HeaderDict dict = parsed.dict();
    Descr descr = Descr.parse(dict.descr(), dict.descrIsString());
    Shape shape = dict.shape();
    long count = shape.size();
    long length = dataLength(parsed);
    if (length > remaining()) {
      throw new NpyException("truncated: shape " + HeaderFormat.shapeRepr(shape) + " of '" + descr.text()
          + "' needs " + length + " bytes of data but only " + remaining() + " follow the header");
    }
    long heap = Runtime.getRuntime().maxMemory();
    if (length > heap) {
      throw new NpyException("shape " + HeaderFormat.shapeRepr(shape) + " of '" + descr.text() + "' needs "
          + length + " bytes, more than this JVM's whole heap (" + heap + " bytes)");
    }
    boolean transposed = dict.fortranOrder() && shape.rank() > 1;
    if (descr.dtype() == DType.STRING) {
      return strings(descr, shape, count, length, transposed);
    }
    if (view && !transposed && !descr.needsSwap()) {
      // Already our layout: the tensor is a read-only window on the input, no copy.
      ByteBuffer window = ByteBuffer.wrap(array, (int) pos, (int) length).asReadOnlyBuffer();
      pos += length;
      return Tensor.wrap(descr.dtype(), shape, window);
    }
    TensorBuilder b = TensorBuilder.allocate(descr.dtype(), shape);
    if (transposed) {
      // Column-major data is reordered on its way into storage, straight from the input array
      // when there is one, else from a staging copy of the stream's bytes.
      List<ByteBuffer> source;
      if (array != null) {
        source = List.of(ByteBuffer.wrap(array, (int) pos, (int) length).slice().order(ByteOrder.LITTLE_ENDIAN));
      } else {
        TensorBuilder staging = TensorBuilder.allocate(descr.dtype(), shape);
        fill(staging);
        source = staging.writableBuffers();
      }
      Layouts.fortranToC(source, shape, descr.itemSize(), b.writableBuffers());
    } else if (array != null) {
      b.putBytes(0, array, (int) pos, (int) length);
    } else {
      fill(b);
    }
    pos += length;
    if (descr.needsSwap()) {
      Layouts.swapBytes(b.writableBuffers(), descr.swapUnit());
    }
    return b.build();
  }

  private void fill(TensorBuilder b) throws IOException {
    try {
      b.readFully(in);
    } catch (EOFException e) {
      throw new NpyException("truncated array data: " + e.getMessage(), e);
    }
  }

  private Tensor strings(Descr descr, Shape shape, long count, long length, boolean transposed)
      throws IOException {
    if (count > MAX_ARRAY) {
      throw new NpyException("string array of " + count + " elements is too large for a string tensor");
    }
    if (descr.itemSize() == 0 && count > limit) {
      throw new NpyException("zero-width string array '" + descr.text() + "' claims " + count
          + " elements in an input of " + limit + " bytes");
    }
    if (length > MAX_ARRAY) {
      throw new NpyException("string array data of " + length + " bytes is too large to decode");
    }
    byte[] raw;
    int off;
    if (array != null) {
      raw = array;
      off = (int) pos;
    } else {
      raw = in.readNBytes((int) length);
      off = 0;
      if (raw.length < length) {
        throw new NpyException("truncated array data: data ends after " + raw.length + " of " + length + " bytes");
      }
    }
    pos += length;
    String[] values = NpyStrings.decode(raw, off, (int) count, descr);
    TensorBuilder b = TensorBuilder.allocate(DType.STRING, shape);
    if (transposed) {
      Layouts.fortranToC(values, shape, b);
    } else {
      for (int i = 0; i < values.length; i++) {
        b.setString(i, values[i]);
      }
    }
    return b.build();
  }

  private byte[] take(int n, String what) throws IOException {
    if (n > remaining()) {
      throw new NpyException("truncated: input ends inside " + what + " (" + n + " bytes needed, "
          + remaining() + " left of " + limit + ")");
    }
    byte[] out;
    if (array != null) {
      out = Arrays.copyOfRange(array, (int) pos, (int) pos + n);
    } else {
      out = in.readNBytes(n);
      if (out.length < n) {
        throw new NpyException("truncated: input ends inside " + what + " (" + n + " bytes needed, "
            + out.length + " read)");
      }
    }
    pos += n;
    return out;
  }
}
