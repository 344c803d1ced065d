package io.tributary.format.internal;

import com.google.flatbuffers.FlatBufferBuilder;
import io.tributary.format.EntrySizeException;
import io.tributary.format.FlatBufferVerificationException;
import io.tributary.format.ModelFile;
import io.tributary.format.ModelFormatException;
import io.tributary.format.UnsupportedFormatVersionException;
import io.tributary.format.internal.fb.ArrayHeader;
import io.tributary.format.internal.fb.DataType;
import io.tributary.tensor.DType;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Encodes and decodes the header of an array entry ({@code params/N.fb}, {@code updater/N.fb}).
 *
 * <p>An array entry is a size-prefixed FlatBuffer {@code ArrayHeader} (identifier {@code TRAR}),
 * zero padding, then the raw little-endian row-major element bytes at {@code data_offset}, which
 * is a multiple of {@link #DATA_OFFSET_ALIGNMENT}. String arrays keep their elements in the
 * header and have no raw bytes.
 */
public final class ArrayEntries {
  /** The header's file identifier. */
  public static final String IDENTIFIER = "TRAR";

  /** The raw data's offset within the entry is a multiple of this. */
  public static final int DATA_OFFSET_ALIGNMENT = 64;

  /** The most dimensions an array may have; more is a sign of a hostile header. */
  public static final int MAX_RANK = 64;

  private ArrayEntries() {}

  /** The header bytes of {@code t}'s entry, zero-padded to where its raw data starts. */
  public static byte[] header(Tensor t) {
    byte[] first = build(t, DATA_OFFSET_ALIGNMENT);
    long dataOffset = t.dtype().isFixedWidth() ? roundUp(first.length, DATA_OFFSET_ALIGNMENT) : first.length;
    byte[] fb = dataOffset == DATA_OFFSET_ALIGNMENT ? first : build(t, dataOffset);
    byte[] out = new byte[(int) dataOffset];
    System.arraycopy(fb, 0, out, 0, fb.length);
    return out;
  }

  private static byte[] build(Tensor t, long dataOffset) {
    FlatBufferBuilder b = new FlatBufferBuilder(256);
    int strings = 0;
    if (t.dtype() == DType.STRING) {
      int[] offs = new int[Math.toIntExact(t.size())];
      for (int i = 0; i < offs.length; i++) {
        offs[i] = b.createString(t.getString(i));
      }
      strings = ArrayHeader.createStringsVector(b, offs);
    }
    int shape = ArrayHeader.createShapeVector(b, t.shape().dims());
    ArrayHeader.startArrayHeader(b);
    ArrayHeader.addFormatVersion(b, ModelFile.FORMAT_VERSION);
    ArrayHeader.addDtype(b, toWire(t.dtype()));
    ArrayHeader.addShape(b, shape);
    ArrayHeader.addDataOffset(b, t.dtype() == DType.STRING ? 0 : dataOffset);
    ArrayHeader.addDataLength(b, t.byteSize());
    if (strings != 0) {
      ArrayHeader.addStrings(b, strings);
    }
    b.finishSizePrefixed(ArrayHeader.endArrayHeader(b), IDENTIFIER);
    return b.sizedByteArray();
  }

  private static long roundUp(long n, long to) {
    return (n + to - 1) / to * to;
  }

  /** What an array entry's header says, after verification. */
  public record Header(DType dtype, Shape shape, long dataOffset, long dataLength, String[] strings) {}

  /**
   * How many leading bytes of an entry must be read to decode its header, from its first four.
   *
   * @throws EntrySizeException when the declared header does not fit the entry
   */
  public static int headerLength(String entry, ByteBuffer prefix, long entrySize) throws EntrySizeException {
    if (entrySize < 8 || prefix.remaining() < 4) {
      throw new EntrySizeException(entry, "array entry of " + entrySize + " bytes is too short for a header");
    }
    long n = prefix.order(ByteOrder.LITTLE_ENDIAN).getInt(prefix.position()) & 0xFFFF_FFFFL;
    if (n + 4 > entrySize || n + 4 > Integer.MAX_VALUE - 8) {
      throw new EntrySizeException(entry, "header declares " + n + " bytes, the entry holds " + entrySize);
    }
    return (int) (n + 4);
  }

  /**
   * Verifies and decodes the header in {@code bytes} (the first {@link #headerLength} bytes of
   * the entry), checking it against the entry's size.
   */
  public static Header decode(String entry, ByteBuffer bytes, long entrySize) throws ModelFormatException {
    int total = headerLength(entry, bytes, entrySize);
    if (bytes.remaining() < total) {
      throw new EntrySizeException(entry, "header needs " + total + " bytes, " + bytes.remaining() + " given");
    }
    FlatBufferVerifier v = new FlatBufferVerifier(entry, bytes.slice(bytes.position() + 4, total - 4));
    int root = v.root(IDENTIFIER);
    v.scalar(root, 0, 4, "format_version");
    v.scalar(root, 1, 1, "dtype");
    long rank = v.vector(root, 2, 8, "shape");
    v.scalar(root, 3, 8, "data_offset");
    v.scalar(root, 4, 8, "data_length");
    v.stringVector(root, 5, "strings");
    ArrayHeader h = ArrayHeader.getRootAsArrayHeader(v.buffer());
    checkVersion(entry, h.formatVersion());
    DType dtype = fromWire(entry, h.dtype());
    if (rank > MAX_RANK) {
      throw new FlatBufferVerificationException(entry, "rank " + rank + " exceeds " + MAX_RANK);
    }
    long[] dims = new long[(int) Math.max(rank, 0)];
    long count = 1;
    for (int i = 0; i < dims.length; i++) {
      dims[i] = h.shape(i);
      if (dims[i] < 0) {
        throw new ModelFormatException(entry, "negative dimension " + dims[i] + " in the shape");
      }
      try {
        count = Math.multiplyExact(count, dims[i]);
      } catch (ArithmeticException e) {
        throw new ModelFormatException(entry, "shape's element count overflows", e);
      }
    }
    Shape shape = Shape.of(dims);
    long dataOffset = h.dataOffset();
    long dataLength = h.dataLength();
    String[] strings = null;
    if (dtype == DType.STRING) {
      int n = h.stringsLength();
      if (n != count || dataLength != 0) {
        throw new ModelFormatException(entry, "string array of shape " + shape + " holds " + n
            + " strings and " + dataLength + " raw bytes");
      }
      if (total != entrySize) {
        throw new EntrySizeException(entry, "holds " + entrySize + " bytes, its string header " + total);
      }
      strings = new String[n];
      for (int i = 0; i < n; i++) {
        strings[i] = h.strings(i);
      }
    } else {
      long need;
      try {
        need = Math.multiplyExact(count, (long) dtype.itemSize());
      } catch (ArithmeticException e) {
        throw new ModelFormatException(entry, "shape's byte count overflows", e);
      }
      if (dataLength != need) {
        throw new EntrySizeException(entry, "declares " + dataLength + " data bytes, " + dtype + shape + " needs " + need);
      }
      if (dataOffset < total || dataOffset > entrySize || entrySize - dataOffset != dataLength) {
        throw new EntrySizeException(entry, "holds " + entrySize + " bytes, its header declares " + dataLength
            + " data bytes at offset " + dataOffset + " after a " + total + "-byte header");
      }
    }
    return new Header(dtype, shape, dataOffset, dataLength, strings);
  }

  /** Rejects a missing format version and one newer than this reader's. */
  public static void checkVersion(String entry, long version) throws ModelFormatException {
    if (version == 0) {
      throw new ModelFormatException(entry, "no format_version");
    }
    if (version > ModelFile.FORMAT_VERSION) {
      throw new UnsupportedFormatVersionException(entry, "written in format version " + version
          + ", newer than this reader's " + ModelFile.FORMAT_VERSION + "; upgrade Tributary to read it");
    }
  }

  static byte toWire(DType d) {
    return switch (d) {
      case BOOL -> DataType.BOOL;
      case INT8 -> DataType.INT8;
      case INT16 -> DataType.INT16;
      case INT32 -> DataType.INT32;
      case INT64 -> DataType.INT64;
      case UINT8 -> DataType.UINT8;
      case UINT16 -> DataType.UINT16;
      case UINT32 -> DataType.UINT32;
      case UINT64 -> DataType.UINT64;
      case FLOAT16 -> DataType.FLOAT16;
      case BFLOAT16 -> DataType.BFLOAT16;
      case FLOAT32 -> DataType.FLOAT32;
      case FLOAT64 -> DataType.FLOAT64;
      case COMPLEX64 -> DataType.COMPLEX64;
      case COMPLEX128 -> DataType.COMPLEX128;
      case STRING -> DataType.UTF8;
    };
  }

  static DType fromWire(String entry, byte d) throws ModelFormatException {
    return switch (d) {
      case DataType.BOOL -> DType.BOOL;
      case DataType.INT8 -> DType.INT8;
      case DataType.INT16 -> DType.INT16;
      case DataType.INT32 -> DType.INT32;
      case DataType.INT64 -> DType.INT64;
      case DataType.UINT8 -> DType.UINT8;
      case DataType.UINT16 -> DType.UINT16;
      case DataType.UINT32 -> DType.UINT32;
      case DataType.UINT64 -> DType.UINT64;
      case DataType.FLOAT16 -> DType.FLOAT16;
      case DataType.BFLOAT16 -> DType.BFLOAT16;
      case DataType.FLOAT32 -> DType.FLOAT32;
      case DataType.FLOAT64 -> DType.FLOAT64;
      case DataType.COMPLEX64 -> DType.COMPLEX64;
      case DataType.COMPLEX128 -> DType.COMPLEX128;
      case DataType.UTF8 -> DType.STRING;
      default -> throw new ModelFormatException(entry, "unknown dtype code " + d);
    };
  }
}
