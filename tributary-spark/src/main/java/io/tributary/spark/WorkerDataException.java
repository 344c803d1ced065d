package io.tributary.spark;

/** A worker could not rebuild a simulation: its data cannot be loaded or its model bound. */
public class WorkerDataException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public WorkerDataException(String message, Throwable cause) {
    super(message, cause);
  }
}
