package io.tributary.learning.rounds.output;

import java.io.IOException;

/**
 * A file of a run directory that is not what a run of Tributary writes there: a metrics log with
 * foreign lines, a checkpoint without its settings, a directory that already holds a run.
 */
public final class RunFileException extends IOException {
  private static final long serialVersionUID = 1L;

  /** A problem described by {@code message}, which names the file or what in it is wrong. */
  public RunFileException(String message) {
    super(message);
  }
}
