package io.tributary.core.types;

import java.util.function.Predicate;

/** The per-aggregation checks on which types an intrinsic can combine. */
final class Compatibility {
  private Compatibility() {}

  static boolean isSumCompatible(Type t) {
    return allTensors(t, x -> x.dtype().isNumeric() && x.isFullyDefined());
  }

  static boolean isMeanCompatible(Type t) {
    return allTensors(t, x -> x.dtype().isFloating() || x.dtype().isComplex());
  }

  static boolean isMinMaxCompatible(Type t) {
    return allTensors(
        t, x -> x.dtype().isInteger() || x.dtype().isFloating());
  }

  /** True when every leaf is a tensor satisfying {@code ok} (through structs and federated). */
  static boolean allTensors(Type t, Predicate<TensorType> ok) {
    return switch (t) {
      case TensorType x -> ok.test(x);
      case StructType s -> {
        for (StructType.Element e : s.elements()) {
          if (!allTensors(e.type(), ok)) {
            yield false;
          }
        }
        yield true;
      }
      case FederatedType f -> allTensors(f.member(), ok);
      case SequenceType s -> false;
      case FunctionType f -> false;
      case PlacementType p -> false;
      case AbstractType a -> false;
    };
  }

  static boolean isLocal(Type t) {
    return switch (t) {
      case TensorType x -> true;
      case StructType s -> {
        for (StructType.Element e : s.elements()) {
          if (!isLocal(e.type())) {
            yield false;
          }
        }
        yield true;
      }
      case SequenceType s -> isLocal(s.element());
      case FunctionType f -> (f.parameter().isEmpty() || isLocal(f.parameter().get()))
          && isLocal(f.result());
      case FederatedType f -> false;
      case PlacementType p -> false;
      case AbstractType a -> true;
    };
  }

  static boolean containsAbstract(Type t) {
    return switch (t) {
      case AbstractType a -> true;
      case TensorType x -> false;
      case PlacementType p -> false;
      case StructType s -> {
        for (StructType.Element e : s.elements()) {
          if (containsAbstract(e.type())) {
            yield true;
          }
        }
        yield false;
      }
      case SequenceType s -> containsAbstract(s.element());
      case FederatedType f -> containsAbstract(f.member());
      case FunctionType f -> (f.parameter().isPresent() && containsAbstract(f.parameter().get()))
          || containsAbstract(f.result());
    };
  }
}
