package io.tributary.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class JdkLoggingTest {
  private static LogRecord transportFailed() {
    // What grpc-netty's server transport logs when a connection's read runs out of direct memory.
    LogRecord r = new LogRecord(Level.INFO, "Transport failed");
    r.setLoggerName("io.grpc.netty.shaded.io.grpc.netty.NettyServerTransport.connections");
    r.setThrown(new IllegalStateException("failed to allocate 2097152 byte(s) of direct memory",
        new RuntimeException("cause")));
    return r;
  }

  @AfterEach
  void restore() {
    Logger.getLogger("io.grpc").setLevel(null);
  }

  @Test
  void format_recordWithThrowable_oneLineNamingLoggerAndError() {
    String line = new JdkLogging.OneLine(false).format(transportFailed());

    assertThat(line.lines()).hasSize(1);
    assertThat(line).matches("\\d\\d:\\d\\d:\\d\\d\\.\\d{3} INFO connections - Transport failed: "
        + "IllegalStateException: failed to allocate 2097152 byte\\(s\\) of direct memory\\R");
  }

  @Test
  void format_multiLineMessage_keptOnOneLine() {
    LogRecord r = new LogRecord(Level.WARNING, "first\nsecond");
    r.setLoggerName("io.grpc.Context");

    assertThat(new JdkLogging.OneLine(false).format(r)).isEqualTo(
        new JdkLogging.OneLine(false).format(r).lines().findFirst().orElseThrow()
            + System.lineSeparator()).contains("WARNING Context - first second");
  }

  @Test
  void format_verbose_lineThenStackTrace() {
    String text = new JdkLogging.OneLine(true).format(transportFailed());

    assertThat(text.lines().findFirst().orElseThrow()).endsWith("of direct memory");
    assertThat(text).contains("\tat io.tributary.cli.JdkLoggingTest.transportFailed")
        .contains("Caused by: java.lang.RuntimeException: cause");
  }

  @Test
  void configure_notVerbose_grpcNotesBelowWarningLeftOut() {
    JdkLogging.configure(false);
    Logger transport = Logger.getLogger("io.grpc.netty.shaded.io.grpc.netty.NettyServerTransport");

    assertThat(transport.isLoggable(Level.INFO)).isFalse();
    assertThat(transport.isLoggable(Level.WARNING)).isTrue();
  }

  @Test
  void configure_verbose_grpcNotesKept() {
    JdkLogging.configure(true);

    assertThat(Logger.getLogger("io.grpc.netty.shaded.io.grpc.netty.NettyServerTransport")
        .isLoggable(Level.INFO)).isTrue();
  }
}
