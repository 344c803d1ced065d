package io.tributary.flower.records;

import java.util.Objects;

/**
 * Flower's {@code Error}: what a reply carries instead of content when its handler failed. The
 * codes are Flower's {@code ErrorCode}s.
 */
public record MessageError(long code, String reason) {
  /** {@code ErrorCode.UNKNOWN}. */
  public static final long UNKNOWN = 0;
  /** {@code ErrorCode.LOAD_CLIENT_APP_EXCEPTION}: no app for the run, or none for the type. */
  public static final long LOAD_CLIENT_APP_EXCEPTION = 1;
  /** {@code ErrorCode.CLIENT_APP_RAISED_EXCEPTION}: the handler failed. */
  public static final long CLIENT_APP_RAISED_EXCEPTION = 2;
  /** {@code ErrorCode.MESSAGE_UNAVAILABLE}: the message could not be received intact. */
  public static final long MESSAGE_UNAVAILABLE = 3;
  /** A mod's precondition did not hold (Flower's {@code ErrorCode.MOD_FAILED_PRECONDITION}). */
  public static final long MOD_FAILED_PRECONDITION = 6;

  public MessageError {
    Objects.requireNonNull(reason, "reason");
  }
}
