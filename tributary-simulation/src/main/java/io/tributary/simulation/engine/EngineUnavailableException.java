package io.tributary.simulation.engine;

/**
 * A cluster engine could not start: its provider is not on the class path, the master cannot be
 * reached, or the cluster refuses the application. The message is one line naming the cause.
 */
public class EngineUnavailableException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public EngineUnavailableException(String message) {
    super(message);
  }

  public EngineUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }
}
