package io.tributary.core.compiler;

import java.util.List;

/** Thrown when a computation that must be well typed is not; carries every diagnostic. */
public final class TypeCheckException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  private final transient List<Diagnostic> diagnostics;

  public TypeCheckException(String what, List<Diagnostic> diagnostics) {
    super(what + " is not well typed:\n" + new CheckResult(java.util.Optional.empty(), diagnostics)
        .report().stripTrailing());
    this.diagnostics = List.copyOf(diagnostics);
  }

  /** Every problem found. */
  public List<Diagnostic> diagnostics() {
    return diagnostics;
  }
}
