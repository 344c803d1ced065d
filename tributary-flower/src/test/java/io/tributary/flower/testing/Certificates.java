package io.tributary.flower.testing;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Base64;
import java.util.Date;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.cert.CertIOException;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * A throw-away certificate authority for TLS tests, made in-process so the tests need no
 * openssl: it issues certificates for {@code localhost}/127.0.0.1 and writes PEM files.
 */
public final class Certificates {
  /** A certificate and key written as PEM files. */
  public record Pem(Path cert, Path key) {}

  private final KeyPair caKeys;
  private final X509Certificate ca;
  private long serial = 1;

  private Certificates(KeyPair caKeys, X509Certificate ca) {
    this.caKeys = caKeys;
    this.ca = ca;
  }

  /** A new authority named {@code name}. */
  public static Certificates authority(String name) throws GeneralSecurityException, IOException {
    KeyPair keys = keys();
    X500Name subject = new X500Name("CN=" + name);
    X509v3CertificateBuilder b = builder(subject, subject, keys, 0);
    b.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
    return new Certificates(keys, sign(b, keys));
  }

  /** Writes the authority's certificate to {@code file}. */
  public Path writeCa(Path file) throws IOException, GeneralSecurityException {
    Files.writeString(file, pem("CERTIFICATE", ca.getEncoded()), StandardCharsets.US_ASCII);
    return file;
  }

  /** Issues a certificate for localhost and 127.0.0.1, written as {@code prefix}.crt/.key. */
  public Pem issue(Path dir, String prefix) throws GeneralSecurityException, IOException {
    KeyPair keys = keys();
    X509v3CertificateBuilder b = builder(new X500Name(ca.getSubjectX500Principal().getName()),
        new X500Name("CN=localhost"), keys, ++serial);
    b.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(new GeneralName[] {
        new GeneralName(GeneralName.dNSName, "localhost"),
        new GeneralName(GeneralName.iPAddress, "127.0.0.1")}));
    X509Certificate cert = sign(b, caKeys);
    Path c = dir.resolve(prefix + ".crt");
    Path k = dir.resolve(prefix + ".key");
    Files.writeString(c, pem("CERTIFICATE", cert.getEncoded()), StandardCharsets.US_ASCII);
    Files.writeString(k, pem("PRIVATE KEY", keys.getPrivate().getEncoded()),
        StandardCharsets.US_ASCII);
    return new Pem(c, k);
  }

  private static KeyPair keys() throws GeneralSecurityException {
    KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
    g.initialize(new ECGenParameterSpec("secp256r1"));
    return g.generateKeyPair();
  }

  private static X509v3CertificateBuilder builder(X500Name issuer, X500Name subject, KeyPair keys,
      long serialNumber) throws CertIOException {
    Instant now = Instant.now();
    return new JcaX509v3CertificateBuilder(issuer, BigInteger.valueOf(serialNumber + 1),
        Date.from(now.minus(1, ChronoUnit.HOURS)), Date.from(now.plus(1, ChronoUnit.DAYS)),
        subject, keys.getPublic());
  }

  private static X509Certificate sign(X509v3CertificateBuilder b, KeyPair signer)
      throws GeneralSecurityException {
    try {
      return new JcaX509CertificateConverter().getCertificate(
          b.build(new JcaContentSignerBuilder("SHA256withECDSA").build(signer.getPrivate())));
    } catch (OperatorCreationException e) {
      throw new GeneralSecurityException(e);
    }
  }

  private static String pem(String type, byte[] der) {
    return "-----BEGIN " + type + "-----\n"
        + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der)
        + "\n-----END " + type + "-----\n";
  }
}
