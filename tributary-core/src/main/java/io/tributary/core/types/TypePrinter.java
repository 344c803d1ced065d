package io.tributary.core.types;

/**
 * Prints types in the compact notation of the Federated Core, whole or cut at a length: a type
 * built by inference may share its parts (a block local used twice in a struct), so its printed
 * form can be exponentially longer than the computation, and a message must not print it all.
 */
final class TypePrinter {
  /** The longest compact notation {@link Type#compact} prints before cutting. */
  static final int COMPACT_LIMIT = 4096;

  private TypePrinter() {}

  /** The whole notation, which {@link Types#parse} reads back. */
  static String print(Type type) {
    StringBuilder sb = new StringBuilder();
    append(sb, type, Integer.MAX_VALUE);
    return sb.toString();
  }

  /**
   * At most {@code limit} characters of the notation, then {@code ...}: the work is bounded by
   * the limit, not by the type's size.
   */
  static String print(Type type, int limit) {
    StringBuilder sb = new StringBuilder();
    append(sb, type, limit);
    if (sb.length() > limit) {
      sb.setLength(limit);
      sb.append("...");
    }
    return sb.toString();
  }

  private static void append(StringBuilder sb, Type type, int limit) {
    if (sb.length() > limit) {
      return;
    }
    switch (type) {
      case TensorType t -> appendTensor(sb, t);
      case SequenceType s -> {
        append(sb, s.element(), limit);
        sb.append('*');
      }
      case StructType s -> {
        sb.append('<');
        for (int i = 0; i < s.size() && sb.length() <= limit; i++) {
          if (i > 0) {
            sb.append(',');
          }
          StructType.Element e = s.elements().get(i);
          e.name().ifPresent(n -> sb.append(n).append('='));
          append(sb, e.type(), limit);
        }
        sb.append('>');
      }
      case FunctionType f -> {
        sb.append('(');
        if (f.parameter().isPresent()) {
          append(sb, f.parameter().get(), limit);
          sb.append(' ');
        } else {
          sb.append(' ');
        }
        sb.append("-> ");
        append(sb, f.result(), limit);
        sb.append(')');
      }
      case PlacementType p -> sb.append("placement");
      case FederatedType f -> {
        if (f.allEqual()) {
          append(sb, f.member(), limit);
        } else {
          sb.append('{');
          append(sb, f.member(), limit);
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
