package io.tributary.learning.rounds.output;

import io.tributary.tensor.DType;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.util.HexFormat;
import java.util.Locale;

/**
 * One tensor of an aggregator's state as the text of a checkpoint property: {@code dtype[dims]
 * values}, such as {@code int64[] 3} or {@code float32[2] 0.5 1.25}. Integers are written in
 * decimal and floats as Java's shortest decimal, which reads back to the same bits; other dtypes
 * as {@code 0x} and their little-endian bytes in hex.
 */
final class AggregatorText {
  private AggregatorText() {}

  /**
   * The text of {@code t}.
   *
   * @throws IllegalArgumentException for a string tensor
   */
  static String format(Tensor t) {
    if (t.dtype() == DType.STRING) {
      throw new IllegalArgumentException("a checkpoint cannot hold a string aggregator state");
    }
    StringBuilder b = new StringBuilder(t.dtype().typeName()).append('[');
    long[] dims = t.shape().dims();
    for (int i = 0; i < dims.length; i++) {
      b.append(i == 0 ? "" : ",").append(dims[i]);
    }
    b.append(']');
    switch (t.dtype()) {
      case INT32, INT64 -> {
        for (long i = 0; i < t.size(); i++) {
          b.append(' ').append(t.dtype() == DType.INT32 ? t.getInt(i) : t.getLong(i));
        }
      }
      case FLOAT32, FLOAT64 -> {
        for (long i = 0; i < t.size(); i++) {
          b.append(' ').append(t.dtype() == DType.FLOAT32 ? Float.toString(t.getFloat(i))
              : Double.toString(t.getDouble(i)));
        }
      }
      default -> {
        byte[] bytes = new byte[Math.toIntExact(t.byteSize())];
        t.copyBytes(0, bytes, 0, bytes.length);
        b.append(" 0x").append(HexFormat.of().formatHex(bytes));
      }
    }
    return b.toString();
  }

  /**
   * The tensor {@code text} describes.
   *
   * @throws IllegalArgumentException when it is not the text of a tensor
   */
  static Tensor parse(String text) {
    String[] words = text.trim().split(" +");
    String head = words[0];
    int open = head.indexOf('[');
    if (open < 0 || !head.endsWith("]")) {
      throw new IllegalArgumentException("not dtype[dims] values: " + text);
    }
    DType dtype = DType.fromName(head.substring(0, open));
    String inside = head.substring(open + 1, head.length() - 1);
    String[] d = inside.isEmpty() ? new String[0] : inside.split(",");
    long[] dims = new long[d.length];
    for (int i = 0; i < d.length; i++) {
      dims[i] = Long.parseLong(d[i]);
      if (dims[i] < 0) {
        throw new IllegalArgumentException("negative dimension in " + head);
      }
    }
    Shape shape = Shape.of(dims);
    int n = words.length - 1;
    try {
      switch (dtype) {
        case INT32, INT64, FLOAT32, FLOAT64 -> {
          if (n != shape.size()) {
            throw new IllegalArgumentException(head + " needs " + shape.size() + " values, got "
                + n);
          }
          return switch (dtype) {
            case INT32 -> {
              int[] v = new int[n];
              for (int i = 0; i < n; i++) {
                v[i] = Integer.parseInt(words[i + 1]);
              }
              yield Tensor.ofInts(shape, v);
            }
            case INT64 -> {
              long[] v = new long[n];
              for (int i = 0; i < n; i++) {
                v[i] = Long.parseLong(words[i + 1]);
              }
              yield Tensor.ofLongs(shape, v);
            }
            case FLOAT32 -> {
              float[] v = new float[n];
              for (int i = 0; i < n; i++) {
                v[i] = Float.parseFloat(words[i + 1]);
              }
              yield Tensor.ofFloats(shape, v);
            }
            default -> {
              double[] v = new double[n];
              for (int i = 0; i < n; i++) {
                v[i] = Double.parseDouble(words[i + 1]);
              }
              yield Tensor.ofDoubles(shape, v);
            }
          };
        }
        case STRING -> throw new IllegalArgumentException("string tensors are not held");
        default -> {
          if (n != 1 || !words[1].toLowerCase(Locale.ROOT).startsWith("0x")) {
            throw new IllegalArgumentException(head + " needs 0x and its bytes in hex");
          }
          return Tensor.fromLittleEndian(dtype, shape, HexFormat.of().parseHex(words[1], 2,
              words[1].length()));
        }
      }
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("not a number in " + text + ": " + e.getMessage());
    }
  }
}
