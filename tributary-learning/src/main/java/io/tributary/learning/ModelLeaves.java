package io.tributary.learning;

import io.tributary.core.types.StructType;
import io.tributary.core.types.TensorType;
import io.tributary.core.types.Type;
import io.tributary.core.values.StructValue;
import io.tributary.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;

/**
 * Converts between a model value (a struct of tensors, possibly nested) and its tensors in
 * depth-first order, the form the aggregation rules and server optimizers compute on.
 */
public final class ModelLeaves {
  private ModelLeaves() {}

  /** The tensors of {@code value} in depth-first order. */
  public static List<Tensor> of(Object value) {
    List<Tensor> out = new ArrayList<>();
    collect(value, out);
    return out;
  }

  private static void collect(Object value, List<Tensor> out) {
    if (value instanceof StructValue s) {
      for (Object v : s.values()) {
        collect(v, out);
      }
    } else if (value instanceof Tensor t) {
      out.add(t);
    } else {
      throw new IllegalArgumentException("a model holds structs and tensors, not "
          + (value == null ? "null" : value.getClass().getSimpleName()));
    }
  }

  /**
   * The value of type {@code type} whose tensors, depth-first, are {@code leaves}.
   *
   * @throws IllegalArgumentException when the counts differ
   */
  public static StructValue rebuild(StructType type, List<Tensor> leaves) {
    int[] next = {0};
    StructValue v = (StructValue) build(type, leaves, next);
    if (next[0] != leaves.size()) {
      throw new IllegalArgumentException(type + " has " + next[0] + " tensors, got "
          + leaves.size());
    }
    return v;
  }

  private static Object build(Type t, List<Tensor> leaves, int[] next) {
    if (t instanceof StructType s) {
      List<Object> values = new ArrayList<>();
      for (int i = 0; i < s.size(); i++) {
        values.add(build(s.get(i), leaves, next));
      }
      return StructValue.of(s.elements().stream().map(StructType.Element::name).toList(), values);
    }
    if (!(t instanceof TensorType) || next[0] >= leaves.size()) {
      throw new IllegalArgumentException("cannot build " + t + " from " + leaves.size()
          + " tensors");
    }
    return leaves.get(next[0]++);
  }

  /**
   * A value shaped like {@code template} (the same struct names and nesting) whose tensors,
   * depth-first, are {@code leaves}.
   *
   * @throws IllegalArgumentException when the counts differ
   */
  public static StructValue replace(StructValue template, List<Tensor> leaves) {
    int[] next = {0};
    StructValue v = (StructValue) like(template, leaves, next);
    if (next[0] != leaves.size()) {
      throw new IllegalArgumentException("the value has " + next[0] + " tensors, got "
          + leaves.size());
    }
    return v;
  }

  private static Object like(Object template, List<Tensor> leaves, int[] next) {
    if (template instanceof StructValue s) {
      List<Object> values = new ArrayList<>();
      for (Object v : s.values()) {
        values.add(like(v, leaves, next));
      }
      return StructValue.of(s.names(), values);
    }
    if (next[0] >= leaves.size()) {
      throw new IllegalArgumentException("too few tensors: " + leaves.size());
    }
    return leaves.get(next[0]++);
  }
}
