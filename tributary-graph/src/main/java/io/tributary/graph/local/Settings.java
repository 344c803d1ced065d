package io.tributary.graph.local;

import io.tributary.core.compiler.GraphComputation;
import io.tributary.core.types.FunctionType;
import io.tributary.graph.Graph;

/** Reads and checks a graph computation's settings, naming the computation in every error. */
final class Settings {
  private Settings() {}

  static String text(GraphComputation g, String key) throws GraphBindingException {
    String v = g.settings().get(key);
    if (v == null) {
      throw new GraphBindingException("graph computation " + g.name() + " (procedure "
          + g.procedure() + ") has no setting '" + key + "'");
    }
    return v;
  }

  static int integer(GraphComputation g, String key, int min, int max)
      throws GraphBindingException {
    String v = text(g, key);
    int n;
    try {
      n = Integer.parseInt(v);
    } catch (NumberFormatException e) {
      throw new GraphBindingException("setting " + key + " of graph computation " + g.name()
          + " is '" + v + "', not an integer", e);
    }
    if (n < min || n > max) {
      throw new GraphBindingException("setting " + key + " of graph computation " + g.name()
          + " is " + n + ", outside [" + min + ", " + max + "]");
    }
    return n;
  }

  static double real(GraphComputation g, String key, double min) throws GraphBindingException {
    String v = text(g, key);
    double d;
    try {
      d = Double.parseDouble(v);
    } catch (NumberFormatException e) {
      throw new GraphBindingException("setting " + key + " of graph computation " + g.name()
          + " is '" + v + "', not a number", e);
    }
    if (!Double.isFinite(d) || d < min) {
      throw new GraphBindingException("setting " + key + " of graph computation " + g.name()
          + " is " + d + "; it must be finite and at least " + min);
    }
    return d;
  }

  /** A setting that names a variable of the graph. */
  static String variable(GraphComputation g, Graph graph, String key)
      throws GraphBindingException {
    String v = text(g, key);
    if (graph.variable(v).isEmpty()) {
      throw new GraphBindingException("setting " + key + " of graph computation " + g.name()
          + " names the variable '" + v + "', which the graph does not have");
    }
    return v;
  }

  static void requireType(GraphComputation g, FunctionType expected) throws GraphBindingException {
    if (!g.type().equals(expected)) {
      throw new GraphBindingException("graph computation " + g.name() + " is declared as "
          + g.type() + " but its graph gives " + expected);
    }
  }
}
