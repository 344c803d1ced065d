package io.tributary.privacy.secagg.internal;

import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.InvalidKeyException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.interfaces.XECPrivateKey;
import java.security.interfaces.XECPublicKey;
import java.security.spec.NamedParameterSpec;
import java.security.spec.XECPrivateKeySpec;
import java.security.spec.XECPublicKeySpec;
import java.util.Arrays;
import javax.crypto.KeyAgreement;
import org.bouncycastle.crypto.digests.SHA256Digest;
import org.bouncycastle.crypto.generators.HKDFBytesGenerator;
import org.bouncycastle.crypto.params.HKDFParameters;

/**
 * X25519 key pairs and agreements (the JDK's {@code XDH} provider) in their raw 32-byte RFC 7748
 * encodings, and HKDF-SHA256 (Bouncy Castle) to turn a shared secret into a key or a seed.
 */
public final class Keys {
  /** The length of a raw X25519 public key, private scalar, shared secret and derived key. */
  public static final int LENGTH = 32;

  private static final byte[] BASE_POINT = basePoint();

  private Keys() {}

  private static byte[] basePoint() {
    byte[] u = new byte[LENGTH];
    u[0] = 9;
    return u;
  }

  /** A fresh X25519 key pair drawn from {@code random}. */
  public static KeyPair generate(SecureRandom random) {
    try {
      KeyPairGenerator g = KeyPairGenerator.getInstance("X25519");
      g.initialize(NamedParameterSpec.X25519, random);
      return g.generateKeyPair();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("the platform has no X25519", e);
    }
  }

  /** The raw little-endian u-coordinate of an X25519 public key. */
  public static byte[] encode(PublicKey key) {
    BigInteger u = ((XECPublicKey) key).getU();
    byte[] be = u.toByteArray();
    byte[] le = new byte[LENGTH];
    for (int i = 0; i < LENGTH && i < be.length; i++) {
      le[i] = be[be.length - 1 - i];
    }
    return le;
  }

  /** The raw 32-byte scalar of an X25519 private key. */
  public static byte[] encode(PrivateKey key) {
    return ((XECPrivateKey) key).getScalar()
        .orElseThrow(() -> new IllegalStateException("the private key hides its scalar"));
  }

  /**
   * A public key from its raw encoding (the top bit is ignored, as RFC 7748 says).
   *
   * @throws IllegalArgumentException when {@code raw} is not 32 bytes
   */
  public static PublicKey publicKey(byte[] raw) {
    requireLength(raw, "an X25519 public key");
    byte[] be = new byte[LENGTH];
    for (int i = 0; i < LENGTH; i++) {
      be[i] = raw[LENGTH - 1 - i];
    }
    be[0] &= 0x7f;
    try {
      return KeyFactory.getInstance("X25519").generatePublic(
          new XECPublicKeySpec(NamedParameterSpec.X25519, new BigInteger(1, be)));
    } catch (GeneralSecurityException e) {
      throw new IllegalArgumentException("not an X25519 public key: " + e.getMessage(), e);
    }
  }

  /**
   * A private key from its raw scalar.
   *
   * @throws IllegalArgumentException when {@code scalar} is not 32 bytes
   */
  public static PrivateKey privateKey(byte[] scalar) {
    requireLength(scalar, "an X25519 private key");
    try {
      return KeyFactory.getInstance("X25519").generatePrivate(
          new XECPrivateKeySpec(NamedParameterSpec.X25519, scalar.clone()));
    } catch (GeneralSecurityException e) {
      throw new IllegalArgumentException("not an X25519 private key: " + e.getMessage(), e);
    }
  }

  /** The raw public key that belongs to a raw private scalar: X25519 of it and the base point. */
  public static byte[] publicOf(byte[] scalar) {
    try {
      return agree(privateKey(scalar), publicKey(BASE_POINT));
    } catch (InvalidKeyException e) {
      throw new IllegalStateException("X25519 refused its own base point", e);
    }
  }

  /**
   * The X25519 shared secret of a private and a public key.
   *
   * @throws InvalidKeyException when the public key is of small order (the secret would be zero)
   */
  public static byte[] agree(PrivateKey own, PublicKey other) throws InvalidKeyException {
    try {
      KeyAgreement a = KeyAgreement.getInstance("X25519");
      a.init(own);
      a.doPhase(other, true);
      byte[] secret = a.generateSecret();
      if (Arrays.equals(secret, new byte[secret.length])) {
        throw new InvalidKeyException("the shared secret is zero");
      }
      return secret;
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException("the platform has no X25519", e);
    }
  }

  /** {@code length} bytes of HKDF-SHA256 of {@code secret} with a salt and a purpose label. */
  public static byte[] derive(byte[] secret, byte[] salt, String purpose, int length) {
    HKDFBytesGenerator hkdf = new HKDFBytesGenerator(new SHA256Digest());
    hkdf.init(new HKDFParameters(secret, salt,
        purpose.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    byte[] out = new byte[length];
    hkdf.generateBytes(out, 0, length);
    return out;
  }

  private static void requireLength(byte[] raw, String what) {
    if (raw == null || raw.length != LENGTH) {
      throw new IllegalArgumentException(what + " is " + LENGTH + " bytes, got "
          + (raw == null ? "none" : raw.length));
    }
  }
}
