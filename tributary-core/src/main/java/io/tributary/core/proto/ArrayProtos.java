package io.tributary.core.proto;

import com.google.protobuf.ByteString;
import io.tributary.core.proto.internal.Array;
import io.tributary.core.proto.internal.ArrayShape;
import io.tributary.tensor.DType;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.TensorBuilder;
import java.nio.charset.StandardCharsets;

/**
 * Converts literal tensors to and from federated-language's {@code Array} message.
 *
 * <p>Writing uses the typed value lists, which every reader understands (float16 and bfloat16 as
 * raw bits in an int list, complex numbers as interleaved real and imaginary parts). Reading also
 * accepts the raw little-endian {@code content} bytes.
 */
final class ArrayProtos {
  private ArrayProtos() {}

  static Array toProto(Tensor t) {
    Array.Builder b = Array.newBuilder().setDtype(DataTypes.toProto(t.dtype()));
    ArrayShape.Builder shape = ArrayShape.newBuilder();
    for (long d : t.shape().dims()) {
      shape.addDim(d);
    }
    b.setShape(shape);
    long n = t.size();
    switch (t.dtype()) {
      case BOOL -> {
        var l = Array.BoolList.newBuilder();
        for (long i = 0; i < n; i++) {
          l.addValue(t.getBoolean(i));
        }
        b.setBoolList(l);
      }
      case INT8, UINT8, INT16, UINT16, FLOAT16, BFLOAT16 -> {
        var l = Array.IntList.newBuilder();
        for (long i = 0; i < n; i++) {
          l.addValue(smallInt(t, i));
        }
        switch (t.dtype()) {
          case INT8 -> b.setInt8List(l);
          case UINT8 -> b.setUint8List(l);
          case INT16 -> b.setInt16List(l);
          case UINT16 -> b.setUint16List(l);
          case FLOAT16 -> b.setFloat16List(l);
          default -> b.setBfloat16List(l);
        }
      }
      case INT32 -> {
        var l = Array.IntList.newBuilder();
        for (long i = 0; i < n; i++) {
          l.addValue(t.getInt(i));
        }
        b.setInt32List(l);
      }
      case UINT32 -> {
        var l = Array.Uint32List.newBuilder();
        for (long i = 0; i < n; i++) {
          l.addValue(t.getInt(i));
        }
        b.setUint32List(l);
      }
      case INT64 -> {
        var l = Array.Int64List.newBuilder();
        for (long i = 0; i < n; i++) {
          l.addValue(t.getLong(i));
        }
        b.setInt64List(l);
      }
      case UINT64 -> {
        var l = Array.Uint64List.newBuilder();
        for (long i = 0; i < n; i++) {
          l.addValue(t.getLong(i));
        }
        b.setUint64List(l);
      }
      case FLOAT32 -> {
        var l = Array.FloatList.newBuilder();
        for (long i = 0; i < n; i++) {
          l.addValue(t.getFloat(i));
        }
        b.setFloat32List(l);
      }
      case FLOAT64 -> {
        var l = Array.DoubleList.newBuilder();
        for (long i = 0; i < n; i++) {
          l.addValue(t.getDouble(i));
        }
        b.setFloat64List(l);
      }
      case COMPLEX64 -> {
        var l = Array.FloatList.newBuilder();
        for (long i = 0; i < n; i++) {
          l.addValue((float) t.getReal(i)).addValue((float) t.getImag(i));
        }
        b.setComplex64List(l);
      }
      case COMPLEX128 -> {
        var l = Array.DoubleList.newBuilder();
        for (long i = 0; i < n; i++) {
          l.addValue(t.getReal(i)).addValue(t.getImag(i));
        }
        b.setComplex128List(l);
      }
      case STRING -> {
        var l = Array.BytesList.newBuilder();
        for (long i = 0; i < n; i++) {
          l.addValue(ByteString.copyFromUtf8(t.getString(i)));
        }
        b.setStringList(l);
      }
    }
    return b.build();
  }

  private static int smallInt(Tensor t, long i) {
    return switch (t.dtype()) {
      case INT8 -> t.getByte(i);
      case UINT8 -> t.getByte(i) & 0xff;
      case INT16 -> t.getShort(i);
      default -> t.getShort(i) & 0xffff;
    };
  }

