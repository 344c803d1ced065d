package io.tributary.flower.server;

import io.tributary.flower.internal.Pem;
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
   * Fails unless every named file is a readable regular file holding PEM of its kind
   * (certificates, or a private key).
   *
   * @throws IllegalArgumentException naming the first file that is not
   */
  public void requireReadable() {
    require(certChain, "certificate chain", Pem.Kind.CERTIFICATES);
    require(privateKey, "private key", Pem.Kind.PRIVATE_KEY);
    clientCa.ifPresent(p -> require(p, "client CA", Pem.Kind.CERTIFICATES));
  }

  private static void require(Path p, String what, Pem.Kind kind) {
    String problem = Pem.problem(p, kind);
    if (problem != null) {
      throw new IllegalArgumentException("TLS " + what + " " + p + " " + problem);
    }
  }
}
