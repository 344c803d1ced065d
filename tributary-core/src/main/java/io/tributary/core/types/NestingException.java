package io.tributary.core.types;

/**
 * Thrown when a type would break a nesting rule: a federated, function or placement type inside
 * a federated or sequence type, or a sequence inside a sequence.
 *
 * <p>The message shows the offending type in compact notation and the part that is not allowed.
 */
public final class NestingException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  private final String offendingType;
  private final String forbiddenPart;

  NestingException(String offendingType, String forbiddenPart, String rule) {
    super(offendingType + " is not a valid type: " + rule + " (found " + forbiddenPart + ")");
    this.offendingType = offendingType;
    this.forbiddenPart = forbiddenPart;
  }

  /** The compact notation of the type that could not be built. */
  public String offendingType() {
    return offendingType;
  }

  /** The compact notation of the nested part that the rule forbids. */
  public String forbiddenPart() {
    return forbiddenPart;
  }
}
