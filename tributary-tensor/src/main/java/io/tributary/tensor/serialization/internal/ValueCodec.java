package io.tributary.tensor.serialization.internal;

import io.tributary.tensor.DType;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.TensorBuilder;
import io.tributary.tensor.npy.NumpyShapes;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Writes and reads the {@code Value} message of parameters.proto by hand.
 *
 * <p>Packed fixed-width fields are little-endian bytes on the wire, exactly the layout of a
 * tensor's storage, so element data is copied in bulk both ways instead of element by element as
 * generated protobuf code does. Writing sizes the message first and fills one exact array.
 * Reading scans the message once to find the records and the shape, checks that the element
 * count matches the shape, and only then allocates the tensor and fills it.
 */
public final class ValueCodec {
  /** numpy's limit on dimensions; a longer shape is rejected rather than allocated. */
  public static final int MAX_RANK = NumpyShapes.MAX_RANK;

  private static final int DTYPE = 1;
  private static final int SHAPE = 16;
  private static final int NAME = 17;

  /** A decoded value: its name ({@code ""} when it has none) and its tensor. */
  public record Decoded(String name, Tensor tensor) {}

  private ValueCodec() {}

  /**
   * Encodes {@code tensor} as a {@code Value} with the given name ({@code ""} for none).
   *
   * @throws WireException if the tensor has more than {@link #MAX_RANK} dimensions or does not
   *     fit in one message
   */
  public static byte[] encode(Tensor tensor, String name) throws WireException {
    WireDataType type = WireDataType.forWriting(tensor.dtype());
    DataField field = type.field();
    long[] dims = tensor.shape().dims();
    if (dims.length > MAX_RANK) {
      throw new WireException("rank " + dims.length + " is over the limit of " + MAX_RANK);
    }
    byte[] nameBytes = name.getBytes(StandardCharsets.UTF_8);
    long n = tensor.size();

    long size = type.code() == 0 ? 0 : WireWriter.tagSize(DTYPE) + WireWriter.varintSize(type.code());
    byte[][] strings = null;
    long payload = 0;
    if (field == DataField.STRING) {
      strings = new byte[(int) n][];
      for (int i = 0; i < n; i++) {
        strings[i] = tensor.getString(i).getBytes(StandardCharsets.UTF_8);
        size += WireWriter.lengthDelimitedSize(field.number(), strings[i].length);
      }
    } else {
      payload = field == DataField.BOOL ? n : tensor.byteSize();
      if (n > 0) {
        size += WireWriter.lengthDelimitedSize(field.number(), payload);
      }
    }
    long shapePayload = 0;
    for (long d : dims) {
      shapePayload += WireWriter.varintSize(d);
    }
    if (dims.length > 0) {
      size += WireWriter.lengthDelimitedSize(SHAPE, shapePayload);
    }
    if (nameBytes.length > 0) {
      size += WireWriter.lengthDelimitedSize(NAME, nameBytes.length);
    }

    // Fields go out in field-number order, as protobuf writes them, so the bytes match
    // generated code byte for byte.
    WireWriter w = new WireWriter(size, "value '" + name + "' " + tensor.dtype() + tensor.shape());
    if (type.code() != 0) {
      w.writeTag(DTYPE, WireReader.VARINT);
      w.writeVarint(type.code());
    }
    if (strings != null) {
      for (byte[] s : strings) {
        w.writeTag(field.number(), WireReader.LEN);
        w.writeVarint(s.length);
        w.writeBytes(s, 0, s.length);
      }
    } else if (n > 0 && field != DataField.RAW) {
      writeData(w, tensor, field, payload);
    }
    if (dims.length > 0) {
      w.writeTag(SHAPE, WireReader.LEN);
      w.writeVarint(shapePayload);
      for (long d : dims) {
        w.writeVarint(d);
      }
    }
    if (nameBytes.length > 0) {
      w.writeTag(NAME, WireReader.LEN);
      w.writeVarint(nameBytes.length);
      w.writeBytes(nameBytes, 0, nameBytes.length);
    }
    if (n > 0 && field == DataField.RAW) {
      writeData(w, tensor, field, payload);
    }
    return w.finish();
  }

