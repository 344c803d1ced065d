package io.tributary.cli;

import io.tributary.learning.json.Json;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.util.Locale;

/**
 * What {@code inspect} reports about one tensor: its name, dtype, shape and statistics.
 *
 * @param name the tensor's name in its file
 * @param dtype the numpy-style dtype name ({@code float32}; also {@code bfloat16} and {@code string})
 * @param shape the dimensions, outermost first
 * @param stats min, max and mean
 */
record TensorSummary(String name, String dtype, Shape shape, TensorStats stats) {

  /** Summarises {@code tensor} under {@code name}. */
  static TensorSummary of(String name, Tensor tensor) {
    return new TensorSummary(name, tensor.dtype().typeName(), tensor.shape(), TensorStats.of(tensor));
  }

  /** The shape the way numpy prints it: {@code ()}, {@code (5,)}, {@code (2, 3)}. */
  String shapeText() {
    if (shape.rank() == 1) {
      return "(" + shape.dim(0) + ",)";
    }
    StringBuilder s = new StringBuilder("(");
    for (int i = 0; i < shape.rank(); i++) {
      s.append(i == 0 ? "" : ", ").append(shape.dim(i));
    }
    return s.append(')').toString();
  }

  /** This summary as one JSON object. */
  String toJson() {
    StringBuilder s = new StringBuilder("{\"name\": ").append(Json.string(name))
        .append(", \"dtype\": ").append(Json.string(dtype))
        .append(", \"shape\": [");
    for (int i = 0; i < shape.rank(); i++) {
      s.append(i == 0 ? "" : ", ").append(shape.dim(i));
    }
    return s.append("], \"min\": ").append(Json.number(stats.min()))
        .append(", \"max\": ").append(Json.number(stats.max()))
        .append(", \"mean\": ").append(Json.number(stats.mean()))
        .append('}')
        .toString();
  }

  /**
   * A statistic for the text table: {@code -} when absent, integers exactly, other numbers to
   * seven significant digits, and numpy's {@code nan}, {@code inf}, {@code -inf}.
   */
  static String text(Number n) {
    if (n == null) {
      return "-";
    }
    if (n instanceof Long || n instanceof BigInteger) {
      return n.toString();
    }
    double d = n.doubleValue();
    if (Double.isNaN(d)) {
      return "nan";
    }
    if (Double.isInfinite(d)) {
      return d > 0 ? "inf" : "-inf";
    }
    double abs = Math.abs(d);
    if (abs == 0 || (abs >= 1e-4 && abs < 1e7)) {
      return new BigDecimal(d).round(new MathContext(7)).stripTrailingZeros().toPlainString();
    }
    return String.format(Locale.ROOT, "%.6e", d);
  }

  /** The name with control characters escaped, so that one tensor stays on one table row. */
  String printableName() {
    StringBuilder s = new StringBuilder(name.length());
    name.codePoints().forEach(cp -> {
      if (Character.isISOControl(cp)) {
        s.append(String.format("\\u%04x", cp));
      } else {
        s.appendCodePoint(cp);
      }
    });
    return s.toString();
  }
}
