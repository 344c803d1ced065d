package io.tributary.core.compiler;

import io.tributary.core.types.AbstractType;
import io.tributary.core.types.FederatedType;
import io.tributary.core.types.FunctionType;
import io.tributary.core.types.Placement;
import io.tributary.core.types.PlacementType;
import io.tributary.core.types.SequenceType;
import io.tributary.core.types.StructType;
import io.tributary.core.types.TensorType;
import io.tributary.core.types.Type;
import io.tributary.core.types.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One built-in operator: its federated-language URI, its template signature, and the extra
 * conditions its type variables must meet.
 *
 * <p>Instances live in {@link IntrinsicCatalogue}.
 */
public final class IntrinsicDef {
  /** An extra condition on the bound type variables; empty when it holds. */
  @FunctionalInterface
  interface Condition {
    Optional<String> check(Map<String, Type> bindings);
  }

  private enum Mode {
    /** Match the template's parameter and substitute into its result. */
    TEMPLATE,
    /** A struct of values placed at one placement becomes a placed struct. */
    ZIP,
    /** Not a function: the intrinsic is itself a value of any type meeting the condition. */
    VALUE,
    /** Like a template, with U the true-division result of T ({@link Quotients}). */
    QUOTIENT
  }

  private final String uri;
  private final Type signature;
  private final Mode mode;
  private final Condition condition;
  private final String conditionText;
  private final Placement zipPlacement;

  private IntrinsicDef(
      String uri,
      Type signature,
      Mode mode,
      Condition condition,
      String conditionText,
      Placement zipPlacement) {
    this.uri = uri;
    this.signature = signature;
    this.mode = mode;
    this.condition = condition;
    this.conditionText = conditionText;
    this.zipPlacement = zipPlacement;
  }

  static IntrinsicDef template(String uri, String signature) {
    return new IntrinsicDef(uri, Types.parse(signature), Mode.TEMPLATE, b -> Optional.empty(), "",
        null);
  }

  static IntrinsicDef template(
      String uri, String signature, String conditionText, Condition condition) {
    return new IntrinsicDef(
        uri, Types.parse(signature), Mode.TEMPLATE, condition, conditionText, null);
  }

  /** The same kind and condition under another URI and template (a tier's variant). */
  IntrinsicDef withSignature(String otherUri, String otherSignature) {
    if (mode != Mode.TEMPLATE) {
      throw new IllegalStateException(uri + " is not a template intrinsic");
    }
    return new IntrinsicDef(otherUri, Types.parse(otherSignature), Mode.TEMPLATE, condition,
        conditionText, null);
  }

  static IntrinsicDef zip(String uri, Placement placement) {
    String sig = "(T -> " + (placement.singleton() ? "U" : "{U}") + "@" + placement.label() + ")";
    return new IntrinsicDef(
        uri,
        Types.parse(sig),
        Mode.ZIP,
        b -> Optional.empty(),
        "T is a struct of values placed at " + placement.label()
            + ", U the same struct without the placement",
        placement);
  }

  static IntrinsicDef quotient(String uri, String conditionText, Condition condition) {
    return new IntrinsicDef(
        uri, Types.parse("(<T,T> -> U)"), Mode.QUOTIENT, condition, conditionText, null);
  }

  static IntrinsicDef value(String uri, String conditionText, Condition condition) {
    return new IntrinsicDef(uri, Types.parse("T"), Mode.VALUE, condition, conditionText, null);
  }

  /** The URI, which is also the name printed in computations, such as {@code federated_mean}. */
  public String uri() {
    return uri;
  }

  /** The template signature, such as {@code ({T}@CLIENTS -> T@SERVER)}. */
  public Type signature() {
    return signature;
  }

  /** The extra condition on the type variables in words, or an empty string. */
  public String condition() {
    return conditionText;
  }

