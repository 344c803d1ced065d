package io.tributary.flower.fleet.internal;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.util.Collection;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * PEM root certificates ({@code --root-certificates}), read and checked before anything connects,
 * so that a file that is not PEM certificates is refused in one line up front.
 */
public final class RootCertificates {
  /** A certificate bundle beyond this is not a root certificate file. */
  static final long MAX_BYTES = 16L * 1024 * 1024;

  private RootCertificates() {}

  /**
   * The certificates in {@code pem}.
   *
   * @throws IllegalArgumentException naming the file when it is not a readable regular file of
   *     at least one PEM certificate
   */
  public static Collection<? extends Certificate> read(Path pem) {
    if (!Files.isRegularFile(pem)) {
      throw new IllegalArgumentException("root certificates " + pem + " is not a regular file");
    }
    byte[] bytes;
    try {
      if (Files.size(pem) > MAX_BYTES) {
        throw new IllegalArgumentException("root certificates " + pem + " is larger than "
            + MAX_BYTES + " bytes");
      }
      bytes = Files.readAllBytes(pem);
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot read root certificates " + pem + ": "
          + e.getMessage());
    }
    if (!new String(bytes, StandardCharsets.US_ASCII).contains("-----BEGIN CERTIFICATE-----")) {
      throw new IllegalArgumentException("root certificates " + pem
          + " holds no PEM certificate (-----BEGIN CERTIFICATE-----)");
    }
    try {
      Collection<? extends Certificate> certs = CertificateFactory.getInstance("X.509")
          .generateCertificates(new ByteArrayInputStream(bytes));
      if (certs.isEmpty()) {
        throw new IllegalArgumentException("root certificates " + pem + " holds no certificate");
      }
      return certs;
    } catch (CertificateException e) {
      throw new IllegalArgumentException("root certificates " + pem + " is not PEM X.509: "
          + GrpcFleetClient.oneLine(String.valueOf(e.getMessage())));
    }
  }

  /** A TLS context trusting exactly the certificates in {@code pem}. */
  public static SSLContext sslContext(Path pem) {
    try {
      KeyStore ks = KeyStore.getInstance(KeyStore.getDefaultType());
      ks.load(null, null);
      int i = 0;
      for (Certificate c : read(pem)) {
        ks.setCertificateEntry("root-" + i++, c);
      }
      TrustManagerFactory tmf =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      tmf.init(ks);
      SSLContext ctx = SSLContext.getInstance("TLS");
      ctx.init(null, tmf.getTrustManagers(), null);
      return ctx;
    } catch (GeneralSecurityException | IOException e) {
      throw new IllegalStateException("cannot set up TLS: " + e.getMessage(), e);
    }
  }
}
