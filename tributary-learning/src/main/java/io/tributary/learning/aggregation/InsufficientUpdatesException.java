package io.tributary.learning.aggregation;

/**
 * A round has fewer usable client updates than an aggregation rule needs, such as Krum's
 * {@code n > 2f + 2}; the message names the rule, the requirement and the count.
 */
public final class InsufficientUpdatesException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  /** The rule {@code rule} needs {@code requirement} but got {@code n} updates. */
  public InsufficientUpdatesException(String rule, String requirement, int n) {
    super(rule + " needs " + requirement + " client updates, got n = " + n);
  }
}
