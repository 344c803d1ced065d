package io.tributary.flower.fleet;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Base64;

/**
 * Reads a SuperNode's EC key pair from PEM files: a PKCS#8 private key
 * ({@code -----BEGIN PRIVATE KEY-----}) and a SubjectPublicKeyInfo public key
 * ({@code -----BEGIN PUBLIC KEY-----}). OpenSSH-format keys ({@code ssh-keygen}'s default, which
 * Flower also reads) are not read yet: convert them with
 * {@code ssh-keygen -e -m PKCS8} / {@code openssl pkcs8 -topk8 -nocrypt}.
 */
public final class NodeKeys {
  private NodeKeys() {}

  public static KeyPair read(Path privateKey, Path publicKey) throws IOException {
    try {
      KeyFactory f = KeyFactory.getInstance("EC");
      return new KeyPair(
          f.generatePublic(new X509EncodedKeySpec(der(publicKey, "PUBLIC KEY"))),
          f.generatePrivate(new PKCS8EncodedKeySpec(der(privateKey, "PRIVATE KEY"))));
    } catch (GeneralSecurityException | IllegalArgumentException e) {
      throw new IOException("cannot read the EC key pair " + privateKey + " / " + publicKey
          + ": " + e.getMessage(), e);
    }
  }

  private static byte[] der(Path pem, String label) throws IOException {
    String text = Files.readString(pem, StandardCharsets.US_ASCII);
    String begin = "-----BEGIN " + label + "-----";
    String end = "-----END " + label + "-----";
    int b = text.indexOf(begin);
    int e = text.indexOf(end);
    if (b < 0 || e < b) {
      throw new IOException(pem + " is not a PEM '" + label + "'");
    }
    return Base64.getMimeDecoder().decode(text.substring(b + begin.length(), e));
  }
}