  private static void writeData(WireWriter w, Tensor tensor, DataField field, long payload) {
    w.writeTag(field.number(), WireReader.LEN);
    w.writeVarint(payload);
    for (ByteBuffer b : tensor.dataBuffers()) {
      if (field == DataField.BOOL) {
        // A bool is the varint 0 or 1; storage may hold any non-zero byte for true.
        ByteBuffer out = w.reserve(b.remaining());
        for (int i = b.position(); i < b.limit(); i++) {
          out.put(b.get(i) != 0 ? (byte) 1 : (byte) 0);
        }
      } else {
        w.writeBuffer(b);
      }
    }
  }

  /**
   * Decodes the {@code Value} in {@code buf[off, off + len)}.
   *
   * <p>Data already in Tributary's layout (one packed run of fixed-width little-endian items, or
   * the {@code raw} field) is not copied: the tensor views {@code buf}, read-only. The caller
   * hands {@code buf} over and must not write to it again.
   *
   * @throws WireException naming the problem and its offset when the bytes are not a valid
   *     value: malformed protobuf, an unknown dtype, data in a field the dtype does not use, a
   *     bad shape, or an element count that does not match the shape
   */
  public static Decoded decode(byte[] buf, int off, int len) throws WireException {
    WireReader r = new WireReader(buf, off, len);
    Scan s = new Scan();
    while (r.hasMore()) {
      int tagAt = r.position();
      int tag = r.readTag();
      int number = tag >>> 3;
      int wireType = tag & 7;
      switch (number) {
        case DTYPE -> {
          expectWireType(r, tagAt, number, wireType, WireReader.VARINT, "dtype");
          s.dtypeCode = (int) r.readVarint("dtype"); // an enum is an int32; proto3 keeps the last
        }
        case SHAPE -> readShape(r, s, tagAt, wireType);
        case NAME -> {
          expectWireType(r, tagAt, number, wireType, WireReader.LEN, "name");
          s.nameLen = r.readLength("name");
          s.nameOff = r.position();
          r.skipBytes(s.nameLen, "name");
        }
        default -> {
          DataField f = DataField.forNumber(number);
          if (f == null) {
            r.skipField(tag);
          } else {
            readData(r, s, f, tagAt, wireType);
          }
        }
      }
    }
    return build(r, s, buf);
  }

  private static void expectWireType(WireReader r, int tagAt, int number, int wireType, int expected,
      String what) throws WireException {
    if (wireType != expected) {
      throw new WireException("wrong wire type " + wireType + " for field " + number + " (" + what
          + "), expected " + expected, r.offsetOf(tagAt));
    }
  }

  private static void readShape(WireReader r, Scan s, int tagAt, int wireType) throws WireException {
    if (wireType == WireReader.LEN) {
      WireReader packed = r.sub(r.readLength("shape"), "shape");
      while (packed.hasMore()) {
        int at = packed.position();
        s.addDim(packed.readVarint("shape"), r.offsetOf(at));
      }
    } else if (wireType == WireReader.VARINT) {
      int at = r.position();
      s.addDim(r.readVarint("shape"), r.offsetOf(at));
    } else {
      throw new WireException("wrong wire type " + wireType + " for field 16 (shape), expected "
          + WireReader.LEN + " (packed) or " + WireReader.VARINT, r.offsetOf(tagAt));
    }
  }

