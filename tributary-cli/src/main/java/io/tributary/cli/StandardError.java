package io.tributary.cli;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.util.OptionalInt;
import java.util.concurrent.CountDownLatch;

/**
 * Takes back the real standard error when the {@code ./tributary} launcher passed it on another
 * descriptor (system property {@value #FD_PROPERTY}); see {@code NativeStderr} for why. Without
 * the property, or on a JVM before 22, nothing changes and stderr stays where the launcher put it.
 */
final class StandardError {
  static final String FD_PROPERTY = "tributary.stderr.fd";

  private StandardError() {}

  /**
   * Starts moving stderr back onto descriptor 2, if the launcher asked, on a thread of its own;
   * false when there is nothing to move. The first java.lang.foreign downcall takes about 0.13 s,
   * which a command's start-up need not wait for; until the move is done, whatever Java code
   * writes to {@code System.err} waits for it, so everything the program prints still reaches the
   * real stderr, in order.
   */
  static boolean reclaimInBackground() {
    OptionalInt fd = descriptor();
    if (fd.isEmpty()) {
      return false;
    }
    PrintStream original = System.err;
    original.flush();
    CountDownLatch moved = new CountDownLatch(1);
    System.setErr(new PrintStream(new Gate(original, moved), true, original.charset()));
    Thread t = new Thread(() -> {
      try {
        move(fd.getAsInt());
      } finally {
        moved.countDown();
      }
    }, "tributary-stderr");
    t.setDaemon(true);
    t.start();
    return true;
  }

  /** The descriptor the launcher named, when it is one to move (above 2, on a 22+ JVM). */
  private static OptionalInt descriptor() {
    String fd = System.getProperty(FD_PROPERTY);
    if (fd == null || Runtime.version().feature() < 22) {
      return OptionalInt.empty();
    }
    int number;
    try {
      number = Integer.parseInt(fd.trim());
    } catch (NumberFormatException e) {
      return OptionalInt.empty();
    }
    return number <= 2 ? OptionalInt.empty() : OptionalInt.of(number);
  }

  private static boolean move(int fd) {
    try {
      // A fixed name, loaded reflectively: the class is compiled for 22+ and absent from a build
      // made on JDK 21.
      return (Boolean) Class.forName("io.tributary.cli.NativeStderr")
          .getDeclaredMethod("reclaim", int.class).invoke(null, fd);
    } catch (ReflectiveOperationException | LinkageError e) {
      return false;
    }
  }

  /** Passes writes to {@code target} once {@code open} has been counted down. */
  static final class Gate extends OutputStream {
    private final OutputStream target;
    private final CountDownLatch open;

    Gate(OutputStream target, CountDownLatch open) {
      this.target = target;
      this.open = open;
    }

    @Override
    public void write(int b) throws IOException {
      await();
      target.write(b);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      await();
      target.write(b, off, len);
    }

    @Override
    public void flush() throws IOException {
      await();
      target.flush();
    }

    private void await() {
      boolean interrupted = false;
      while (true) {
        try {
          open.await();
          break;
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
