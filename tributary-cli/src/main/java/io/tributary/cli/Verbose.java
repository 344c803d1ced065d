package io.tributary.cli;

import java.io.PrintWriter;
import picocli.CommandLine.Option;

/**
 * The {@code --verbose} option of the commands that talk to the network or run for long: without
 * it every failure is one line on stderr; with it the Java stack trace follows that line.
 */
final class Verbose {
  @Option(names = "--verbose",
      description = "after a failure's one line, print its Java stack trace (for bug reports)")
  boolean on;

  /**
   * With {@code --verbose}, makes Tributary's own loggers log at DEBUG, where the stack traces of
   * failures they report in one line go; call it before the command's first log line.
   */
  void configureLogging() {
    if (on && System.getProperty(LOG_LEVEL) == null) {
      System.setProperty(LOG_LEVEL, "debug");
    }
  }

  private static final String LOG_LEVEL = "org.slf4j.simpleLogger.log.io.tributary";

  /** Prints {@code t}'s stack trace to {@code err} when {@code --verbose} was given. */
  void trace(PrintWriter err, Throwable t) {
    if (on && t != null) {
      t.printStackTrace(err);
      err.flush();
    }
  }

  /** The option of {@code command}, if it has one. */
  static boolean requested(Object command) {
    return switch (command) {
      case ServerCommand s -> s.verbose.on;
      case ClientCommand c -> c.verbose.on;
      case SimulateCommand s -> s.verbose.on;
      case SupernodeCommand s -> s.verbose.on;
      default -> false;
    };
  }
}
