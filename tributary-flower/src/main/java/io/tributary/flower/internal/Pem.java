package io.tributary.flower.internal;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Checks that a TLS file is PEM of the expected kind before grpc parses it, so that a file that
 * is readable but holds something else (DER, a key where a certificate belongs, text) is refused
 * with one line naming the file rather than a parser's stack trace.
 */
public final class Pem {
  /** The most bytes a PEM certificate chain or key file may have: 1 MiB. */
  static final long MAX_BYTES = 1L << 20;

  private Pem() {}

  /** What a file should hold. */
  public enum Kind {
    /** One or more {@code -----BEGIN CERTIFICATE-----} blocks. */
    CERTIFICATES("CERTIFICATE", "certificate"),
    /** A {@code -----BEGIN ... PRIVATE KEY-----} block. */
    PRIVATE_KEY("PRIVATE KEY", "private key");

    final String label;
    final String words;

    Kind(String label, String words) {
      this.label = label;
      this.words = words;
    }
  }

  /**
   * Returns the problem with {@code file} as {@code kind}, or null when it is a readable PEM file
   * holding at least one block of that kind.
   */
  public static String problem(Path file, Kind kind) {
    try {
      if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
        return "is not a readable file";
      }
      if (Files.size(file) > MAX_BYTES) {
        return "is larger than " + MAX_BYTES + " bytes, too large to be a PEM " + kind.words
            + " file";
      }
      String text = new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1);
      boolean hasBlock = text.lines().anyMatch(l -> l.startsWith("-----BEGIN ")
          && l.strip().endsWith(kind.label + "-----"));
      if (!hasBlock) {
        return "is not PEM: it holds no PEM " + kind.words + " (no '-----BEGIN " + kind.label
            + "-----' line)";
      }
      return null;
    } catch (IOException e) {
      return "cannot be read: " + e.getMessage();
    }
  }
}
