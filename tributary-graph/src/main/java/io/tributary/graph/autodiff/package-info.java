/**
 * Reverse-mode automatic differentiation: {@link io.tributary.graph.autodiff.Autodiff} extends a
 * graph with the ops that compute the gradient of a loss with respect to chosen variables.
 *
 * <p>The gradient is itself part of the graph (ops such as {@code relu_grad} and {@code
 * sum_to_like}), so it is validated, stored in {@code graph.fb} and run like any other op.
 * {@link io.tributary.graph.autodiff.GradientRules} holds one rule per differentiable op type.
 */
package io.tributary.graph.autodiff;
