package io.tributary.graph.local;

import io.tributary.core.compiler.GraphComputation;
import io.tributary.core.compiler.LocalFunction;
import io.tributary.graph.Graph;

/**
 * A way of running a graph, selected by a {@link GraphComputation}'s procedure name: it checks the
 * computation's settings and type against the graph once, and returns the function that runs it.
 *
 * <p>The returned function may be called from several threads at once.
 */
@FunctionalInterface
public interface GraphProcedure {
  /**
   * Prepares {@code computation}, whose graph has been read and validated as {@code graph}.
   *
   * @throws GraphBindingException if a setting is missing or malformed, or the declared type does
   *     not fit the graph
   */
  LocalFunction prepare(GraphComputation computation, Graph graph) throws GraphBindingException;
}
