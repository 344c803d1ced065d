package io.tributary.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import picocli.CommandLine;

/** One in-process run of the {@code tributary} command line, with what it printed. */
record CliRun(int exitCode, String out, String err) {

  /**
   * Runs {@code tributary args...} in this JVM, capturing stdout and stderr, with the command line
   * that {@code main} builds for those arguments.
   */
  static CliRun of(String... args) {
    return on(Main.commandLine(args), args);
  }

  /** Runs {@code args} on {@code cli}, capturing stdout and stderr. */
  static CliRun on(CommandLine cli, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    int code = cli.execute(args);
    return new CliRun(code, out.toString(), err.toString());
  }

  /** The lines written to stderr, without the trailing empty one. */
  String[] errLines() {
    return err.isEmpty() ? new String[0] : err.split("\\R");
  }
}
