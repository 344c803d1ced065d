package io.tributary.graph.autodiff;

import io.tributary.graph.GraphBuilder;
import io.tributary.graph.Op;
import io.tributary.graph.OpArgs;

/** What a gradient rule may use: the builder, and whether each input of the op needs a gradient. */
public final class GradientContext {
  private final GraphBuilder builder;
  private final Op op;
  private final boolean[] needed;

  GradientContext(GraphBuilder builder, Op op, boolean[] needed) {
    this.builder = builder;
    this.op = op;
    this.needed = needed;
  }

  /** True when input {@code i} of the op needs a gradient. */
  public boolean needs(int i) {
    return needed[i];
  }

  /** The op being differentiated. */
  public Op op() {
    return op;
  }

  /** The op's single output. */
  public String out() {
    return op.outputs().get(0);
  }

  /** Input {@code i} of the op. */
  public String in(int i) {
    return op.inputs().get(i);
  }

  public GraphBuilder builder() {
    return builder;
  }

  /** Adds a gradient op named after the op it differentiates; returns its output. */
  public String emit(String type, OpArgs args, String... inputs) {
    String name = builder.uniqueName("grad/" + op.name() + "/" + type);
    return builder.opNamed(name, type, args, inputs);
  }

  public String emit(String type, String... inputs) {
    return emit(type, OpArgs.none(), inputs);
  }
}
