package io.tributary.graph;

import java.util.List;
import java.util.Objects;

/**
 * One operation in a graph: it reads its inputs and writes its outputs, all by variable name.
 *
 * @param name unique among the graph's ops
 * @param type the op type, such as {@code matmul}; {@link io.tributary.graph.ops.OpRegistry} knows them
 * @param inputs variable names read, in order
 * @param outputs variable names written, in order
 * @param args the named arguments
 */
public record Op(String name, String type, List<String> inputs, List<String> outputs, OpArgs args) {
  public Op {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(type, "type");
    inputs = List.copyOf(inputs);
    outputs = List.copyOf(outputs);
    Objects.requireNonNull(args, "args");
    if (name.isEmpty()) {
      throw new IllegalArgumentException("op name must not be empty");
    }
  }
}