  static Tensor fromProto(Array a, String path) throws MalformedComputationException {
    DType dtype = DataTypes.fromProto(a.getDtype(), path + ".dtype");
    if (a.getShape().getUnknownRank()) {
      throw new MalformedComputationException(path + ".shape", "a literal needs a known rank");
    }
    long[] dims = new long[a.getShape().getDimCount()];
    for (int i = 0; i < dims.length; i++) {
      dims[i] = a.getShape().getDim(i);
      if (dims[i] < 0) {
        throw new MalformedComputationException(path + ".shape",
            "a literal needs known dimensions, dimension " + i + " is " + dims[i]);
      }
    }
    Shape shape;
    try {
      shape = Shape.of(dims);
    } catch (IllegalArgumentException e) {
      throw new MalformedComputationException(path + ".shape", e.getMessage(), e);
    }
    long n = shape.size();
    if (a.hasContent()) {
      return fromContent(dtype, shape, a.getContent(), path);
    }
    int perElement = dtype.isComplex() ? 2 : 1;
    int count = valueCount(a, dtype, path);
    if (count != n * perElement) {
      throw new MalformedComputationException(path,
          "shape " + shape + " needs " + n * perElement + " values but the " + dtype
              + " list has " + count);
    }
    TensorBuilder b = TensorBuilder.allocate(dtype, shape);
    for (int i = 0; i < n; i++) {
      switch (dtype) {
        case BOOL -> b.setBoolean(i, a.getBoolList().getValue(i));
        case INT8 -> b.setByte(i, (byte) a.getInt8List().getValue(i));
        case UINT8 -> b.setByte(i, (byte) a.getUint8List().getValue(i));
        case INT16 -> b.setShort(i, (short) a.getInt16List().getValue(i));
        case UINT16 -> b.setShort(i, (short) a.getUint16List().getValue(i));
        case FLOAT16 -> b.setShort(i, (short) a.getFloat16List().getValue(i));
        case BFLOAT16 -> b.setShort(i, (short) a.getBfloat16List().getValue(i));
        case INT32 -> b.setInt(i, a.getInt32List().getValue(i));
        case UINT32 -> b.setInt(i, a.getUint32List().getValue(i));
        case INT64 -> b.setLong(i, a.getInt64List().getValue(i));
        case UINT64 -> b.setLong(i, a.getUint64List().getValue(i));
        case FLOAT32 -> b.setFloat(i, a.getFloat32List().getValue(i));
        case FLOAT64 -> b.setDouble(i, a.getFloat64List().getValue(i));
        case COMPLEX64 -> b.setComplex(i, a.getComplex64List().getValue(2 * i),
            a.getComplex64List().getValue(2 * i + 1));
        case COMPLEX128 -> b.setComplex(i, a.getComplex128List().getValue(2 * i),
            a.getComplex128List().getValue(2 * i + 1));
        case STRING -> b.setString(i, a.getStringList().getValue(i).toString(StandardCharsets.UTF_8));
      }
    }
    return b.build();
  }

  private static int valueCount(Array a, DType dtype, String path)
      throws MalformedComputationException {
    Array.KindCase expected = switch (dtype) {
      case BOOL -> Array.KindCase.BOOL_LIST;
      case INT8 -> Array.KindCase.INT8_LIST;
      case UINT8 -> Array.KindCase.UINT8_LIST;
      case INT16 -> Array.KindCase.INT16_LIST;
      case UINT16 -> Array.KindCase.UINT16_LIST;
      case FLOAT16 -> Array.KindCase.FLOAT16_LIST;
      case BFLOAT16 -> Array.KindCase.BFLOAT16_LIST;
      case INT32 -> Array.KindCase.INT32_LIST;
      case UINT32 -> Array.KindCase.UINT32_LIST;
      case INT64 -> Array.KindCase.INT64_LIST;
      case UINT64 -> Array.KindCase.UINT64_LIST;
      case FLOAT32 -> Array.KindCase.FLOAT32_LIST;
      case FLOAT64 -> Array.KindCase.FLOAT64_LIST;
      case COMPLEX64 -> Array.KindCase.COMPLEX64_LIST;
      case COMPLEX128 -> Array.KindCase.COMPLEX128_LIST;
      case STRING -> Array.KindCase.STRING_LIST;
    };
    if (a.getKindCase() != expected) {
      throw new MalformedComputationException(path,
          "a " + dtype + " array needs its values in " + expected.name().toLowerCase()
              + " but has " + a.getKindCase().name().toLowerCase());
    }
    return switch (expected) {
      case BOOL_LIST -> a.getBoolList().getValueCount();
      case INT8_LIST -> a.getInt8List().getValueCount();
      case UINT8_LIST -> a.getUint8List().getValueCount();
      case INT16_LIST -> a.getInt16List().getValueCount();
      case UINT16_LIST -> a.getUint16List().getValueCount();
      case FLOAT16_LIST -> a.getFloat16List().getValueCount();
      case BFLOAT16_LIST -> a.getBfloat16List().getValueCount();
      case INT32_LIST -> a.getInt32List().getValueCount();
      case UINT32_LIST -> a.getUint32List().getValueCount();
      case INT64_LIST -> a.getInt64List().getValueCount();
      case UINT64_LIST -> a.getUint64List().getValueCount();
      case FLOAT32_LIST -> a.getFloat32List().getValueCount();
      case FLOAT64_LIST -> a.getFloat64List().getValueCount();
      case COMPLEX64_LIST -> a.getComplex64List().getValueCount();
      case COMPLEX128_LIST -> a.getComplex128List().getValueCount();
      case STRING_LIST -> a.getStringList().getValueCount();
      case KIND_NOT_SET -> 0;
    };
  }

  private static Tensor fromContent(DType dtype, Shape shape, ByteString content, String path)
      throws MalformedComputationException {
    if (!dtype.isFixedWidth()) {
      throw new MalformedComputationException(path, "string arrays need string_list, not content");
    }
    int item = dtype.itemSize();
    if (content.size() % item != 0 || content.size() / item != shape.size()) {
      throw new MalformedComputationException(path,
          "shape " + shape + " of " + dtype + " needs " + shape.size() + " elements of " + item
              + " bytes but the content has " + content.size() + " bytes");
    }
    return Tensor.fromLittleEndian(dtype, shape, content.toByteArray());
  }
}
