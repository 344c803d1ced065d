package io.tributary.flower.server;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * A throw-away CA with a server certificate for localhost and a client certificate, written as
 * PEM files; BouncyCastle makes them in-process, so the TLS tests need no tool on the machine.
 */
public final class TestCerts {
  public final Path caCert;
  public final Path serverCert;
  public final Path serverKey;
  public final Path clientCert;
  public final Path clientKey;

  public TestCerts(Path dir) throws IOException, GeneralSecurityException, OperatorCreationException {
    KeyPair ca = keyPair();
    X500Name caName = new X500Name("CN=Tributary Test CA");
    X509CertificateHolder caHolder = sign(caName, caName, ca, ca, true, null);
    KeyPair server = keyPair();
    X509CertificateHolder serverHolder = sign(new X500Name("CN=localhost"), caName, server, ca,
        false, new GeneralNames(new GeneralName[] {new GeneralName(GeneralName.dNSName,
            "localhost"), new GeneralName(GeneralName.iPAddress, "127.0.0.1")}));
    KeyPair client = keyPair();
    X509CertificateHolder clientHolder = sign(new X500Name("CN=client"), caName, client, ca,
        false, null);
    caCert = pem(dir.resolve("ca.pem"), "CERTIFICATE", caHolder.getEncoded());
    serverCert = pem(dir.resolve("server.pem"), "CERTIFICATE", serverHolder.getEncoded());
    serverKey = pem(dir.resolve("server.key"), "PRIVATE KEY", server.getPrivate().getEncoded());
    clientCert = pem(dir.resolve("client.pem"), "CERTIFICATE", clientHolder.getEncoded());
    clientKey = pem(dir.resolve("client.key"), "PRIVATE KEY", client.getPrivate().getEncoded());
  }

  private static KeyPair keyPair() throws GeneralSecurityException {
    KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
    g.initialize(new ECGenParameterSpec("secp256r1"));
    return g.generateKeyPair();
  }

  private static X509CertificateHolder sign(X500Name subject, X500Name issuer, KeyPair subjectKeys,
      KeyPair issuerKeys, boolean isCa, GeneralNames altNames)
      throws IOException, OperatorCreationException {
    Instant now = Instant.now();
    JcaX509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(issuer,
        BigInteger.valueOf(now.toEpochMilli()), Date.from(now.minus(Duration.ofHours(1))),
        Date.from(now.plus(Duration.ofDays(1))), subject, subjectKeys.getPublic());
    b.addExtension(Extension.basicConstraints, true, new BasicConstraints(isCa));
    if (altNames != null) {
      b.addExtension(Extension.subjectAlternativeName, false, altNames);
    }
    return b.build(new JcaContentSignerBuilder("SHA256withECDSA")
        .build(issuerKeys.getPrivate()));
  }

  private static Path pem(Path file, String type, byte[] der) throws IOException {
    String body = Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
        .encodeToString(der);
    Files.writeString(file, "-----BEGIN " + type + "-----\n" + body + "\n-----END " + type
        + "-----\n", StandardCharsets.US_ASCII);
    return file;
  }
}
