package io.tributary.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;
import picocli.CommandLine.IVersionProvider;

/** Reports the project version that Maven wrote into {@code version.properties} at build time. */
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
      "Java " + Runtime.version() + " (" + System.getProperty("java.vendor") + ")"
    };
  }
}
