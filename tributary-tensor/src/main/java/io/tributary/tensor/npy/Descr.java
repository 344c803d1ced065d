package io.tributary.tensor.npy;

import io.tributary.tensor.DType;
import java.nio.ByteOrder;

/**
 * An NPY dtype descriptor understood by Tributary, and the mapping between descrs and
 * {@link DType}s.
 *
 * <p>Accepted descrs are a byte order ({@code <}, {@code >}, {@code |} or {@code =}, or none
 * for native as numpy reads it), a kind letter and a size: {@code b1}, {@code i1..i8},
 * {@code u1..u8}, {@code f2 f4 f8}, {@code c8 c16}, {@code U}n (UTF-32, n characters) and
 * {@code S}n (n bytes). Both string kinds read into {@link DType#STRING}.
 *
 * @param text the descr as it appeared in the header
 * @param dtype the Tributary dtype the data reads into
 * @param kind numeric data, UTF-32 text or byte strings
 * @param order the byte order of the stored data
 * @param itemSize bytes per element in the file
 */
record Descr(String text, DType dtype, Kind kind, ByteOrder order, int itemSize) {
  /** How elements are stored in the file. */
  enum Kind {
    NUMERIC,
    UNICODE,
    BYTES
  }

  /** Bytes that are swapped as a unit to change byte order: one component of a complex. */
  int swapUnit() {
    return dtype.isComplex() ? itemSize / 2 : itemSize;
  }

  boolean needsSwap() {
    return order != ByteOrder.LITTLE_ENDIAN && swapUnit() > 1;
  }

  /**
   * Maps a header's descr.
   *
   * @param isString false when the header held a list or tuple (a structured dtype)
   * @throws NpyUnsupportedDtypeException naming the descr when Tributary has no such dtype
   */
  static Descr parse(String text, boolean isString) throws NpyException {
    if (!isString) {
      throw new NpyUnsupportedDtypeException(text,
          "structured dtype " + text + " is not supported; save each field as its own array");
    }
    int i = 0;
    ByteOrder order = ByteOrder.nativeOrder();
    if (!text.isEmpty() && "<>|=".indexOf(text.charAt(0)) >= 0) {
      order = text.charAt(0) == '<' ? ByteOrder.LITTLE_ENDIAN
          : text.charAt(0) == '>' ? ByteOrder.BIG_ENDIAN : ByteOrder.nativeOrder();
      i = 1;
    }
    if (i >= text.length()) {
      throw new NpyUnsupportedDtypeException(text, "descr '" + text + "' names no dtype");
    }
    char kind = text.charAt(i);
    String size = text.substring(i + 1);
    switch (kind) {
      case 'O' -> throw new NpyUnsupportedDtypeException(text, "object dtype '" + text
          + "' holds pickled Python objects, which are never loaded; save a numeric or string array instead");
      case 'M', 'm' -> throw new NpyUnsupportedDtypeException(text, "datetime/timedelta dtype '" + text
          + "' is not supported; save it as int64 instead");
      case 'V' -> throw new NpyUnsupportedDtypeException(text, "void (raw bytes) dtype '" + text
          + "' is not supported");
      default -> { }
    }
    if (size.isEmpty() || size.length() > 9 || !size.chars().allMatch(c -> c >= '0' && c <= '9')) {
      throw new NpyUnsupportedDtypeException(text, "descr '" + text + "' is not a dtype Tributary reads"
          + " (expected byte order, kind and size, such as '<f4')");
    }
    int n = Integer.parseInt(size);
    return switch (kind) {
      case 'U' -> {
        if (n > Integer.MAX_VALUE / 4) {
          throw new NpyUnsupportedDtypeException(text, "string dtype '" + text + "' is too wide");
        }
        yield new Descr(text, DType.STRING, Kind.UNICODE, order, n * 4);
      }
      case 'S' -> new Descr(text, DType.STRING, Kind.BYTES, order, n);
      default -> new Descr(text, numeric(text, kind, n), Kind.NUMERIC, order, n);
    };
  }

  private static DType numeric(String text, char kind, int size) throws NpyException {
    DType d = switch (kind + Integer.toString(size)) {
      case "b1" -> DType.BOOL;
      case "i1" -> DType.INT8;
      case "i2" -> DType.INT16;
      case "i4" -> DType.INT32;
      case "i8" -> DType.INT64;
      case "u1" -> DType.UINT8;
      case "u2" -> DType.UINT16;
      case "u4" -> DType.UINT32;
      case "u8" -> DType.UINT64;
      case "f2" -> DType.FLOAT16;
      case "f4" -> DType.FLOAT32;
      case "f8" -> DType.FLOAT64;
      case "c8" -> DType.COMPLEX64;
      case "c16" -> DType.COMPLEX128;
      default -> null;
    };
    if (d == null) {
      String hint = (kind == 'f' || kind == 'c') && size >= 16 ? " (long double has no Tributary dtype)" : "";
      throw new NpyUnsupportedDtypeException(text, "dtype '" + text + "' is not supported" + hint);
    }
    return d;
  }

  /**
   * The descr numpy writes for a little-endian array of this fixed-width dtype.
   *
   * @throws NpyUnsupportedDtypeException for bfloat16, which numpy lacks
   */
  static String forFixedWidth(DType dtype) throws NpyUnsupportedDtypeException {
    return switch (dtype) {
      case BOOL -> "|b1";
      case INT8 -> "|i1";
      case UINT8 -> "|u1";
      case INT16 -> "<i2";
      case INT32 -> "<i4";
      case INT64 -> "<i8";
      case UINT16 -> "<u2";
      case UINT32 -> "<u4";
      case UINT64 -> "<u8";
      case FLOAT16 -> "<f2";
      case FLOAT32 -> "<f4";
      case FLOAT64 -> "<f8";
      case COMPLEX64 -> "<c8";
      case COMPLEX128 -> "<c16";
      case BFLOAT16 -> throw new NpyUnsupportedDtypeException("bfloat16",
          "bfloat16 has no numpy dtype, so it cannot be written as NPY; cast the tensor to float32,"
              + " or send it with the proto.ndarray serializer, which keeps bfloat16");
      case STRING -> throw new IllegalArgumentException("string descrs depend on the longest element");
    };
  }
}
