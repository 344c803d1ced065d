package io.tributary.core.computation;

import java.util.List;
import java.util.Map;

/** The parameters of a computation with several parameters, by name or position. */
public final class Args {
  private final List<Value> values;
  private final Map<String, Integer> positions;

  Args(List<Value> values, Map<String, Integer> positions) {
    this.values = List.copyOf(values);
    this.positions = Map.copyOf(positions);
  }

  /** The parameter named {@code name}. */
  public Value get(String name) {
    Integer i = positions.get(name);
    if (i == null) {
      throw new IllegalArgumentException(
          "no parameter named '" + name + "'; the parameters are " + positions.keySet());
    }
    return values.get(i);
  }

  /** The parameter at {@code index}. */
  public Value get(int index) {
    return values.get(index);
  }

  public int size() {
    return values.size();
  }
}
