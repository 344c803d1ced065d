package io.tributary.flower.fleet.server.internal;

import io.tributary.flower.server.TlsFiles;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import java.util.Collection;
import java.util.List;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * The JDK TLS context of the HTTP Fleet API, from the same PEM files (certificate chain, PKCS#8
 * private key, optional client CA) the gRPC endpoints take, so that one set of
 * {@code --tls-cert/--tls-key/--tls-client-ca} flags serves every transport. Like the gRPC
 * endpoints (Netty without a PKCS#1 parser), the key must be PKCS#8
 * ({@code -----BEGIN PRIVATE KEY-----}, what {@code openssl genpkey} and OpenSSL 3's
 * {@code genrsa} write).
 */
public final class ServerTls {
  private static final List<String> KEY_ALGORITHMS = List.of("EC", "RSA", "Ed25519", "Ed448");

  private ServerTls() {}

  /**
   * A TLS context presenting {@code files}' certificate chain and, with a client CA, trusting
   * exactly that CA for client certificates.
   *
   * @throws IOException naming the file that is unreadable or holds no usable PEM
   */
  public static SSLContext context(TlsFiles files) throws IOException {
    try {
      files.requireReadable();
    } catch (IllegalArgumentException e) {
      throw new IOException(e.getMessage(), e);
    }
    try {
      Certificate[] chain = certificates(files.certChain()).toArray(new Certificate[0]);
      PrivateKey key = privateKey(files.privateKey());
      KeyStore ks = KeyStore.getInstance("PKCS12");
      ks.load(null, null);
      char[] pass = new char[0];
      ks.setKeyEntry("server", key, pass, chain);
      KeyManagerFactory kmf =
          KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      kmf.init(ks, pass);
      TrustManagerFactory tmf = null;
      if (files.clientCa().isPresent()) {
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        int i = 0;
        for (Certificate c : certificates(files.clientCa().get())) {
          trust.setCertificateEntry("client-ca-" + i++, c);
        }
        tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
      }
      SSLContext ctx = SSLContext.getInstance("TLS");
      ctx.init(kmf.getKeyManagers(), tmf == null ? null : tmf.getTrustManagers(), null);
      return ctx;
    } catch (GeneralSecurityException e) {
      throw new IOException("unusable TLS files " + files.certChain() + ", "
          + files.privateKey() + ": " + e.getMessage(), e);
    }
  }

  private static Collection<? extends Certificate> certificates(java.nio.file.Path pem)
      throws IOException {
    try {
      Collection<? extends Certificate> certs = CertificateFactory.getInstance("X.509")
          .generateCertificates(new ByteArrayInputStream(Files.readAllBytes(pem)));
      if (certs.isEmpty()) {
        throw new IOException("TLS certificate file " + pem + " holds no certificate");
      }
      return certs;
    } catch (CertificateException e) {
      throw new IOException("TLS certificate file " + pem + " is not PEM X.509: "
          + e.getMessage(), e);
    }
  }

  private static PrivateKey privateKey(java.nio.file.Path pem) throws IOException {
    String text = Files.readString(pem, StandardCharsets.US_ASCII);
    String begin = "-----BEGIN PRIVATE KEY-----";
    int start = text.indexOf(begin);
    if (start < 0) {
      throw new IOException("TLS private key " + pem + " is not a PKCS#8 PEM key (no '" + begin
          + "' line); convert it with 'openssl pkcs8 -topk8 -nocrypt'");
    }
    int end = text.indexOf("-----END PRIVATE KEY-----", start);
    if (end < 0) {
      throw new IOException("TLS private key " + pem + " has no END line");
    }
    byte[] der;
    try {
      der = Base64.getMimeDecoder().decode(text.substring(start + begin.length(), end));
    } catch (IllegalArgumentException e) {
      throw new IOException("TLS private key " + pem + " is not base64 PEM", e);
    }
    for (String alg : KEY_ALGORITHMS) {
      try {
        return KeyFactory.getInstance(alg).generatePrivate(new PKCS8EncodedKeySpec(der));
      } catch (GeneralSecurityException | IllegalArgumentException e) {
        // Not this algorithm's key: try the next.
      }
    }
    throw new IOException("TLS private key " + pem + " is not an EC, RSA or EdDSA PKCS#8 key");
  }
}
