package io.tributary.spark;

/**
 * A {@link LoopbackCluster} could not start, or a process of it stopped: the message names the
 * process (master or worker N), what went wrong and the log file to read.
 */
public class LoopbackClusterException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public LoopbackClusterException(String message) {
    super(message);
  }

  public LoopbackClusterException(String message, Throwable cause) {
    super(message, cause);
  }
}
