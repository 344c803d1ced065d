package io.tributary.core.types;

import io.tributary.tensor.DType;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * Entry points for building types, for the compact notation and for the relations between types.
 *
 * <p>Build types from other types with the methods below rather than by gluing strings for
 * {@link #parse}: {@code Types.atClients(Types.sequence(batch))} gives {@code {B*}@CLIENTS} for
 * any {@code Type batch}, where {@code Types.parse("{" + batch + "*}@CLIENTS")} would print and
 * re-read it. {@link #parse} stays the shortest way to write a fixed type, such as {@code
 * Types.parse("<x=float32[?,64],y=int64[?]>")}.
 *
 * <p>Assignability follows federated-language: a value of type {@code source} may be used where
 * {@code target} is expected when
 *
 * <ul>
 *   <li>tensors have the same dtype (no implicit casts); a target dimension {@code ?} accepts any
 *       size and a target of unknown rank accepts any shape, never the reverse;
 *   <li>structs have the same length and compare element by element in order; a named source
 *       element needs the same name on the target element, an unnamed one matches any name;
 *   <li>sequences are covariant;
 *   <li>functions take a parameter contravariantly and give a result covariantly;
 *   <li>federated types have the same placement and assignable members, and an all-equal target
 *       ({@code T@CLIENTS}) only accepts all-equal sources, while {@code {T}@CLIENTS} accepts
 *       both;
 *   <li>abstract types match only the same label, placement types match each other.
 * </ul>
 *
 * Two types are equivalent when each is assignable from the other.
 */
public final class Types {
  private Types() {}

  /** {@code {T}@CLIENTS}: a value per client, each client holding its own. */
  public static FederatedType atClients(Type member) {
    return FederatedType.atClients(member);
  }

  /** {@code T@CLIENTS}: one value that every client holds. */
  public static FederatedType atClientsAllEqual(Type member) {
    return FederatedType.atClientsAllEqual(member);
  }

  /** {@code {T}@EDGES}: a value per edge, each edge holding its own. */
  public static FederatedType atEdges(Type member) {
    return FederatedType.atEdges(member);
  }

  /** {@code T@EDGES}: one value that every edge holds. */
  public static FederatedType atEdgesAllEqual(Type member) {
    return FederatedType.atEdgesAllEqual(member);
  }

  /** {@code T@SERVER}: a value on the server. */
  public static FederatedType atServer(Type member) {
    return FederatedType.atServer(member);
  }

  /** {@code T*}: a sequence of elements of type {@code element}. */
  public static SequenceType sequence(Type element) {
    return new SequenceType(element);
  }

  /**
   * A tensor type of fully or partly known shape: {@code tensor(FLOAT32, 10, 5)} is {@code
   * float32[10,5]}, {@link TensorType#UNKNOWN_DIM} stands for {@code ?}, and no dims give a
   * scalar.
   */
  public static TensorType tensor(DType dtype, long... dims) {
    return TensorType.of(dtype, dims);
  }

  /** A struct of unnamed elements {@code <T1,T2,...>}. */
  public static StructType struct(Type... elements) {
    return StructType.of(elements);
  }

  /**
   * A struct of named elements from alternating names and types: {@code named("x", t1, "y",
   * t2)} is {@code <x=T1,y=T2>}.
   *
   * @throws IllegalArgumentException if the arguments are not name, type pairs
   */
  public static StructType named(Object... nameTypePairs) {
    for (int i = 0; i < nameTypePairs.length; i++) {
      Object arg = nameTypePairs[i];
      boolean ok = i % 2 == 0 ? arg instanceof String : arg instanceof Type;
      if (!ok) {
        throw new IllegalArgumentException("named(...) takes name, type pairs; argument " + i
            + " is " + (arg == null ? "null" : arg.getClass().getSimpleName()));
      }
    }
    return StructType.named(nameTypePairs);
  }

  /** {@code (P -> R)}: a function from {@code parameter} to {@code result}. */
  public static FunctionType function(Type parameter, Type result) {
    return FunctionType.of(parameter, result);
  }

  /** Parses compact notation with the standard placements CLIENTS, EDGES and SERVER. */
  public static Type parse(String text) {
    return parse(text, Placements.standard());
  }

  /**
   * Parses compact notation, resolving {@code @LABEL} against {@code placements}.
   *
   * @throws TypeParseException with the text and a caret under the failing column
   */
  public static Type parse(String text, Placements placements) {
    Objects.requireNonNull(text, "text");
    return new TypeParser(text, placements).parseAll();
  }

  /** The compact notation of {@code type}; {@link #parse} reads it back to an equal type. */
  public static String print(Type type) {
    return TypePrinter.print(type);
  }

  /** True when a value of type {@code source} may be used where {@code target} is expected. */
  public static boolean isAssignable(Type target, Type source) {
    return Assignability.isAssignable(target, source);
  }

  /** True when each type is assignable from the other. */
  public static boolean isEquivalent(Type a, Type b) {
    return isAssignable(a, b) && isAssignable(b, a);
  }

  /**
   * True for what {@code federated_sum} can add: numeric tensors of fully defined shape, and
   * structs (or federated values) made of them.
   */
  public static boolean isSumCompatible(Type t) {
    return Compatibility.isSumCompatible(t);
  }

  /**
   * True for what {@code federated_mean} can average: tensors of a floating (or complex) dtype,
   * and structs (or federated values) made of them.
   */
  public static boolean isMeanCompatible(Type t) {
    return Compatibility.isMeanCompatible(t);
  }

  /**
   * True for what {@code federated_min} and {@code federated_max} can compare: integer or
   * floating tensors, and structs (or federated values) made of them.
   */
  public static boolean isMinMaxCompatible(Type t) {
    return Compatibility.isMinMaxCompatible(t);
  }

  /**
   * True when every leaf of {@code t}, looking through structs and federated types, is a tensor
   * type that satisfies {@code test}; false when a leaf is any other kind.
   */
  public static boolean allTensors(Type t, Predicate<TensorType> test) {
    return Compatibility.allTensors(t, test);
  }

  /** True when {@code t} contains no federated or placement type anywhere. */
  public static boolean isLocal(Type t) {
    return Compatibility.isLocal(t);
  }

  /** True when {@code t} mentions an abstract type anywhere. */
  public static boolean containsAbstract(Type t) {
    return Compatibility.containsAbstract(t);
  }
}
