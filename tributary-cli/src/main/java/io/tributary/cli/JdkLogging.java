package io.tributary.cli;

import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.logging.ConsoleHandler;
import java.util.logging.Formatter;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * The command line's settings for the JDK's own logging ({@code java.util.logging}), which gRPC
 * and Netty log to: one line per record, as Tributary's own loggers write them, and gRPC's
 * notes below WARNING left out; {@code --verbose} keeps both and adds the stack traces.
 *
 * <p>Without this, a transport that gRPC closes for a fault it notes at INFO (a peer's connection
 * that ran out of direct memory, say) would print its whole Java stack trace on stderr, while
 * the command itself reports the same fault in one line (the failed client's reason).
 */
final class JdkLogging {
  /** gRPC's loggers, held so that the level set on them stays (JDK loggers are held weakly). */
  private static final Logger GRPC = Logger.getLogger("io.grpc");

  private JdkLogging() {}

  /**
   * Makes the root logger's console handlers write {@link OneLine} records and, unless
   * {@code verbose}, lets gRPC's loggers through from WARNING only.
   */
  static void configure(boolean verbose) {
    for (Handler h : Logger.getLogger("").getHandlers()) {
      if (h instanceof ConsoleHandler) {
        h.setFormatter(new OneLine(verbose));
      }
    }
    GRPC.setLevel(verbose ? null : Level.WARNING);
  }

  /**
   * One line per record: time, level, logger's short name, message and, for a record with a
   * throwable, its class and message; with {@code traces} the stack trace follows.
   */
  static final class OneLine extends Formatter {
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss.SSS")
        .withZone(ZoneId.systemDefault());
    private final boolean traces;

    OneLine(boolean traces) {
      this.traces = traces;
    }

    @Override
    public String format(LogRecord r) {
      String name = r.getLoggerName() == null ? "" : r.getLoggerName();
      StringBuilder line = new StringBuilder().append(TIME.format(Instant.ofEpochMilli(
          r.getMillis()))).append(' ').append(r.getLevel().getName()).append(' ')
          .append(name.substring(name.lastIndexOf('.') + 1)).append(" - ")
          .append(formatMessage(r));
      Throwable t = r.getThrown();
      if (t != null) {
        line.append(": ").append(t.getClass().getSimpleName());
        if (t.getMessage() != null) {
          line.append(": ").append(t.getMessage());
        }
      }
      String text = line.toString().replaceAll("\\R", " ") + System.lineSeparator();
      if (t == null || !traces) {
        return text;
      }
      java.io.StringWriter trace = new java.io.StringWriter();
      t.printStackTrace(new java.io.PrintWriter(trace));
      return text + trace;
    }
  }
}
