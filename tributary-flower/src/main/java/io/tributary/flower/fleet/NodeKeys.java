package io.tributary.flower.fleet;

import io.tributary.flower.fleet.internal.NodeAuth;
import io.tributary.flower.fleet.internal.OpenSshKeys;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.spec.InvalidKeySpecException;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Base64;

/**
 * Reads a SuperNode's ECDSA key pair for node authentication from files, in the formats that
 * Flower's {@code flower-supernode} reads and in PEM.
 *
 * <ul>
 *   <li>OpenSSH, as {@code ssh-keygen -t ecdsa -b 384 -N "" -f node} writes it and Flower's docs
 *       use: the private key {@code node} ({@code -----BEGIN OPENSSH PRIVATE KEY-----},
 *       unencrypted) and the public key {@code node.pub} ({@code ecdsa-sha2-nistp384 AAAA...
 *       comment}); curves nistp256, nistp384 and nistp521.
 *   <li>PEM: a PKCS#8 private key ({@code -----BEGIN PRIVATE KEY-----}) and a
 *       SubjectPublicKeyInfo public key ({@code -----BEGIN PUBLIC KEY-----}).
 * </ul>
 *
 * <p>Flower 1.27 takes only the private key and derives the public key from it
 * ({@code --auth-supernode-public-key} is deprecated there); {@link #read(Path)} does the same
 * for an OpenSSH private key, which holds its public key. Whatever the formats, the two keys must
 * be a pair. A file that is unreadable, over {@value OpenSshKeys#MAX_BYTES} bytes, in another
 * format or malformed is refused with a {@link NodeKeyException} naming it.
 */
public final class NodeKeys {
  private NodeKeys() {}

  /**
   * The key pair in an OpenSSH private key file, its public key the one the file holds, as
   * {@code flower-supernode --auth-supernode-private-key FILE} reads it.
   *
   * @throws NodeKeyException if the file is not an unencrypted OpenSSH ECDSA private key (a PEM
   *     PKCS#8 key needs its public key too: {@link #read(Path, Path)})
   */
  public static KeyPair read(Path privateKey) throws NodeKeyException {
    String text = text(privateKey);
    if (!OpenSshKeys.isPrivateKey(text)) {
      if (text.contains("-----BEGIN PRIVATE KEY-----")) {
        throw new NodeKeyException(privateKey, "is a PKCS#8 PEM private key, which does not "
            + "give its public key: name the public key file too, or use an OpenSSH key "
            + "('ssh-keygen -t ecdsa -b 384 -N \"\" -f FILE')", null);
      }
      throw notPrivate(privateKey, text);
    }
    try {
      return OpenSshKeys.privateKey(text);
    } catch (InvalidKeySpecException e) {
      throw new NodeKeyException(privateKey, e.getMessage(), e);
    }
  }

  /**
   * The key pair in a private and a public key file, each OpenSSH or PEM as the file's content
   * shows.
   *
   * @throws NodeKeyException if either file is unreadable, malformed or in another format, or
   *     the keys are not a pair (then it names the public key file)
   */
  public static KeyPair read(Path privateKey, Path publicKey) throws NodeKeyException {
    String privateText = text(privateKey);
    PrivateKey priv;
    if (OpenSshKeys.isPrivateKey(privateText)) {
      priv = read(privateKey).getPrivate();
    } else if (privateText.contains("-----BEGIN PRIVATE KEY-----")) {
      byte[] der = der(privateKey, privateText, "PRIVATE KEY");
      try {
        priv = KeyFactory.getInstance("EC").generatePrivate(new PKCS8EncodedKeySpec(der));
      } catch (GeneralSecurityException e) {
        throw new NodeKeyException(privateKey, "is not a PKCS#8 EC private key: "
            + e.getMessage(), e);
      }
    } else {
      throw notPrivate(privateKey, privateText);
    }
    String publicText = text(publicKey);
    PublicKey pub;
    if (OpenSshKeys.isPublicKey(publicText)) {
      try {
        pub = OpenSshKeys.publicKey(publicText);
      } catch (InvalidKeySpecException e) {
        throw new NodeKeyException(publicKey, e.getMessage(), e);
      }
    } else if (publicText.contains("-----BEGIN PUBLIC KEY-----")) {
      byte[] der = der(publicKey, publicText, "PUBLIC KEY");
      try {
        pub = KeyFactory.getInstance("EC").generatePublic(new X509EncodedKeySpec(der));
      } catch (GeneralSecurityException e) {
        throw new NodeKeyException(publicKey, "is not an EC public key: " + e.getMessage(), e);
      }
    } else {
      throw new NodeKeyException(publicKey, "is not an ECDSA public key: neither an OpenSSH "
          + "'ecdsa-sha2-nistpN BASE64 comment' line nor PEM '-----BEGIN PUBLIC KEY-----'", null);
    }
    KeyPair pair = new KeyPair(pub, priv);
    if (!NodeAuth.isPair(pair)) {
      throw new NodeKeyException(publicKey, "is not the public key of " + privateKey, null);
    }
    return pair;
  }

  private static NodeKeyException notPrivate(Path file, String text) {
    String hint = text.contains("-----BEGIN EC PRIVATE KEY-----")
        ? " (it is SEC1 'EC PRIVATE KEY' PEM: convert it with "
            + "'openssl pkcs8 -topk8 -nocrypt -in FILE')"
        : text.contains("-----BEGIN ENCRYPTED PRIVATE KEY-----")
            ? " (it is encrypted PKCS#8: Flower and Tributary read keys without a passphrase)"
            : "";
    return new NodeKeyException(file, "is not an ECDSA private key: neither OpenSSH "
        + "'-----BEGIN OPENSSH PRIVATE KEY-----' nor PKCS#8 PEM '-----BEGIN PRIVATE KEY-----'"
        + hint, null);
  }

  private static String text(Path file) throws NodeKeyException {
    if (!Files.isRegularFile(file)) {
      throw new NodeKeyException(file, "is not a readable file", null);
    }
    byte[] bytes;
    try {
      bytes = Files.size(file) > OpenSshKeys.MAX_BYTES ? null : Files.readAllBytes(file);
    } catch (IOException e) {
      throw new NodeKeyException(file, "cannot be read: " + e.getMessage(), e);
    }
    if (bytes == null || bytes.length > OpenSshKeys.MAX_BYTES) {
      throw new NodeKeyException(file, "is larger than " + OpenSshKeys.MAX_BYTES
          + " bytes, too large to be a key file", null);
    }
    return new String(bytes, StandardCharsets.ISO_8859_1);
  }

  private static byte[] der(Path file, String text, String label) throws NodeKeyException {
    String begin = "-----BEGIN " + label + "-----";
    String end = "-----END " + label + "-----";
    int b = text.indexOf(begin);
    int e = text.indexOf(end);
    if (b < 0 || e < b) {
      throw new NodeKeyException(file, "has no complete PEM '" + label + "' block", null);
    }
    try {
      return Base64.getMimeDecoder().decode(text.substring(b + begin.length(), e));
    } catch (IllegalArgumentException ex) {
      throw new NodeKeyException(file, "has invalid base64 in its PEM '" + label + "' block: "
          + ex.getMessage(), ex);
    }
  }
}
