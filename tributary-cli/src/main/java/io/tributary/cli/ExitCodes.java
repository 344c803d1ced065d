package io.tributary.cli;

/** The exit statuses the commands return, beyond picocli's own 0 (ok), 1 (error) and 2 (usage). */
final class ExitCodes {
  /** The input could not be read: a missing, truncated or malformed file, or an unknown format. */
  static final int BAD_INPUT = 2;

  private ExitCodes() {}
}
