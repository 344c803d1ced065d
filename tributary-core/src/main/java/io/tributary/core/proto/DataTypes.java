package io.tributary.core.proto;

import io.tributary.core.proto.internal.DataType;
import io.tributary.tensor.DType;

/** The mapping between {@link DType} and federated-language's {@code DataType}. */
final class DataTypes {
  private DataTypes() {}

  static DataType toProto(DType d) {
    return switch (d) {
      case BOOL -> DataType.DT_BOOL;
      case INT8 -> DataType.DT_INT8;
      case INT16 -> DataType.DT_INT16;
      case INT32 -> DataType.DT_INT32;
      case INT64 -> DataType.DT_INT64;
      case UINT8 -> DataType.DT_UINT8;
      case UINT16 -> DataType.DT_UINT16;
      case UINT32 -> DataType.DT_UINT32;
      case UINT64 -> DataType.DT_UINT64;
      case FLOAT16 -> DataType.DT_HALF;
      case BFLOAT16 -> DataType.DT_BFLOAT16;
      case FLOAT32 -> DataType.DT_FLOAT;
      case FLOAT64 -> DataType.DT_DOUBLE;
      case COMPLEX64 -> DataType.DT_COMPLEX64;
      case COMPLEX128 -> DataType.DT_COMPLEX128;
      case STRING -> DataType.DT_STRING;
    };
  }

  static DType fromProto(DataType d, String path) throws MalformedComputationException {
    return switch (d) {
      case DT_BOOL -> DType.BOOL;
      case DT_INT8 -> DType.INT8;
      case DT_INT16 -> DType.INT16;
      case DT_INT32 -> DType.INT32;
      case DT_INT64 -> DType.INT64;
      case DT_UINT8 -> DType.UINT8;
      case DT_UINT16 -> DType.UINT16;
      case DT_UINT32 -> DType.UINT32;
      case DT_UINT64 -> DType.UINT64;
      case DT_HALF -> DType.FLOAT16;
      case DT_BFLOAT16 -> DType.BFLOAT16;
      case DT_FLOAT -> DType.FLOAT32;
      case DT_DOUBLE -> DType.FLOAT64;
      case DT_COMPLEX64 -> DType.COMPLEX64;
      case DT_COMPLEX128 -> DType.COMPLEX128;
      case DT_STRING -> DType.STRING;
      case DT_INVALID, UNRECOGNIZED ->
          throw new MalformedComputationException(
              path, "dtype is missing or unknown (DataType value " + numberOf(d) + ")");
    };
  }

  private static String numberOf(DataType d) {
    return d == DataType.UNRECOGNIZED ? "not in data_type.proto" : Integer.toString(d.getNumber());
  }
}
