package io.tributary.core.types;

import java.util.List;

/** The assignability relation; see {@link Types} for the rules. */
final class Assignability {
  private Assignability() {}

  static boolean isAssignable(Type target, Type source) {
    return switch (target) {
      case TensorType t -> source instanceof TensorType s && tensor(t, s);
      case StructType t -> source instanceof StructType s && struct(t, s);
      case SequenceType t ->
          source instanceof SequenceType s && isAssignable(t.element(), s.element());
      case FunctionType t -> source instanceof FunctionType s && function(t, s);
      case FederatedType t ->
          source instanceof FederatedType s
              && t.placement().equals(s.placement())
              && (!t.allEqual() || s.allEqual())
              && isAssignable(t.member(), s.member());
      case PlacementType t -> source instanceof PlacementType;
      case AbstractType t -> source instanceof AbstractType s && t.label().equals(s.label());
    };
  }

  private static boolean tensor(TensorType target, TensorType source) {
    if (target.dtype() != source.dtype()) {
      return false;
    }
    if (target.unknownRank()) {
      return true;
    }
    if (source.unknownRank() || target.rank() != source.rank()) {
      return false;
    }
    List<Long> td = target.dims();
    List<Long> sd = source.dims();
    for (int i = 0; i < td.size(); i++) {
      if (td.get(i) != TensorType.UNKNOWN_DIM && !td.get(i).equals(sd.get(i))) {
        return false;
      }
    }
    return true;
  }

  private static boolean struct(StructType target, StructType source) {
    if (target.size() != source.size()) {
      return false;
    }
    for (int i = 0; i < target.size(); i++) {
      StructType.Element t = target.elements().get(i);
      StructType.Element s = source.elements().get(i);
      if (s.name().isPresent() && !s.name().equals(t.name())) {
        return false;
      }
      if (!isAssignable(t.type(), s.type())) {
        return false;
      }
    }
    return true;
  }

  private static boolean function(FunctionType target, FunctionType source) {
    if (target.parameter().isPresent() != source.parameter().isPresent()) {
      return false;
    }
    if (target.parameter().isPresent()
        && !isAssignable(source.parameter().get(), target.parameter().get())) {
      return false;
    }
    return isAssignable(target.result(), source.result());
  }
}
