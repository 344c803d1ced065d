package io.tributary.flower.fleet;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** Tributary's version as Maven wrote it into {@code version.properties} at build time. */
final class Version {
  static final String VALUE = read();

  private Version() {}

  private static String read() {
    Properties p = new Properties();
    try (InputStream in = Version.class.getResourceAsStream("version.properties")) {
      if (in != null) {
        p.load(in);
      }
    } catch (IOException e) {
      // an unreadable bundled resource: the headers say "unknown"
    }
    String v = p.getProperty("version", "unknown");
    return v.startsWith("${") ? "unknown" : v;
  }
}
