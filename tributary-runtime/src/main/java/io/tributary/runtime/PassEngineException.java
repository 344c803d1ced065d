package io.tributary.runtime;

/** A {@link PassEngine} could not compute a pass; the message names the cause. */
public class PassEngineException extends ExecutionFailedException {
  private static final long serialVersionUID = 1L;

  public PassEngineException(String message, Throwable cause) {
    super(message, cause);
  }
}
