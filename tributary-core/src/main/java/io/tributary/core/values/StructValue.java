package io.tributary.core.values;

import io.tributary.tensor.Tensor;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The value of a struct type at run time: element values in order, each with an optional name,
 * such as the value of {@code <x=float32[?,64],y=int64[?]>}.
 *
 * <p>Immutable. Equal when the names and the elements are equal.
 */
public final class StructValue {
  private final List<Optional<String>> names;
  private final List<Object> values;

  private StructValue(List<Optional<String>> names, List<Object> values) {
    this.names = names;
    this.values = values;
  }

  /**
   * A struct with these element names (empty for an unnamed element) and values.
   *
   * @throws IllegalArgumentException if the lists differ in length, a value is null or two
   *     elements share a name
   */
  public static StructValue of(List<Optional<String>> names, List<?> values) {
    if (names.size() != values.size()) {
      throw new IllegalArgumentException("a struct value needs one name slot per element, got "
          + names.size() + " names and " + values.size() + " values");
    }
    Set<String> seen = new HashSet<>();
    List<Object> copy = new ArrayList<>(values.size());
    for (int i = 0; i < names.size(); i++) {
      Optional<String> name = Objects.requireNonNull(names.get(i), "name slot " + i);
      Object v = values.get(i);
      if (v == null) {
        throw new IllegalArgumentException("element " + i + " of a struct value is null");
      }
      if (name.isPresent() && !seen.add(name.get())) {
        throw new IllegalArgumentException(
            "a struct value has two elements named '" + name.get() + "'");
      }
      copy.add(v);
    }
    return new StructValue(List.copyOf(names), Collections.unmodifiableList(copy));
  }

  /** An unnamed struct {@code <v1,v2,...>}. */
  public static StructValue of(Object... values) {
    return of(Collections.nCopies(values.length, Optional.empty()), List.of(values));
  }

  /** A named struct from alternating names and values: {@code named("a", x, "b", y)}. */
  public static StructValue named(Object... nameValuePairs) {
    if (nameValuePairs.length % 2 != 0) {
      throw new IllegalArgumentException(
          "named(...) takes name, value pairs, got " + nameValuePairs.length + " arguments");
    }
    List<Optional<String>> names = new ArrayList<>();
    List<Object> values = new ArrayList<>();
    for (int i = 0; i < nameValuePairs.length; i += 2) {
      if (!(nameValuePairs[i] instanceof String n)) {
        throw new IllegalArgumentException("argument " + i + " of named(...) is not a name");
      }
      names.add(Optional.of(n));
      values.add(nameValuePairs[i + 1]);
    }
    return of(names, values);
  }

  /** The number of elements. */
  public int size() {
    return values.size();
  }

  /** The element at {@code index}. */
  public Object get(int index) {
    return values.get(index);
  }

  /**
   * The element named {@code name}.
   *
   * @throws IllegalArgumentException if there is none
   */
  public Object get(String name) {
    int i = names.indexOf(Optional.of(name));
    if (i < 0) {
      throw new IllegalArgumentException(
          "the struct value has no element named '" + name + "' (it has " + names + ")");
    }
    return values.get(i);
  }

  /**
   * The element named {@code name}, which must be a tensor: {@code metrics.tensor("loss").item()}
   * reads a scalar metric.
   *
   * @throws IllegalArgumentException if there is no such element or it is not a {@link Tensor}
   */
  public Tensor tensor(String name) {
    return as(Tensor.class, get(name), "'" + name + "'");
  }

  /**
   * The element at {@code index}, which must be a tensor.
   *
   * @throws IndexOutOfBoundsException if there is no such element
   * @throws IllegalArgumentException if it is not a {@link Tensor}
   */
  public Tensor tensor(int index) {
    return as(Tensor.class, get(index), String.valueOf(index));
  }

  /**
   * The element named {@code name}, which must be a struct: {@code state.struct("model")}.
   *
   * @throws IllegalArgumentException if there is no such element or it is not a {@code
   *     StructValue}
   */
  public StructValue struct(String name) {
    return as(StructValue.class, get(name), "'" + name + "'");
  }

  /**
   * The element at {@code index}, which must be a struct.
   *
   * @throws IndexOutOfBoundsException if there is no such element
   * @throws IllegalArgumentException if it is not a {@code StructValue}
   */
  public StructValue struct(int index) {
    return as(StructValue.class, get(index), String.valueOf(index));
  }

  private static <T> T as(Class<T> kind, Object value, String element) {
    if (!kind.isInstance(value)) {
      throw new IllegalArgumentException("element " + element + " of the struct value is a "
          + value.getClass().getSimpleName() + ", not a " + kind.getSimpleName());
    }
    return kind.cast(value);
  }

  /** The element names in order, empty for unnamed elements. */
  public List<Optional<String>> names() {
    return names;
  }

  /** The element values in order. */
  public List<Object> values() {
    return values;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof StructValue s && s.names.equals(names) && s.values.equals(values);
  }

  @Override
  public int hashCode() {
    return 31 * names.hashCode() + values.hashCode();
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder("<");
    for (int i = 0; i < values.size(); i++) {
      if (i > 0) {
        sb.append(',');
      }
      names.get(i).ifPresent(n -> sb.append(n).append('='));
      sb.append(values.get(i));
    }
    return sb.append('>').toString();
  }
}
