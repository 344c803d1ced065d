package io.tributary.flower.records;

/** A record or message that is malformed, inconsistent or not convertible. */
public class RecordException extends Exception {
  public RecordException(String message) {
    super(message);
  }

  public RecordException(String message, Throwable cause) {
    super(message, cause);
  }
}
