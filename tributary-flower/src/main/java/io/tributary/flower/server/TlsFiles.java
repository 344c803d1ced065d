package io.tributary.flower.server;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * PEM files for TLS: the server's certificate chain and private key, and optionally the CA whose
 * certificates clients must present (mutual TLS).
 */
public record TlsFiles(Path certChain, Path privateKey, Optional<Path> clientCa) {
  public TlsFiles {
    Objects.requireNonNull(certChain, "certChain");
    Objects.requireNonNull(privateKey, "privateKey");
    Objects.requireNonNull(clientCa, "clientCa");
  }

  /**
   * Fails unless every named file is a readable regular file.
   *
   * @throws IllegalArgumentException naming the first file that is not
   */
  public void requireReadable() {
    require(certChain, "certificate chain");
    require(privateKey, "private key");
    clientCa.ifPresent(p -> require(p, "client CA"));
  }

  private static void require(Path p, String what) {
    if (!Files.isRegularFile(p) || !Files.isReadable(p)) {
      throw new IllegalArgumentException("TLS " + what + " " + p + " is not a readable file");
    }
  }
}
