package io.tributary.tensor.serialization.internal;

import io.tributary.tensor.DType;

/**
 * The {@code Value.DataType} enum of parameters.proto, with the Tributary dtype each value decodes
 * to and the one data field that holds its elements.
 *
 * <p>Several wire types decode to one dtype (an int32 tensor may arrive as {@code DT_INT32},
 * {@code DT_SINT32} or {@code DT_SFIXED32}); {@link #forWriting} picks the one Tributary writes,
 * always a fixed-width encoding when one exists, so writing and reading are bulk copies.
 */
public enum WireDataType {
  DT_DOUBLE(0, DType.FLOAT64, DataField.DOUBLE),
  DT_FLOAT(1, DType.FLOAT32, DataField.FLOAT),
  DT_INT32(2, DType.INT32, DataField.INT32),
  DT_INT64(3, DType.INT64, DataField.INT64),
  DT_UINT32(4, DType.UINT32, DataField.UINT32),
  DT_UINT64(5, DType.UINT64, DataField.UINT64),
  DT_SINT32(6, DType.INT32, DataField.SINT32),
  DT_SINT64(7, DType.INT64, DataField.SINT64),
  DT_FIXED32(8, DType.UINT32, DataField.FIXED32),
  DT_FIXED64(9, DType.UINT64, DataField.FIXED64),
  DT_SFIXED32(10, DType.INT32, DataField.SFIXED32),
  DT_SFIXED64(11, DType.INT64, DataField.SFIXED64),
  DT_BOOL(12, DType.BOOL, DataField.BOOL),
  DT_STRING(13, DType.STRING, DataField.STRING),
  DT_INT8(14, DType.INT8, DataField.RAW),
  DT_INT16(15, DType.INT16, DataField.RAW),
  DT_UINT8(16, DType.UINT8, DataField.RAW),
  DT_UINT16(17, DType.UINT16, DataField.RAW),
  DT_FLOAT16(18, DType.FLOAT16, DataField.RAW),
  DT_BFLOAT16(19, DType.BFLOAT16, DataField.RAW),
  DT_COMPLEX64(20, DType.COMPLEX64, DataField.FLOAT),
  DT_COMPLEX128(21, DType.COMPLEX128, DataField.DOUBLE);

  private static final WireDataType[] BY_CODE = values();

  private final int code;
  private final DType dtype;
  private final DataField field;

  WireDataType(int code, DType dtype, DataField field) {
    this.code = code;
    this.dtype = dtype;
    this.field = field;
  }

  /** The enum number on the wire. */
  public int code() {
    return code;
  }

  /** The Tributary dtype a value of this type decodes to. */
  public DType dtype() {
    return dtype;
  }

  /** The only data field a value of this type may use. */
  public DataField field() {
    return field;
  }

  /** Wire items per tensor element: 2 for complex (real, imaginary), else 1. */
  public int itemsPerElement() {
    return dtype.isComplex() ? 2 : 1;
  }

  /** The type Tributary writes for {@code dtype}. */
  public static WireDataType forWriting(DType dtype) {
    return switch (dtype) {
      case FLOAT64 -> DT_DOUBLE;
      case FLOAT32 -> DT_FLOAT;
      case INT32 -> DT_SFIXED32;
      case INT64 -> DT_SFIXED64;
      case UINT32 -> DT_FIXED32;
      case UINT64 -> DT_FIXED64;
      case BOOL -> DT_BOOL;
      case STRING -> DT_STRING;
      case INT8 -> DT_INT8;
      case INT16 -> DT_INT16;
      case UINT8 -> DT_UINT8;
      case UINT16 -> DT_UINT16;
      case FLOAT16 -> DT_FLOAT16;
      case BFLOAT16 -> DT_BFLOAT16;
      case COMPLEX64 -> DT_COMPLEX64;
      case COMPLEX128 -> DT_COMPLEX128;
    };
  }

  /** The type with this enum number, or null when the number is unknown. */
  public static WireDataType forCode(long code) {
    return code >= 0 && code < BY_CODE.length ? BY_CODE[(int) code] : null;
  }
}
