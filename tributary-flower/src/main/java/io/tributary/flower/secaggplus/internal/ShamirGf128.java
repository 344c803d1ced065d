package io.tributary.flower.secaggplus.internal;

import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Flower's {@code create_shares} / {@code combine_shares}: the secret, PKCS#7-padded to 16-byte
 * chunks, each chunk shared with Shamir's scheme over GF(2^128) (PyCryptodome's field, reduced by
 * x^128 + x^7 + x^2 + x + 1, chunks read big-endian, without the "ssss" term). Share {@code i}
 * (1-based) is {@code i} as 4 little-endian bytes, then the 16-byte share of every chunk.
 */
public final class ShamirGf128 {
  private static final BigInteger IRREDUCIBLE =
      BigInteger.ONE.shiftLeft(128).or(BigInteger.valueOf(0x87));
  private static final BigInteger FIELD_MAX = BigInteger.ONE.shiftLeft(128);
  /** Bounds what a share may claim before anything is allocated for it. */
  public static final int MAX_SHARE_BYTES = 4 + 16 * 64;

  private ShamirGf128() {}

  /** {@code num} shares of {@code secret}, any {@code threshold} of which give it back. */
  public static List<byte[]> split(byte[] secret, int threshold, int num, SecureRandom random) {
    if (threshold < 1 || num < threshold) {
      throw new IllegalArgumentException("threshold " + threshold + " with " + num + " shares");
    }
    int pad = 16 - secret.length % 16;
    byte[] padded = Arrays.copyOf(secret, secret.length + pad);
    Arrays.fill(padded, secret.length, padded.length, (byte) pad);
    List<ByteArrayOutputStream> shares = new ArrayList<>(num);
    for (int i = 1; i <= num; i++) {
      ByteArrayOutputStream s = new ByteArrayOutputStream();
      s.write(i);
      s.write(i >>> 8);
      s.write(i >>> 16);
      s.write(i >>> 24);
      shares.add(s);
    }
    for (int c = 0; c < padded.length; c += 16) {
      // Horner's rule over the coefficients, highest degree first, the chunk last.
      BigInteger[] coeffs = new BigInteger[threshold];
      for (int k = 0; k < threshold - 1; k++) {
        byte[] r = new byte[16];
        random.nextBytes(r);
        coeffs[k] = new BigInteger(1, r);
      }
      coeffs[threshold - 1] = new BigInteger(1, Arrays.copyOfRange(padded, c, c + 16));
      for (int i = 1; i <= num; i++) {
        BigInteger x = BigInteger.valueOf(i);
        BigInteger y = BigInteger.ZERO;
        for (BigInteger coeff : coeffs) {
          y = multiply(x, y).xor(coeff);
        }
        shares.get(i - 1).writeBytes(encode(y));
      }
    }
    return shares.stream().map(ByteArrayOutputStream::toByteArray).toList();
  }

  /**
   * The secret the shares interpolate at zero.
   *
   * @throws IllegalArgumentException for shares of different lengths, a length that is not
   *     4 + 16k, repeated indices, or a result whose padding is not PKCS#7
   */
  public static byte[] combine(List<byte[]> shares) {
    if (shares.isEmpty()) {
      throw new IllegalArgumentException("no shares to combine");
    }
    int len = shares.getFirst().length;
    if (len < 20 || (len - 4) % 16 != 0 || len > MAX_SHARE_BYTES) {
      throw new IllegalArgumentException("a share of " + len + " bytes is not 4 + 16k bytes");
    }
    BigInteger[] xs = new BigInteger[shares.size()];
    Set<BigInteger> seen = new HashSet<>();
    for (int j = 0; j < xs.length; j++) {
      byte[] s = shares.get(j);
      if (s.length != len) {
        throw new IllegalArgumentException("shares of " + len + " and " + s.length + " bytes");
      }
      xs[j] = BigInteger.valueOf((s[0] & 0xff) | (s[1] & 0xff) << 8 | (s[2] & 0xff) << 16
          | (long) (s[3] & 0xff) << 24);
      if (!seen.add(xs[j])) {
        throw new IllegalArgumentException("two shares have the index " + xs[j]);
      }
    }
    // The Lagrange weights at zero do not depend on the chunk.
    BigInteger[] weights = new BigInteger[xs.length];
    for (int j = 0; j < xs.length; j++) {
      BigInteger num = BigInteger.ONE;
      BigInteger den = BigInteger.ONE;
      for (int m = 0; m < xs.length; m++) {
        if (m != j) {
          num = multiply(num, xs[m]);
          den = multiply(den, xs[j].xor(xs[m]));
        }
      }
      weights[j] = multiply(num, inverse(den));
    }
    byte[] padded = new byte[len - 4];
    for (int c = 0; c < padded.length; c += 16) {
      BigInteger v = BigInteger.ZERO;
      for (int j = 0; j < xs.length; j++) {
        BigInteger y = new BigInteger(1, Arrays.copyOfRange(shares.get(j), 4 + c, 20 + c));
        v = v.xor(multiply(y, weights[j]));
      }
      System.arraycopy(encode(v), 0, padded, c, 16);
    }
    int pad = padded[padded.length - 1] & 0xff;
    if (pad < 1 || pad > 16) {
      throw new IllegalArgumentException("the shares do not combine to a padded secret");
    }
    for (int i = padded.length - pad; i < padded.length; i++) {
      if ((padded[i] & 0xff) != pad) {
        throw new IllegalArgumentException("the shares do not combine to a padded secret");
      }
    }
    return Arrays.copyOf(padded, padded.length - pad);
  }

  static BigInteger multiply(BigInteger a, BigInteger b) {
    BigInteger z = BigInteger.ZERO;
    BigInteger v = a;
    for (int i = 0; i < b.bitLength(); i++) {
      if (b.testBit(i)) {
        z = z.xor(v);
      }
      v = v.shiftLeft(1);
      if (v.testBit(128)) {
        v = v.xor(IRREDUCIBLE);
      }
    }
    return z;
  }

  /** a^(2^128 - 2), the inverse in the field. */
  static BigInteger inverse(BigInteger a) {
    if (a.signum() == 0) {
      throw new IllegalArgumentException("zero has no inverse");
    }
    BigInteger result = BigInteger.ONE;
    BigInteger base = a;
    BigInteger e = FIELD_MAX.subtract(BigInteger.TWO);
    for (int i = 0; i < e.bitLength(); i++) {
      if (e.testBit(i)) {
        result = multiply(result, base);
      }
      base = multiply(base, base);
    }
    return result;
  }

  private static byte[] encode(BigInteger v) {
    byte[] raw = v.toByteArray();
    byte[] out = new byte[16];
    int n = Math.min(raw.length, 16);
    System.arraycopy(raw, raw.length - n, out, 16 - n, n);
    return out;
  }
}