  /** True for intrinsics whose signature is a function type (all but {@code generic_zero}). */
  public boolean isFunction() {
    return mode != Mode.VALUE;
  }

  /** The signature, followed by its condition when there is one. */
  public String describe() {
    return conditionText.isEmpty() ? signature.compact() : signature.compact() + " where "
        + conditionText;
  }

  private String expectedParameter() {
    String param =
        signature instanceof FunctionType f
            ? f.parameter().map(Type::compact).orElse("no argument")
            : signature.compact();
    return conditionText.isEmpty() ? param : param + " where " + conditionText;
  }

  /**
   * Fits this intrinsic to an argument type.
   *
   * <p>The concrete signature is the template instantiated as federated-language instantiates
   * it (its {@code Intrinsic} constructor refuses any other form): each type variable takes the
   * part of {@code argument} it matched, while placements, all-equal marks, fixed tensor types and
   * struct names come from the template. So {@code federated_sum} of an all-equal {@code
   * int32@CLIENTS} is written {@code ({int32}@CLIENTS -> int32@SERVER)}; the argument is
   * assignable to that parameter by construction.
   *
   * @param argument the argument's type, empty for a call without an argument
   * @return the concrete signature, or why it does not fit
   */
  public Specialization specialize(Optional<Type> argument) {
    Objects.requireNonNull(argument, "argument");
    String actual = argument.map(Type::compact).orElse("no argument");
    if (mode == Mode.VALUE) {
      return new Specialization.Failure(
          uri + " is a value, not a function, and cannot be called", signature.compact(), actual);
    }
    if (argument.isEmpty()) {
      return new Specialization.Failure(
          uri + " needs an argument", expectedParameter(), actual);
    }
    if (mode == Mode.ZIP) {
      return specializeZip(argument.get());
    }
    FunctionType template = (FunctionType) signature;
    Unifier unifier = new Unifier();
    if (!unifier.unify(template.parameter().orElseThrow(), argument.get(), true)) {
      return new Specialization.Failure(unifier.problem(), expectedParameter(), actual);
    }
    Optional<String> broken = condition.check(unifier.bindings());
    if (broken.isPresent()) {
      return new Specialization.Failure(broken.get(), expectedParameter(), actual);
    }
    if (mode == Mode.QUOTIENT) {
      Optional<Type> quotient = Quotients.of(unifier.bindings().get("T"));
      if (quotient.isEmpty()) {
        return new Specialization.Failure("T has no quotient type", expectedParameter(), actual);
      }
      unifier.bindings().put("U", quotient.get());
    }
    try {
      Type parameter = instantiate(template.parameter().orElseThrow(), argument.get(), true);
      Type result = unifier.substitute(template.result());
      return new Specialization.Success(FunctionType.of(parameter, result));
    } catch (IllegalArgumentException e) {
      return new Specialization.Failure(e.getMessage(), expectedParameter(), actual);
    }
  }

  /**
   * The template with each type variable replaced by the part of {@code actual} it matched; the
   * two have the same structure, since {@code actual} unified with the template. A struct takes
   * the template's (absent) names in a function's parameter, as federated-language strips them
   * there, and the actual's names where a value flows in, so the argument stays assignable.
   */
  private static Type instantiate(Type template, Type actual, boolean covariant) {
    return switch (template) {
      case AbstractType a -> actual;
      case TensorType t -> t;
      case PlacementType p -> p;
      case SequenceType s -> new SequenceType(instantiate(s.element(),
          ((SequenceType) actual).element(), covariant));
      case FederatedType f -> new FederatedType(instantiate(f.member(),
          ((FederatedType) actual).member(), covariant), f.placement(), f.allEqual());
      case FunctionType f -> {
        FunctionType af = (FunctionType) actual;
        yield new FunctionType(
            f.parameter().map(p -> instantiate(p, af.parameter().orElseThrow(), !covariant)),
            instantiate(f.result(), af.result(), covariant));
      }
      case StructType s -> {
        StructType as = (StructType) actual;
        List<StructType.Element> out = new ArrayList<>();
        for (int i = 0; i < s.size(); i++) {
          StructType.Element names = covariant ? as.elements().get(i) : s.elements().get(i);
          out.add(new StructType.Element(names.name(),
              instantiate(s.get(i), as.get(i), covariant)));
        }
        yield new StructType(out);
      }
    };
  }

