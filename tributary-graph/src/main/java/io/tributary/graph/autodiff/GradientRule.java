package io.tributary.graph.autodiff;

/** Builds the gradients of one op's inputs from the gradient of its output. */
@FunctionalInterface
public interface GradientRule {
  /**
   * Emits the gradient ops.
   *
   * @param ctx the builder and op
   * @param grad the variable holding d(loss)/d(op output)
   * @return for each input, the variable holding its gradient, or null where none is needed or
   *     the input is not differentiable (integer labels, say)
   */
  String[] apply(GradientContext ctx, String grad);
}
