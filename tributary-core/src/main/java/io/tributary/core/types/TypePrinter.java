package io.tributary.core.types;

/** Prints types in the compact notation of the Federated Core. */
final class TypePrinter {
  private TypePrinter() {}

  static String print(Type type) {
    StringBuilder sb = new StringBuilder();
    append(sb, type);
    return sb.toString();
  }

  private static void append(StringBuilder sb, Type type) {
    switch (type) {
      case TensorType t -> appendTensor(sb, t);
      case SequenceType s -> {
        append(sb, s.element());
        sb.append('*');
      }
      case StructType s -> {
        sb.append('<');
        for (int i = 0; i < s.size(); i++) {
          if (i > 0) {
            sb.append(',');
          }
          StructType.Element e = s.elements().get(i);
          e.name().ifPresent(n -> sb.append(n).append('='));
          append(sb, e.type());
        }
        sb.append('>');
      }
      case FunctionType f -> {
        sb.append('(');
        if (f.parameter().isPresent()) {
          append(sb, f.parameter().get());
          sb.append(' ');
        } else {
          sb.append(' ');
        }
        sb.append("-> ");
        append(sb, f.result());
        sb.append(')');
      }
      case PlacementType p -> sb.append("placement");
      case FederatedType f -> {
        if (f.allEqual()) {
          append(sb, f.member());
        } else {
          sb.append('{');
          append(sb, f.member());
          sb.append('}');
        }
        sb.append('@').append(f.placement().label());
      }
      case AbstractType a -> sb.append(a.label());
    }
  }

  private static void appendTensor(StringBuilder sb, TensorType t) {
    sb.append(t.dtype().typeName());
    if (t.unknownRank()) {
      sb.append("[...]");
      return;
    }
    if (t.dims().isEmpty()) {
      return;
    }
    sb.append('[');
    for (int i = 0; i < t.dims().size(); i++) {
      if (i > 0) {
        sb.append(',');
      }
      long d = t.dims().get(i);
      sb.append(d == TensorType.UNKNOWN_DIM ? "?" : Long.toString(d));
    }
    sb.append(']');
  }
}