  /**
   * A zip's parameter as federated-language writes it: client leaves (and edge leaves, likewise)
   * are not all-equal.
   */
  private static Type zipParameter(Type t) {
    return switch (t) {
      case FederatedType f when !f.placement().singleton() && f.allEqual() ->
          new FederatedType(f.member(), f.placement(), false);
      case StructType s -> {
        List<StructType.Element> out = new ArrayList<>();
        for (StructType.Element e : s.elements()) {
          out.add(new StructType.Element(e.name(), zipParameter(e.type())));
        }
        yield new StructType(out);
      }
      default -> t;
    };
  }

  private Specialization specializeZip(Type argument) {
    String expected = expectedParameter();
    if (!(argument instanceof StructType s) || s.size() == 0) {
      return new Specialization.Failure(
          uri + " zips a non-empty struct of values placed at " + zipPlacement.label(),
          expected, argument.compact());
    }
    Optional<Type> member = unplace(s);
    if (member.isEmpty()) {
      return new Specialization.Failure(
          "every element must be placed at " + zipPlacement.label(), expected, argument.compact());
    }
    Type result = new FederatedType(member.get(), zipPlacement, zipPlacement.singleton());
    return new Specialization.Success(FunctionType.of(zipParameter(argument), result));
  }

  /** The struct with each placed leaf replaced by its member, or empty if a leaf is not placed. */
  private Optional<Type> unplace(Type t) {
    if (t instanceof FederatedType f && f.placement().equals(zipPlacement)) {
      return Optional.of(f.member());
    }
    if (t instanceof StructType s && s.size() > 0) {
      List<StructType.Element> out = new ArrayList<>();
      for (StructType.Element e : s.elements()) {
        Optional<Type> m = unplace(e.type());
        if (m.isEmpty()) {
          return Optional.empty();
        }
        out.add(new StructType.Element(e.name(), m.get()));
      }
      return Optional.of(new StructType(out));
    }
    return Optional.empty();
  }

  /**
   * Checks that {@code type} is a valid concrete type for a use of this intrinsic.
   *
   * @return empty when it is, else the reason
   */
  public Optional<Specialization.Failure> checkInstance(Type type) {
    if (mode == Mode.VALUE) {
      Optional<String> broken =
          Types.containsAbstract(type)
              ? Optional.of("the type must be concrete")
              : condition.check(Map.of("T", type));
      return broken.map(
          why -> new Specialization.Failure(why, signature.compact() + " where " + conditionText,
              type.compact()));
    }
    if (!(type instanceof FunctionType f)) {
      return Optional.of(
          new Specialization.Failure(uri + " has a function type", describe(), type.compact()));
    }
    Specialization s = specialize(f.parameter());
    return switch (s) {
      case Specialization.Failure failure -> Optional.of(failure);
      case Specialization.Success ok ->
          (mode == Mode.QUOTIENT
                  ? Quotients.accepts(firstElement(ok.type()), f.result())
                  : Types.isAssignable(f.result(), ok.type().result()))
              ? Optional.empty()
              : Optional.of(
                  new Specialization.Failure(
                      "the declared result does not match the signature",
                      ok.type().compact(),
                      type.compact()));
    };
  }

  /** T of a {@code (<T,T> -> U)} signature. */
  private static Type firstElement(FunctionType f) {
    return ((StructType) f.parameter().orElseThrow()).get(0);
  }

  @Override
  public String toString() {
    return uri + ": " + describe();
  }
}
