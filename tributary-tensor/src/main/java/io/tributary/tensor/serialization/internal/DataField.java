package io.tributary.tensor.serialization.internal;

import java.util.Locale;

/**
 * The data fields of the {@code Value} message: where elements live on the wire and how each
 * element is encoded.
 */
public enum DataField {
  DOUBLE(2, Encoding.FIXED64),
  FLOAT(3, Encoding.FIXED32),
  INT32(4, Encoding.VARINT),
  INT64(5, Encoding.VARINT),
  UINT32(6, Encoding.VARINT),
  UINT64(7, Encoding.VARINT),
  SINT32(8, Encoding.VARINT),
  SINT64(9, Encoding.VARINT),
  FIXED32(10, Encoding.FIXED32),
  FIXED64(11, Encoding.FIXED64),
  SFIXED32(12, Encoding.FIXED32),
  SFIXED64(13, Encoding.FIXED64),
  BOOL(14, Encoding.VARINT),
  STRING(15, Encoding.STRING),
  RAW(18, Encoding.RAW);

  /** How one element of a field is encoded. */
  public enum Encoding {
    /** Packed: a run of varints; unpacked: wire type 0. */
    VARINT(WireReader.VARINT, 0),
    /** Packed: little-endian 4-byte items; unpacked: wire type 5. */
    FIXED32(WireReader.I32, 4),
    /** Packed: little-endian 8-byte items; unpacked: wire type 1. */
    FIXED64(WireReader.I64, 8),
    /** One length-delimited UTF-8 record per element. */
    STRING(WireReader.LEN, 0),
    /** One length-delimited run of little-endian elements of the dtype's item size. */
    RAW(WireReader.LEN, 0);

    private final int unpackedWireType;
    private final int width;

    Encoding(int unpackedWireType, int width) {
      this.unpackedWireType = unpackedWireType;
      this.width = width;
    }

    /** The wire type of one element written without packing. */
    public int unpackedWireType() {
      return unpackedWireType;
    }

    /** Bytes per item for fixed-width encodings, 0 otherwise. */
    public int width() {
      return width;
    }

    /** True for the scalar encodings that proto3 packs, so a reader must accept both forms. */
    public boolean packable() {
      return this == VARINT || this == FIXED32 || this == FIXED64;
    }
  }

  private static final int MAX_NUMBER = 18;
  private static final DataField[] BY_NUMBER = new DataField[MAX_NUMBER + 1];

  static {
    for (DataField f : values()) {
      BY_NUMBER[f.number] = f;
    }
  }

  private final int number;
  private final Encoding encoding;

  DataField(int number, Encoding encoding) {
    this.number = number;
    this.encoding = encoding;
  }

  /** The field number in {@code Value}. */
  public int number() {
    return number;
  }

  public Encoding encoding() {
    return encoding;
  }

  /** The field's name in parameters.proto, such as {@code sfixed32}. */
  public String protoName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The data field with this number, or null when the number is not a data field. */
  public static DataField forNumber(int number) {
    return number >= 0 && number <= MAX_NUMBER ? BY_NUMBER[number] : null;
  }

  @Override
  public String toString() {
    return "field " + number + " (" + protoName() + ")";
  }
}
