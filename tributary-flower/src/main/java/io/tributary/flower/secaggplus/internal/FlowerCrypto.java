package io.tributary.flower.secaggplus.internal;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Arrays;
import java.util.Base64;
import javax.crypto.Cipher;
import javax.crypto.KeyAgreement;
import javax.crypto.Mac;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.bouncycastle.crypto.digests.SHA256Digest;
import org.bouncycastle.crypto.generators.HKDFBytesGenerator;
import org.bouncycastle.crypto.params.HKDFParameters;

/**
 * The key material of Flower's SecAgg+ with the JDK's primitives: SECP384R1 pairs as PEM
 * (SubjectPublicKeyInfo, unencrypted PKCS#8, as Flower's {@code public_key_to_bytes} /
 * {@code private_key_to_bytes}), the pairwise key as Flower's {@code generate_shared_key} makes it
 * (ECDH, HKDF-SHA256 with no salt and no info to 32 bytes, URL-safe base64), and Fernet tokens
 * under such a key.
 */
public final class FlowerCrypto {
  /** Bounds a PEM key before it is decoded. */
  public static final int MAX_PEM_BYTES = 4096;
  /** Bounds a Fernet token before it is decoded. */
  public static final int MAX_TOKEN_BYTES = 1 << 16;

  private static final Base64.Encoder URL = Base64.getUrlEncoder();
  private static final Base64.Decoder URL_DECODER = Base64.getUrlDecoder();

  private FlowerCrypto() {}

  /** A fresh SECP384R1 pair. */
  public static KeyPair generateKeyPair() {
    try {
      KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
      g.initialize(new ECGenParameterSpec("secp384r1"));
      return g.generateKeyPair();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("this JDK lacks SECP384R1", e);
    }
  }

  /** The public key as PEM SubjectPublicKeyInfo bytes. */
  public static byte[] publicKeyPem(PublicKey key) {
    return pem("PUBLIC KEY", key.getEncoded());
  }

  /** The private key as unencrypted PEM PKCS#8 bytes. */
  public static byte[] privateKeyPem(PrivateKey key) {
    return pem("PRIVATE KEY", key.getEncoded());
  }

  /** The EC public key of PEM bytes; throws {@link GeneralSecurityException} for anything else. */
  public static PublicKey publicKey(byte[] pem) throws GeneralSecurityException {
    return KeyFactory.getInstance("EC").generatePublic(
        new X509EncodedKeySpec(unpem("PUBLIC KEY", pem)));
  }

  /** The EC private key of PEM PKCS#8 bytes. */
  public static PrivateKey privateKey(byte[] pem) throws GeneralSecurityException {
    return KeyFactory.getInstance("EC").generatePrivate(
        new PKCS8EncodedKeySpec(unpem("PRIVATE KEY", pem)));
  }

  /** Flower's {@code generate_shared_key}: the 44 URL-safe base64 bytes of the derived key. */
  public static byte[] sharedKey(PrivateKey own, PublicKey other) throws GeneralSecurityException {
    KeyAgreement ka = KeyAgreement.getInstance("ECDH");
    ka.init(own);
    ka.doPhase(other, true);
    byte[] secret = ka.generateSecret();
    HKDFBytesGenerator hkdf = new HKDFBytesGenerator(new SHA256Digest());
    hkdf.init(new HKDFParameters(secret, null, null));
    byte[] derived = new byte[32];
    hkdf.generateBytes(derived, 0, 32);
    return URL.encode(derived);
  }

  /** A Fernet token of {@code plaintext} under {@code key} (44 URL-safe base64 bytes). */
  public static byte[] encrypt(byte[] key, byte[] plaintext, SecureRandom random)
      throws GeneralSecurityException {
    byte[] k = fernetKey(key);
    byte[] iv = new byte[16];
    random.nextBytes(iv);
    Cipher aes = Cipher.getInstance("AES/CBC/PKCS5Padding");
    aes.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(k, 16, 16, "AES"), new IvParameterSpec(iv));
    byte[] ct = aes.doFinal(plaintext);
    ByteBuffer b = ByteBuffer.allocate(1 + 8 + 16 + ct.length + 32);
    b.put((byte) 0x80).putLong(System.currentTimeMillis() / 1000).put(iv).put(ct);
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(k, 0, 16, "HmacSHA256"));
    mac.update(b.array(), 0, b.position());
    b.put(mac.doFinal());
    return URL.encode(b.array());
  }

  /**
   * The plaintext of a Fernet token under {@code key}.
   *
   * @throws GeneralSecurityException when the token is malformed or its HMAC does not verify
   */
  public static byte[] decrypt(byte[] key, byte[] token) throws GeneralSecurityException {
    byte[] k = fernetKey(key);
    if (token.length > MAX_TOKEN_BYTES) {
      throw new GeneralSecurityException("a Fernet token of " + token.length + " bytes");
    }
    byte[] raw;
    try {
      raw = URL_DECODER.decode(token);
    } catch (IllegalArgumentException e) {
      throw new GeneralSecurityException("a Fernet token that is not URL-safe base64");
    }
    if (raw.length < 1 + 8 + 16 + 16 + 32 || raw[0] != (byte) 0x80 || (raw.length - 57) % 16 != 0) {
      throw new GeneralSecurityException("a malformed Fernet token");
    }
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(k, 0, 16, "HmacSHA256"));
    mac.update(raw, 0, raw.length - 32);
    if (!MessageDigest.isEqual(mac.doFinal(), Arrays.copyOfRange(raw, raw.length - 32,
        raw.length))) {
      throw new GeneralSecurityException("a Fernet token whose HMAC does not verify");
    }
    Cipher aes = Cipher.getInstance("AES/CBC/PKCS5Padding");
    aes.init(Cipher.DECRYPT_MODE, new SecretKeySpec(k, 16, 16, "AES"),
        new IvParameterSpec(raw, 9, 16));
    return aes.doFinal(raw, 25, raw.length - 57);
  }

  private static byte[] fernetKey(byte[] key) throws GeneralSecurityException {
    byte[] k;
    try {
      k = URL_DECODER.decode(key);
    } catch (IllegalArgumentException e) {
      throw new GeneralSecurityException("a Fernet key that is not URL-safe base64");
    }
    if (k.length != 32) {
      throw new GeneralSecurityException("a Fernet key of " + k.length + " bytes, not 32");
    }
    return k;
  }

  private static byte[] pem(String label, byte[] der) {
    String body = Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der);
    return ("-----BEGIN " + label + "-----\n" + body + "\n-----END " + label + "-----\n")
        .getBytes(StandardCharsets.US_ASCII);
  }

  private static byte[] unpem(String label, byte[] pem) throws GeneralSecurityException {
    if (pem.length > MAX_PEM_BYTES) {
      throw new GeneralSecurityException("a PEM key of " + pem.length + " bytes");
    }
    String s = new String(pem, StandardCharsets.US_ASCII).strip();
    String begin = "-----BEGIN " + label + "-----";
    String end = "-----END " + label + "-----";
    if (!s.startsWith(begin) || !s.endsWith(end)) {
      throw new GeneralSecurityException("not a PEM " + label);
    }
    try {
      return Base64.getMimeDecoder().decode(s.substring(begin.length(), s.length() - end.length()));
    } catch (IllegalArgumentException e) {
      throw new GeneralSecurityException("a PEM " + label + " that is not base64");
    }
  }
}
