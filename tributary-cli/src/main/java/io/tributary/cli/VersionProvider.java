package io.tributary.cli;

import io.tributary.graph.ops.GemmKernel;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;
import picocli.CommandLine.IVersionProvider;

/**
 * Reports the project version that Maven wrote into {@code version.properties} at build time, the
 * Java runtime, and the matrix kernel that training runs on.
 */
final class VersionProvider implements IVersionProvider {
  @Override
  public String[] getVersion() {
    Properties props = new Properties();
    try (InputStream in = VersionProvider.class.getResourceAsStream("version.properties")) {
      if (in != null) {
        props.load(in);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the bundled version.properties", e);
    }
    String version = props.getProperty("version", "unknown");
    return new String[] {
      "tributary " + version,
      "Java " + Runtime.version() + " (" + System.getProperty("java.vendor") + ")",
      "matrix kernel: " + kernel()
    };
  }

  /**
   * The kernel a run gets unless it names another ({@link GemmKernel#DEFAULT}), the name its
   * results depend on, and what runs it here.
   */
  private static String kernel() {
    GemmKernel k = GemmKernel.DEFAULT;
    return k.name() + switch (k.implementation()) {
      case OPENBLAS -> " (OpenBLAS; other bits than the Java kernels)";
      case VECTOR -> " (on the Vector API)";
      case PORTABLE -> " (plain loops; --add-modules jdk.incubator.vector, or"
          + " TRIBUTARY_JAVA_OPTS=\"--add-modules jdk.incubator.vector\" for ./tributary, makes"
          + " them faster, with the same bits)";
    };
  }
}
