package io.tributary.privacy.secagg.internal;

import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * AES-256-GCM (the JDK's) for the encrypted shares: a ciphertext is a fresh 12-byte nonce
 * followed by the GCM output with its 16-byte tag, bound to associated data naming sender and
 * recipient.
 */
public final class ShareCipher {
  /** The nonce length in bytes. */
  public static final int NONCE = 12;
  /** The tag length in bytes. */
  public static final int TAG = 16;

  private ShareCipher() {}

  /** Encrypts {@code plaintext} under a 32-byte key with a nonce from {@code random}. */
  public static byte[] encrypt(byte[] key, byte[] plaintext, byte[] aad, SecureRandom random) {
    byte[] nonce = new byte[NONCE];
    random.nextBytes(nonce);
    try {
      Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
      c.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "AES"),
          new GCMParameterSpec(TAG * 8, nonce));
      c.updateAAD(aad);
      byte[] body = c.doFinal(plaintext);
      byte[] out = new byte[NONCE + body.length];
      System.arraycopy(nonce, 0, out, 0, NONCE);
      System.arraycopy(body, 0, out, NONCE, body.length);
      return out;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("AES-GCM failed", e);
    }
  }

  /**
   * Decrypts what {@link #encrypt} produced.
   *
   * @throws AEADBadTagException when the ciphertext, its nonce or the associated data was changed,
   *     or the key is not the one it was encrypted under
   */
  public static byte[] decrypt(byte[] key, byte[] ciphertext, byte[] aad)
      throws AEADBadTagException {
    if (ciphertext.length < NONCE + TAG) {
      throw new AEADBadTagException("a ciphertext of " + ciphertext.length + " bytes is too short");
    }
    try {
      Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
      c.init(Cipher.DECRYPT_MODE, new SecretKeySpec(key, "AES"),
          new GCMParameterSpec(TAG * 8, ciphertext, 0, NONCE));
      c.updateAAD(aad);
      return c.doFinal(ciphertext, NONCE, ciphertext.length - NONCE);
    } catch (AEADBadTagException e) {
      throw e;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("AES-GCM failed", e);
    }
  }
}
