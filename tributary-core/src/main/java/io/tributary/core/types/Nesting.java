package io.tributary.core.types;

import java.util.Optional;

/** The nesting rules, checked when a sequence or federated type is constructed. */
final class Nesting {
  private Nesting() {}

  static void checkSequenceElement(Type element) {
    findForbidden(element, true)
        .ifPresent(
            bad ->
                fail(
                    TypePrinter.print(element, TypePrinter.COMPACT_LIMIT) + "*",
                    bad,
                    "a sequence may not contain a sequence, federated, function or placement"
                        + " type"));
  }

  static void checkFederatedMember(Type member, Placement placement, boolean allEqual) {
    findForbidden(member, false)
        .ifPresent(
            bad -> {
              String m = TypePrinter.print(member, TypePrinter.COMPACT_LIMIT);
              String whole =
                  (allEqual ? m : "{" + m + "}") + "@" + placement.label();
              fail(whole, bad, "a federated type may not contain a federated, function or"
                  + " placement type");
            });
  }

  private static void fail(String whole, Type bad, String rule) {
    throw new NestingException(whole, TypePrinter.print(bad, TypePrinter.COMPACT_LIMIT), rule);
  }

  /** The first part of {@code t} that may not appear inside a sequence or federated type. */
  private static Optional<Type> findForbidden(Type t, boolean insideSequence) {
    return switch (t) {
      case FederatedType f -> Optional.of(f);
      case FunctionType f -> Optional.of(f);
      case PlacementType p -> Optional.of(p);
      case SequenceType s ->
          insideSequence ? Optional.of(s) : findForbidden(s.element(), true);
      case StructType s -> {
        for (StructType.Element e : s.elements()) {
          Optional<Type> found = findForbidden(e.type(), insideSequence);
          if (found.isPresent()) {
            yield found;
          }
        }
        yield Optional.empty();
      }
      case TensorType x -> Optional.empty();
      case AbstractType x -> Optional.empty();
    };
  }
}
