package io.tributary.core.compiler;

import io.tributary.core.types.Type;
import java.util.List;
import java.util.Optional;

/**
 * The outcome of type checking a computation.
 *
 * @param type the inferred type of the root, empty when it could not be inferred
 * @param diagnostics every problem found, in the order the nodes were visited
 */
public record CheckResult(Optional<Type> type, List<Diagnostic> diagnostics) {
  public CheckResult {
    diagnostics = List.copyOf(diagnostics);
  }

  /** True when there are no diagnostics. */
  public boolean ok() {
    return diagnostics.isEmpty();
  }

  /** The diagnostics, one per line. */
  public String report() {
    StringBuilder sb = new StringBuilder();
    for (Diagnostic d : diagnostics) {
      sb.append(d).append('\n');
    }
    return sb.toString();
  }
}