  private static void readData(WireReader r, Scan s, DataField f, int tagAt, int wireType)
      throws WireException {
    DataField.Encoding enc = f.encoding();
    if (wireType == WireReader.LEN) {
      int n = r.readLength(f.toString());
      int at = r.position();
      switch (enc) {
        case RAW -> {
          r.skipBytes(n, f.toString());
          s.rawSeen = true; // a singular bytes field: the last one wins
          s.rawOff = at;
          s.rawLen = n;
        }
        case STRING -> {
          r.skipBytes(n, f.toString());
          s.records.add(f, at, n, 1, tagAt);
        }
        case VARINT -> {
          WireReader packed = r.sub(n, f.toString());
          int count = 0;
          while (packed.hasMore()) {
            packed.readVarint(f.toString());
            count++;
          }
          s.records.add(f, at, n, count, tagAt);
        }
        case FIXED32, FIXED64 -> {
          r.skipBytes(n, f.toString());
          if (n % enc.width() != 0) {
            throw new WireException("packed " + f + " has length " + n + ", not a multiple of its "
                + enc.width() + "-byte items", r.offsetOf(tagAt));
          }
          s.records.add(f, at, n, n / enc.width(), tagAt);
        }
      }
    } else if (enc.packable() && wireType == enc.unpackedWireType()) {
      int at = r.position();
      if (enc == DataField.Encoding.VARINT) {
        r.readVarint(f.toString());
      } else {
        r.skipBytes(enc.width(), f.toString());
      }
      s.records.add(f, at, r.position() - at, 1, tagAt);
    } else {
      throw new WireException("wrong wire type " + wireType + " for " + f + ", expected "
          + WireReader.LEN + (enc.packable() ? " (packed) or " + enc.unpackedWireType() : ""),
          r.offsetOf(tagAt));
    }
  }

  private static Decoded build(WireReader r, Scan s, byte[] buf) throws WireException {
    WireDataType type = WireDataType.forCode(s.dtypeCode);
    if (type == null) {
      throw new WireException("unknown dtype enum value " + s.dtypeCode + "; known: 0 ("
          + WireDataType.DT_DOUBLE + ") to 21 (" + WireDataType.DT_COMPLEX128 + ")");
    }
    DataField expected = type.field();
    long items = 0;
    for (int i = 0; i < s.records.size; i++) {
      DataField f = s.records.field(i);
      if (f != expected) {
        throw new WireException("data in " + f + " but dtype " + type + " keeps its elements in "
            + expected, r.offsetOf(s.records.tagAt(i)));
      }
      items += s.records.count(i);
    }
    if (s.rawSeen) {
      if (expected != DataField.RAW) {
        throw new WireException("data in " + DataField.RAW + " but dtype " + type
            + " keeps its elements in " + expected);
      }
      int width = type.dtype().itemSize();
      if (s.rawLen % width != 0) {
        throw new WireException(DataField.RAW + " has length " + s.rawLen + ", not a multiple of "
            + width + ", the item size of " + type.dtype());
      }
      items = s.rawLen / width;
    }

    long[] dims = Arrays.copyOf(s.dims, s.rank);
    // The NPY reader asks the same question, so both formats accept and refuse the same shapes.
    String problem = NumpyShapes.problem(dims, type.dtype().itemSize());
    if (problem != null) {
      throw new WireException(problem);
    }
    long elements = 1;
    for (long d : dims) {
      elements = multiply(elements, d, dims);
    }
    long needed = multiply(elements, type.itemsPerElement(), dims);
    if (items != needed) {
      throw new WireException("value holds " + items + " items in " + expected + " but dtype " + type
          + " with shape " + Arrays.toString(dims) + " needs " + needed);
    }

    String name = s.nameLen == 0 ? "" : r.utf8(s.nameOff, s.nameLen, "name");
    Tensor view = viewIfContiguous(s, buf, type, Shape.of(dims));
    if (view != null) {
      return new Decoded(name, view);
    }
    TensorBuilder b = TensorBuilder.allocate(type.dtype(), Shape.of(dims));
    fill(r, s, buf, b, type);
    return new Decoded(name, b.build());
  }

  private static long multiply(long a, long b, long[] dims) throws WireException {
    long p = a * b;
    if (Math.multiplyHigh(a, b) != 0 || p < 0) {
      throw new WireException("shape " + Arrays.toString(dims) + " has more elements than a long can count");
    }
    return p;
  }

