package io.tributary.core.compiler;

import io.tributary.core.types.AbstractType;
import io.tributary.core.types.FederatedType;
import io.tributary.core.types.FunctionType;
import io.tributary.core.types.PlacementType;
import io.tributary.core.types.SequenceType;
import io.tributary.core.types.StructType;
import io.tributary.core.types.TensorType;
import io.tributary.core.types.Type;
import io.tributary.core.types.Types;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Matches a template type containing {@link AbstractType} variables against a concrete type.
 *
 * <p>A variable is bound at its first occurrence. A later covariant occurrence (a value flowing
 * in) must be assignable to the binding; a later contravariant occurrence (a function parameter)
 * must accept the binding. One instance matches one template.
 */
final class Unifier {
  private final Map<String, Type> bindings = new HashMap<>();
  private String problem = "";

  Map<String, Type> bindings() {
    return bindings;
  }

  /** Why the last {@link #unify} failed. */
  String problem() {
    return problem;
  }

  boolean unify(Type template, Type actual, boolean covariant) {
    return switch (template) {
      case AbstractType a -> bind(a.label(), actual, covariant);
      case TensorType t -> {
        boolean ok = covariant ? Types.isAssignable(t, actual) : Types.isAssignable(actual, t);
        yield ok || fail("expected " + t + " but found " + actual);
      }
      case PlacementType p ->
          actual instanceof PlacementType || fail("expected a placement but found " + actual);
      case SequenceType s ->
          actual instanceof SequenceType as
              ? unify(s.element(), as.element(), covariant)
              : fail("expected a sequence but found " + actual);
      case StructType s -> unifyStruct(s, actual, covariant);
      case FederatedType f -> unifyFederated(f, actual, covariant);
      case FunctionType f -> unifyFunction(f, actual, covariant);
    };
  }

  private boolean unifyStruct(StructType s, Type actual, boolean covariant) {
    if (!(actual instanceof StructType as)) {
      return fail("expected a struct of " + s.size() + " elements but found " + actual);
    }
    if (as.size() != s.size()) {
      return fail(
          "expected a struct of " + s.size() + " elements but found " + as.size() + ": " + actual);
    }
    for (int i = 0; i < s.size(); i++) {
      if (!unify(s.get(i), as.get(i), covariant)) {
        problem = "element " + i + ": " + problem;
        return false;
      }
    }
    return true;
  }

  private boolean unifyFederated(FederatedType f, Type actual, boolean covariant) {
    if (!(actual instanceof FederatedType af)) {
      return fail("expected a value placed at " + f.placement() + " but found " + actual);
    }
    if (!af.placement().equals(f.placement())) {
      return fail(
          "expected a value placed at " + f.placement() + " but found one at " + af.placement()
              + ": " + actual);
    }
    boolean wantAllEqual = covariant ? f.allEqual() : af.allEqual();
    boolean haveAllEqual = covariant ? af.allEqual() : f.allEqual();
    if (wantAllEqual && !haveAllEqual) {
      return fail("expected an all-equal value " + f + " but found " + actual);
    }
    return unify(f.member(), af.member(), covariant);
  }

  private boolean unifyFunction(FunctionType f, Type actual, boolean covariant) {
    if (!(actual instanceof FunctionType af)) {
      return fail("expected a function " + f + " but found " + actual);
    }
    if (f.parameter().isPresent() != af.parameter().isPresent()) {
      return fail(
          f.parameter().isPresent()
              ? "expected a function with a parameter but found " + actual
              : "expected a function without a parameter but found " + actual);
    }
    if (f.parameter().isPresent()
        && !unify(f.parameter().get(), af.parameter().get(), !covariant)) {
      return false;
    }
    return unify(f.result(), af.result(), covariant);
  }

  private boolean bind(String label, Type actual, boolean covariant) {
    Type bound = bindings.get(label);
    if (bound == null) {
      if (Types.containsAbstract(actual)) {
        return fail(label + " would be bound to the template type " + actual);
      }
      bindings.put(label, actual);
      return true;
    }
    boolean ok = covariant ? Types.isAssignable(bound, actual) : Types.isAssignable(actual, bound);
    return ok
        || fail(
            label + " is " + bound + ", but a later use has " + actual
                + (covariant ? ", which is not assignable to it" : ", which does not accept it"));
  }

  private boolean fail(String why) {
    problem = why;
    return false;
  }

  /**
   * Replaces every bound variable in {@code template}.
   *
   * @throws IllegalArgumentException when the result breaks a nesting rule
   */
  Type substitute(Type template) {
    return switch (template) {
      case AbstractType a -> {
        Type b = bindings.get(a.label());
        if (b == null) {
          throw new IllegalStateException("type variable " + a.label() + " was never bound");
        }
        yield b;
      }
      case TensorType t -> t;
      case PlacementType p -> p;
      case SequenceType s -> new SequenceType(substitute(s.element()));
      case FederatedType f ->
          new FederatedType(substitute(f.member()), f.placement(), f.allEqual());
      case FunctionType f ->
          new FunctionType(f.parameter().map(this::substitute), substitute(f.result()));
      case StructType s -> {
        List<StructType.Element> out = new ArrayList<>();
        for (StructType.Element e : s.elements()) {
          out.add(new StructType.Element(e.name(), substitute(e.type())));
        }
        yield new StructType(out);
      }
    };
  }

  Optional<Type> bound(String label) {
    return Optional.ofNullable(bindings.get(label));
  }
}
