package io.tributary.privacy.secagg.internal;

import java.math.BigInteger;
import java.security.SecureRandom;
import java.util.Arrays;

/**
 * Shamir's t-out-of-n secret sharing of 32-byte secrets over the prime field of
 * {@code p = 2^521 - 1} (a Mersenne prime, so every 256-bit secret is a field element).
 *
 * <p>A share is the value at {@code x} of a random polynomial of degree {@code t - 1} whose
 * constant term is the secret; the coefficients come from a {@link SecureRandom}. Any {@code t}
 * shares give the secret back by Lagrange interpolation at 0; fewer reveal nothing about it.
 * Shares are encoded as {@link #SHARE_BYTES} big-endian bytes.
 */
public final class Shamir {
  /** The field's prime, {@code 2^521 - 1}. */
  public static final BigInteger PRIME = BigInteger.ONE.shiftLeft(521).subtract(BigInteger.ONE);
  /** The length of an encoded share. */
  public static final int SHARE_BYTES = 66;
  /** The length of a secret. */
  public static final int SECRET_BYTES = 32;

  private Shamir() {}

  /**
   * Shares of {@code secret} at the points {@code xs} (distinct, positive), any
   * {@code threshold} of which recover it.
   */
  public static byte[][] split(byte[] secret, int threshold, int[] xs, SecureRandom random) {
    if (secret.length != SECRET_BYTES) {
      throw new IllegalArgumentException("a secret is " + SECRET_BYTES + " bytes, got "
          + secret.length);
    }
    if (threshold < 1 || threshold > xs.length) {
      throw new IllegalArgumentException("a threshold of " + threshold + " with "
          + xs.length + " shares");
    }
    BigInteger[] coefficients = new BigInteger[threshold];
    coefficients[0] = new BigInteger(1, secret);
    for (int i = 1; i < threshold; i++) {
      BigInteger c;
      do {
        c = new BigInteger(PRIME.bitLength(), random);
      } while (c.compareTo(PRIME) >= 0);
      coefficients[i] = c;
    }
    byte[][] shares = new byte[xs.length][];
    for (int s = 0; s < xs.length; s++) {
      if (xs[s] <= 0) {
        throw new IllegalArgumentException("a share point must be positive, got " + xs[s]);
      }
      BigInteger x = BigInteger.valueOf(xs[s]);
      BigInteger y = BigInteger.ZERO;
      for (int i = threshold - 1; i >= 0; i--) {
        y = y.multiply(x).add(coefficients[i]).mod(PRIME);
      }
      shares[s] = toBytes(y, SHARE_BYTES);
    }
    return shares;
  }

  /**
   * The secret whose shares at the points {@code xs} (distinct, positive) are {@code shares}.
   * With at least the threshold of consistent shares it is the secret; otherwise it is some
   * other value, or the call fails.
   *
   * @throws IllegalArgumentException when a share is malformed, the points repeat, or the
   *     interpolated value is not a 32-byte secret (the shares do not belong together)
   */
  public static byte[] combine(int[] xs, byte[][] shares) {
    if (xs.length != shares.length || xs.length == 0) {
      throw new IllegalArgumentException("combining " + shares.length + " shares at "
          + xs.length + " points");
    }
    if (Arrays.stream(xs).distinct().count() != xs.length) {
      throw new IllegalArgumentException("the share points repeat");
    }
    BigInteger secret = BigInteger.ZERO;
    for (int j = 0; j < xs.length; j++) {
      if (shares[j].length != SHARE_BYTES) {
        throw new IllegalArgumentException("a share is " + SHARE_BYTES + " bytes, got "
            + shares[j].length);
      }
      BigInteger y = new BigInteger(1, shares[j]);
      if (y.compareTo(PRIME) >= 0) {
        throw new IllegalArgumentException("a share is not a field element");
      }
      BigInteger num = BigInteger.ONE;
      BigInteger den = BigInteger.ONE;
      for (int m = 0; m < xs.length; m++) {
        if (m != j) {
          num = num.multiply(BigInteger.valueOf(xs[m])).mod(PRIME);
          den = den.multiply(BigInteger.valueOf((long) xs[m] - xs[j])).mod(PRIME);
        }
      }
      secret = secret.add(y.multiply(num).multiply(den.modInverse(PRIME))).mod(PRIME);
    }
    if (secret.bitLength() > SECRET_BYTES * 8) {
      throw new IllegalArgumentException("the shares do not interpolate to a 32-byte secret");
    }
    return toBytes(secret, SECRET_BYTES);
  }

  private static byte[] toBytes(BigInteger v, int length) {
    byte[] raw = v.toByteArray();
    byte[] out = new byte[length];
    int copy = Math.min(raw.length, length);
    System.arraycopy(raw, raw.length - copy, out, length - copy, copy);
    return out;
  }
}
