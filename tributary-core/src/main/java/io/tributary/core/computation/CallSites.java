package io.tributary.core.computation;

import java.util.Optional;

/** Finds the user's line of code: the innermost stack frame outside the Federated Core. */
final class CallSites {
  private static final String CORE_PACKAGE = "io.tributary.core.";

  private CallSites() {}

  static Optional<StackTraceElement> find() {
    return StackWalker.getInstance().walk(frames -> frames
        .filter(f -> !f.getClassName().startsWith(CORE_PACKAGE))
        .findFirst()
        .map(StackWalker.StackFrame::toStackTraceElement));
  }
}
