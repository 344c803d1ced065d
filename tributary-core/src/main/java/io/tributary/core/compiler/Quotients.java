package io.tributary.core.compiler;

import io.tributary.core.types.StructType;
import io.tributary.core.types.TensorType;
import io.tributary.core.types.Type;
import io.tributary.tensor.DType;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The result types of {@code generic_divide}, whose template {@code (<T,T> -> U)} leaves U to
 * TensorFlow's true-division rule: floating and complex tensors keep their dtype, 8- and 16-bit
 * integers give {@code float32}, 32- and 64-bit integers {@code float64}.
 */
final class Quotients {
  private Quotients() {}

  /** U for a T of numeric tensors, by the rule; empty when T holds something else. */
  static Optional<Type> of(Type t) {
    return switch (t) {
      case TensorType x when x.dtype().isFloating() || x.dtype().isComplex() -> Optional.of(x);
      case TensorType x when x.dtype().isInteger() -> Optional.of(new TensorType(
          x.dtype().itemSize() <= 2 ? DType.FLOAT32 : DType.FLOAT64, x.dims(), x.unknownRank()));
      case StructType s -> {
        List<StructType.Element> out = new ArrayList<>();
        for (StructType.Element e : s.elements()) {
          Optional<Type> q = of(e.type());
          if (q.isEmpty()) {
            yield Optional.empty();
          }
          out.add(new StructType.Element(e.name(), q.get()));
        }
        yield Optional.of(new StructType(out));
      }
      default -> Optional.empty();
    };
  }

  /**
   * Whether a declared U can hold the quotients of T: the same structure and shapes, with a
   * floating dtype for each real tensor and a complex one for each complex tensor. A writer may
   * choose another floating dtype than the rule's (federated-language leaves U free); the
   * quotient is then rounded to it.
   */
  static boolean accepts(Type t, Type u) {
    return switch (t) {
      case TensorType x when u instanceof TensorType y -> x.dims().equals(y.dims())
          && x.unknownRank() == y.unknownRank()
          && (x.dtype().isComplex() ? y.dtype().isComplex()
              : x.dtype().isNumeric() && (y.dtype().isFloating() || y.dtype().isComplex()));
      case StructType s when u instanceof StructType v && v.size() == s.size() -> {
        for (int i = 0; i < s.size(); i++) {
          if (!accepts(s.get(i), v.get(i))) {
            yield false;
          }
        }
        yield true;
      }
      default -> false;
    };
  }
}
