package io.tributary.flower;

import java.nio.file.Path;
import java.util.Optional;

/**
 * TLS for a client's connection: the certificate authorities it trusts and, for mutual TLS, its
 * own certificate chain and key (PEM files).
 *
 * @param caFile the PEM bundle of trusted authorities, or null for the JDK's default trust store
 * @param certFile the client's PEM certificate chain, or null for no client certificate
 * @param keyFile the client's unencrypted PKCS#8 PEM key; given exactly when {@code certFile} is
 */
public record TlsSettings(Path caFile, Path certFile, Path keyFile) {
  public TlsSettings {
    if ((certFile == null) != (keyFile == null)) {
      throw new IllegalArgumentException(
          "a client certificate needs both the certificate and the key file");
    }
  }

  /** Server authentication only, trusting the authorities in {@code caFile}. */
  public static TlsSettings trusting(Path caFile) {
    return new TlsSettings(caFile, null, null);
  }

  /** This with a client certificate for mutual TLS. */
  public TlsSettings withClientCertificate(Path cert, Path key) {
    return new TlsSettings(caFile, cert, key);
  }

  /** The trusted authorities, when not the JDK's. */
  public Optional<Path> ca() {
    return Optional.ofNullable(caFile);
  }
}
