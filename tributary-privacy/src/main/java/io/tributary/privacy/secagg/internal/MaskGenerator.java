package io.tributary.privacy.secagg.internal;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.security.GeneralSecurityException;
import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * The pseudorandom generator that expands a 32-byte seed into a mask vector: the AES-256-CTR
 * keystream (the JDK's) under the seed as key and a zero counter block, read as little-endian
 * 64-bit words. Reduced modulo {@code 2^bits} each word is uniform there, since the modulus is a
 * power of two.
 */
public final class MaskGenerator {
  private static final int CHUNK = 4096;

  private MaskGenerator() {}

  /**
   * Adds (or subtracts) the mask of {@code seed} to {@code target} element by element, with
   * {@code long} wrap-around, that is modulo {@code 2^64}; reducing modulo {@code 2^bits}
   * afterwards gives the sum modulo {@code 2^bits} for any {@code bits <= 64}.
   */
  public static void apply(byte[] seed, long[] target, boolean subtract) {
    if (seed.length != Keys.LENGTH) {
      throw new IllegalArgumentException("a mask seed is " + Keys.LENGTH + " bytes, got "
          + seed.length);
    }
    Cipher c;
    try {
      c = Cipher.getInstance("AES/CTR/NoPadding");
      c.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(seed, "AES"), new IvParameterSpec(new byte[16]));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("AES-CTR failed", e);
    }
    byte[] zeros = new byte[CHUNK * Long.BYTES];
    byte[] stream = new byte[zeros.length];
    for (int from = 0; from < target.length; from += CHUNK) {
      int n = Math.min(CHUNK, target.length - from);
      int got;
      try {
        got = c.update(zeros, 0, n * Long.BYTES, stream, 0);
      } catch (GeneralSecurityException e) {
        throw new IllegalStateException("AES-CTR failed", e);
      }
      if (got != n * Long.BYTES) {
        throw new IllegalStateException("AES-CTR returned " + got + " bytes, expected "
            + n * Long.BYTES);
      }
      ByteBuffer words = ByteBuffer.wrap(stream, 0, got).order(ByteOrder.LITTLE_ENDIAN);
      for (int i = 0; i < n; i++) {
        long w = words.getLong();
        target[from + i] = subtract ? target[from + i] - w : target[from + i] + w;
      }
    }
  }

  /** Reduces every element modulo {@code 2^bits} ({@code bits} 1 to 64), in place. */
  public static void reduce(long[] values, int bits) {
    if (bits >= 64) {
      return;
    }
    long mask = (1L << bits) - 1;
    for (int i = 0; i < values.length; i++) {
      values[i] &= mask;
    }
  }
}
