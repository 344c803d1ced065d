package io.tributary.graph;

import java.util.List;

/** Thrown when a graph is invalid; {@link #problems()} lists every problem found, each naming its op. */
public final class GraphValidationException extends RuntimeException {
  private static final long serialVersionUID = 1L;
  private final transient List<GraphProblem> problems;

  public GraphValidationException(List<GraphProblem> problems) {
    super(summary(problems));
    this.problems = List.copyOf(problems);
  }

  public List<GraphProblem> problems() {
    return problems;
  }

  private static String summary(List<GraphProblem> problems) {
    StringBuilder sb = new StringBuilder("invalid graph (" + problems.size() + " problem"
        + (problems.size() == 1 ? "" : "s") + ")");
    for (GraphProblem p : problems) {
      sb.append("\n  ").append(p);
    }
    return sb.toString();
  }
}
