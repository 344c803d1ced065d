package io.tributary.cli;

/**
 * Takes back the real standard error when the {@code ./tributary} launcher passed it on another
 * descriptor (system property {@value #FD_PROPERTY}); see {@code NativeStderr} for why. Without
 * the property, or on a JVM before 22, nothing changes and stderr stays where the launcher put it.
 */
final class StandardError {
  static final String FD_PROPERTY = "tributary.stderr.fd";

  private StandardError() {}

  /** Moves stderr back onto descriptor 2 if the launcher asked; true when it did. */
  static boolean reclaim() {
    String fd = System.getProperty(FD_PROPERTY);
    if (fd == null || Runtime.version().feature() < 22) {
      return false;
    }
    int number;
    try {
      number = Integer.parseInt(fd.trim());
    } catch (NumberFormatException e) {
      return false;
    }
    if (number <= 2) {
      return false;
    }
    try {
      // A fixed name, loaded reflectively: the class is compiled for 22+ and absent from a build
      // made on JDK 21.
      return (Boolean) Class.forName("io.tributary.cli.NativeStderr")
          .getDeclaredMethod("reclaim", int.class).invoke(null, number);
    } catch (ReflectiveOperationException | LinkageError e) {
      return false;
    }
  }
}
