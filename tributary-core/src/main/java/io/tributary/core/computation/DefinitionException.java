package io.tributary.core.computation;

import java.util.Optional;

/**
 * Thrown while a computation is being defined, when an operation does not fit its arguments.
 *
 * <p>The message reads like {@code federated_mean at Avg.java:12: the condition 'T is made of
 * floating tensors' fails; expected {T}@CLIENTS where T is made of floating tensors, actual
 * {int32}@CLIENTS}.
 */
public final class DefinitionException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  private final String operation;
  private final String expected;
  private final String actual;
  private final transient StackTraceElement callSite;

  DefinitionException(
      String operation, String problem, String expected, String actual,
      Optional<StackTraceElement> callSite) {
    super(operation + callSite.map(s -> " at " + location(s)).orElse("") + ": " + problem
        + "; expected " + expected + ", actual " + actual);
    this.operation = operation;
    this.expected = expected;
    this.actual = actual;
    this.callSite = callSite.orElse(null);
  }

  private static String location(StackTraceElement s) {
    return s.getFileName() + ":" + s.getLineNumber() + " (" + s.getClassName() + "."
        + s.getMethodName() + ")";
  }

  /** The intrinsic or operation that did not fit, such as {@code federated_mean}. */
  public String operation() {
    return operation;
  }

  /** The expected type in compact notation. */
  public String expected() {
    return expected;
  }

  /** The actual type in compact notation. */
  public String actual() {
    return actual;
  }

  /** The user's line of code that made the call, when it could be found. */
  public Optional<StackTraceElement> callSite() {
    return Optional.ofNullable(callSite);
  }
}