  /** A read-only view of the data when it sits in one run of little-endian items, else null. */
  private static Tensor viewIfContiguous(Scan s, byte[] buf, WireDataType type, Shape shape) {
    return switch (type.field().encoding()) {
      case RAW -> s.rawLen > 0
          ? Tensor.wrap(type.dtype(), shape, ByteBuffer.wrap(buf, s.rawOff, s.rawLen).asReadOnlyBuffer())
          : null;
      case FIXED32, FIXED64 -> s.records.size == 1
          ? Tensor.wrap(type.dtype(), shape,
              ByteBuffer.wrap(buf, s.records.off(0), s.records.len(0)).asReadOnlyBuffer())
          : null;
      case STRING, VARINT -> null;
    };
  }

  private static void fill(WireReader r, Scan s, byte[] buf, TensorBuilder b, WireDataType type)
      throws WireException {
    DataField field = type.field();
    switch (field.encoding()) {
      case RAW -> {
        if (s.rawLen > 0) {
          b.putBytes(0, buf, s.rawOff, s.rawLen);
        }
      }
      case FIXED32, FIXED64 -> {
        long at = 0;
        for (int i = 0; i < s.records.size; i++) {
          b.putBytes(at, buf, s.records.off(i), s.records.len(i));
          at += s.records.len(i);
        }
      }
      case STRING -> {
        for (int i = 0; i < s.records.size; i++) {
          b.setString(i, r.utf8(s.records.off(i), s.records.len(i), "string element " + i));
        }
      }
      case VARINT -> {
        long index = 0;
        for (int i = 0; i < s.records.size; i++) {
          WireReader items = new WireReader(buf, s.records.off(i), s.records.len(i));
          while (items.hasMore()) {
            setVarint(b, field, index++, items.readVarint(field.toString()));
          }
        }
      }
    }
  }

  /** Stores one varint element as protobuf's generated code would interpret it. */
  private static void setVarint(TensorBuilder b, DataField field, long i, long v) {
    switch (field) {
      case INT32, UINT32 -> b.setInt(i, (int) v);
      case SINT32 -> b.setInt(i, ((int) v >>> 1) ^ -((int) v & 1));
      case INT64, UINT64 -> b.setLong(i, v);
      case SINT64 -> b.setLong(i, (v >>> 1) ^ -(v & 1));
      case BOOL -> b.setBoolean(i, v != 0);
      default -> throw new IllegalStateException(field + " is not a varint field");
    }
  }

  /** What one pass over a message found. */
  private static final class Scan {
    int dtypeCode;
    long[] dims = new long[4];
    int rank;
    int nameOff;
    int nameLen;
    boolean rawSeen;
    int rawOff;
    int rawLen;
    final Records records = new Records();

    void addDim(long d, int offset) throws WireException {
      if (d < 0) {
        throw new WireException("negative dimension " + d + " at axis " + rank + " of shape", offset);
      }
      if (rank == MAX_RANK) {
        throw new WireException("shape has more than numpy's " + MAX_RANK + " dimensions", offset);
      }
      if (rank == dims.length) {
        dims = Arrays.copyOf(dims, rank * 2);
      }
      dims[rank++] = d;
    }
  }

  /** Data records in wire order: field, payload offset and length, item count, tag offset. */
  private static final class Records {
    private static final int STRIDE = 5;
    private int[] data = new int[STRIDE * 4];
    int size;

    void add(DataField f, int off, int len, int count, int tagAt) {
      if ((size + 1) * STRIDE > data.length) {
        data = Arrays.copyOf(data, data.length * 2);
      }
      int base = size++ * STRIDE;
      data[base] = f.number();
      data[base + 1] = off;
      data[base + 2] = len;
      data[base + 3] = count;
      data[base + 4] = tagAt;
    }

    DataField field(int i) {
      return DataField.forNumber(data[i * STRIDE]);
    }

    int off(int i) {
      return data[i * STRIDE + 1];
    }

    int len(int i) {
      return data[i * STRIDE + 2];
    }

    int count(int i) {
      return data[i * STRIDE + 3];
    }

    int tagAt(int i) {
      return data[i * STRIDE + 4];
    }
  }
}
