package io.tributary.graph.autodiff;

import io.tributary.graph.Graph;
import java.util.Map;

/**
 * A graph extended with gradient ops.
 *
 * @param graph the forward graph plus the gradient ops
 * @param loss the variable differentiated
 * @param gradients for each variable differentiated against, the variable holding its gradient
 */
public record GradientGraph(Graph graph, String loss, Map<String, String> gradients) {
  public GradientGraph {
    gradients = Map.copyOf(gradients);
  }

  /** The name of the variable holding d(loss)/d(variable). */
  public String gradientOf(String variable) {
    String g = gradients.get(variable);
    if (g == null) {
      throw new IllegalArgumentException("no gradient was built for '" + variable + "'");
    }
    return g;
  }
}
