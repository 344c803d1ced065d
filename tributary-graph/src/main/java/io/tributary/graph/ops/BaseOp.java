package io.tributary.graph.ops;

import java.util.List;

/** Holds the fixed facts of an op type, so each op class only infers and computes. */
abstract class BaseOp implements OpDef {
  private final String type;
  private final int minInputs;
  private final int maxInputs;
  private final int outputCount;
  private final List<String> requiredArgs;

  BaseOp(String type, int minInputs, int maxInputs, int outputCount, String... requiredArgs) {
    this.type = type;
    this.minInputs = minInputs;
    this.maxInputs = maxInputs;
    this.outputCount = outputCount;
    this.requiredArgs = List.of(requiredArgs);
  }

  BaseOp(String type, int inputs, String... requiredArgs) {
    this(type, inputs, inputs, 1, requiredArgs);
  }

  /**
   * How many work buffers the op keeps from run to run: a compiled run offers {@code previous}
   * with this many slots after the outputs' ({@link OpDef#compute(io.tributary.graph.Op,
   * NdArray[], NdArray[], GemmKernel)}), which the op may fill and finds again on the next run of
   * the plan. Nothing else reads them. 0 by default.
   */
  int workspaces() {
    return 0;
  }

  @Override
  public final String type() {
    return type;
  }

  @Override
  public final int minInputs() {
    return minInputs;
  }

  @Override
  public final int maxInputs() {
    return maxInputs;
  }

  @Override
  public final int outputCount() {
    return outputCount;
  }

  @Override
  public final List<String> requiredArgs() {
    return requiredArgs;
  }
}
