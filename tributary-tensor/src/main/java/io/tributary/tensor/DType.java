package io.tributary.tensor;

import java.util.Locale;

/**
 * The element type of a {@link Tensor}.
 *
 * <p>Names follow numpy ({@code float32}, {@code uint8}, ...); {@code bfloat16} and the
 * variable-length UTF-8 {@code string} have no numpy dtype of their own. Every fixed-width dtype
 * is stored little-endian with {@link #itemSize()} bytes per element; complex values are a real
 * part followed by an imaginary part.
 */
public enum DType {
  BOOL("bool", 1, Kind.BOOL),
  INT8("int8", 1, Kind.SIGNED),
  INT16("int16", 2, Kind.SIGNED),
  INT32("int32", 4, Kind.SIGNED),
  INT64("int64", 8, Kind.SIGNED),
  UINT8("uint8", 1, Kind.UNSIGNED),
  UINT16("uint16", 2, Kind.UNSIGNED),
  UINT32("uint32", 4, Kind.UNSIGNED),
  UINT64("uint64", 8, Kind.UNSIGNED),
  FLOAT16("float16", 2, Kind.FLOAT),
  BFLOAT16("bfloat16", 2, Kind.FLOAT),
  FLOAT32("float32", 4, Kind.FLOAT),
  FLOAT64("float64", 8, Kind.FLOAT),
  COMPLEX64("complex64", 8, Kind.COMPLEX),
  COMPLEX128("complex128", 16, Kind.COMPLEX),
  /** Variable-length UTF-8 text; not stored in the byte buffers of numeric tensors. */
  STRING("string", 0, Kind.STRING);

  /** The broad family of a dtype. */
  public enum Kind {
    BOOL,
    SIGNED,
    UNSIGNED,
    FLOAT,
    COMPLEX,
    STRING
  }

  private final String typeName;
  private final int itemSize;
  private final Kind kind;

  DType(String typeName, int itemSize, Kind kind) {
    this.typeName = typeName;
    this.itemSize = itemSize;
    this.kind = kind;
  }

  /** The numpy-style name, such as {@code float32}. */
  public String typeName() {
    return typeName;
  }

  /** Bytes per element; 0 for {@link #STRING}, whose elements vary in length. */
  public int itemSize() {
    return itemSize;
  }

  public Kind kind() {
    return kind;
  }

  /** True for float16, bfloat16, float32 and float64. */
  public boolean isFloating() {
    return kind == Kind.FLOAT;
  }

  public boolean isComplex() {
    return kind == Kind.COMPLEX;
  }

  public boolean isInteger() {
    return kind == Kind.SIGNED || kind == Kind.UNSIGNED;
  }

  /** True for every dtype with arithmetic: integers, floats and complex numbers (not bool). */
  public boolean isNumeric() {
    return isInteger() || isFloating() || isComplex();
  }

  /** True when elements have a fixed width and live in the tensor's byte storage. */
  public boolean isFixedWidth() {
    return kind != Kind.STRING;
  }

  /**
   * Looks a dtype up by its {@link #typeName()}, case-insensitively.
   *
   * @throws IllegalArgumentException naming the unknown name and listing the known ones
   */
  public static DType fromName(String name) {
    String wanted = name.toLowerCase(Locale.ROOT);
    for (DType d : values()) {
      if (d.typeName.equals(wanted)) {
        return d;
      }
    }
    StringBuilder known = new StringBuilder();
    for (DType d : values()) {
      known.append(known.isEmpty() ? "" : ", ").append(d.typeName);
    }
    throw new IllegalArgumentException("unknown dtype '" + name + "'; known: " + known);
  }

  @Override
  public String toString() {
    return typeName;
  }
}
