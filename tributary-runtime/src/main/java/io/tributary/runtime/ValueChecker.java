package io.tributary.runtime;

import io.tributary.core.types.FederatedType;
import io.tributary.core.types.FunctionType;
import io.tributary.core.types.PlacementType;
import io.tributary.core.types.SequenceType;
import io.tributary.core.types.StructType;
import io.tributary.core.types.TensorType;
import io.tributary.core.types.Type;
import io.tributary.core.values.StructValue;
import io.tributary.tensor.Tensor;
import java.util.Optional;

/**
 * Checks that a runtime value fits a local type, naming the first misfit and where it is.
 *
 * <p>The value representation: a tensor type is a {@link Tensor} of that dtype and a compatible
 * shape; a struct type a {@link StructValue} with the same number of elements (a named element
 * of the type needs the same name in the value, an unnamed one accepts any); a sequence type an
 * {@link Iterable} whose every element fits the element type.
 */
public final class ValueChecker {
  private ValueChecker() {}

  /**
   * Checks {@code value} against the local type {@code type}.
   *
   * @param where the value's location for the message, such as {@code "argument 0"}
   * @throws ValueMismatchException naming {@code where} and the path inside the value
   */
  public static void check(Type type, Object value, String where) {
    Optional<String> problem = problem(type, value, "");
    if (problem.isPresent()) {
      throw new ValueMismatchException(where + ": " + problem.get());
    }
  }

  /** The first misfit of {@code value} against {@code type}, or empty when it fits. */
  public static Optional<String> problem(Type type, Object value, String path) {
    // Every batch of every client is checked every round: test first, and build the path and
    // the message only for a value that does not fit.
    return fits(type, value) ? Optional.empty() : diagnose(type, value, path);
  }

  /** Whether {@code value} fits {@code type}: {@link #diagnose}'s rules, building nothing. */
  static boolean fits(Type type, Object value) {
    return switch (type) {
      case TensorType t -> value instanceof Tensor x && tensorFits(t, x);
      case StructType s -> value instanceof StructValue v && structFits(s, v);
      case SequenceType s -> value instanceof Iterable<?> it && sequenceFits(s, it);
      default -> false;
    };
  }

  private static boolean tensorFits(TensorType t, Tensor x) {
    if (x.dtype() != t.dtype()) {
      return false;
    }
    if (t.unknownRank()) {
      return true;
    }
    if (x.rank() != t.rank()) {
      return false;
    }
    for (int i = 0; i < t.rank(); i++) {
      long want = t.dims().get(i);
      if (want != TensorType.UNKNOWN_DIM && want != x.shape().dim(i)) {
        return false;
      }
    }
    return true;
  }

  private static boolean structFits(StructType s, StructValue v) {
    if (v.size() != s.size()) {
      return false;
    }
    for (int i = 0; i < s.size(); i++) {
      Optional<String> name = s.elements().get(i).name();
      if (name.isPresent() && !v.names().get(i).equals(name) || !fits(s.get(i), v.get(i))) {
        return false;
      }
    }
    return true;
  }

  private static boolean sequenceFits(SequenceType s, Iterable<?> it) {
    for (Object element : it) {
      if (!fits(s.element(), element)) {
        return false;
      }
    }
    return true;
  }

  /** {@link #problem} for a value known not to fit, or found to: the first misfit, named. */
  private static Optional<String> diagnose(Type type, Object value, String path) {
    String at = path.isEmpty() ? "" : " at " + path;
    if (value == null) {
      return Optional.of("null where a value of type " + type + " is expected" + at);
    }
    return switch (type) {
      case TensorType t -> tensor(t, value, at);
      case StructType s -> struct(s, value, path, at);
      case SequenceType s -> sequence(s, value, path, at);
      case FederatedType f ->
          Optional.of("a federated type " + f + " cannot be checked as a local value" + at);
      case FunctionType f -> Optional.of("a function of type " + f + " cannot be a data value" + at);
      case PlacementType p -> Optional.of("a placement cannot be a data value" + at);
      default -> Optional.of("the abstract type " + type + " has no values" + at);
    };
  }

  private static Optional<String> tensor(TensorType t, Object value, String at) {
    if (!(value instanceof Tensor x)) {
      return Optional.of("expected a Tensor of type " + t + " but found " + describe(value) + at);
    }
    if (x.dtype() != t.dtype()) {
      return Optional.of("expected dtype " + t.dtype() + " but the tensor is " + x.dtype()
          + x.shape() + at);
    }
    if (t.unknownRank()) {
      return Optional.empty();
    }
    long[] dims = x.shape().dims();
    boolean fits = dims.length == t.rank();
    for (int i = 0; fits && i < dims.length; i++) {
      long want = t.dims().get(i);
      fits = want == TensorType.UNKNOWN_DIM || want == dims[i];
    }
    return fits ? Optional.empty()
        : Optional.of("expected shape " + t + " but the tensor is " + x.dtype() + x.shape() + at);
  }

  private static Optional<String> struct(StructType s, Object value, String path, String at) {
    if (!(value instanceof StructValue v)) {
      return Optional.of("expected a StructValue of type " + s + " but found " + describe(value)
          + at);
    }
    if (v.size() != s.size()) {
      return Optional.of("expected a struct of " + s.size() + " elements (" + s + ") but found "
          + v.size() + at);
    }
    for (int i = 0; i < s.size(); i++) {
      Optional<String> name = s.elements().get(i).name();
      if (name.isPresent() && !v.names().get(i).equals(name)) {
        return Optional.of("element " + i + " should be named '" + name.get() + "' but is "
            + v.names().get(i).map(n -> "named '" + n + "'").orElse("unnamed") + at);
      }
      String child = path + "[" + name.orElse(Integer.toString(i)) + "]";
      Optional<String> p = problem(s.get(i), v.get(i), child);
      if (p.isPresent()) {
        return p;
      }
    }
    return Optional.empty();
  }

  private static Optional<String> sequence(SequenceType s, Object value, String path, String at) {
    if (!(value instanceof Iterable<?> it)) {
      return Optional.of("expected an Iterable for the sequence type " + s + " but found "
          + describe(value) + at);
    }
    long i = 0;
    for (Object element : it) {
      Optional<String> p = problem(s.element(), element, path + "{" + i + "}");
      if (p.isPresent()) {
        return p;
      }
      i++;
    }
    return Optional.empty();
  }

  /** A short description of a value's kind for messages: its class, or a tensor's type. */
  public static String describe(Object value) {
    if (value == null) {
      return "null";
    }
    if (value instanceof Tensor t) {
      return "a " + t.dtype() + t.shape() + " tensor";
    }
    return "a " + value.getClass().getSimpleName();
  }
}
