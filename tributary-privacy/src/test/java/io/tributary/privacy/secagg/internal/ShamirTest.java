package io.tributary.privacy.secagg.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.security.SecureRandom;
import org.junit.jupiter.api.Test;

/** Shamir sharing over 2^521 - 1. */
class ShamirTest {
  private static byte[] secret(int seed) {
    byte[] s = new byte[32];
    new java.util.SplittableRandom(seed).nextBytes(s);
    s[0] = (byte) 0xff;
    return s;
  }

  @Test
  void combine_anyThresholdOfShares_givesTheSecret() {
    byte[] s = secret(1);
    int[] xs = {1, 2, 3, 4, 5, 6};
    byte[][] shares = Shamir.split(s, 4, xs, new SecureRandom());

    assertThat(Shamir.combine(new int[] {1, 2, 3, 4},
        new byte[][] {shares[0], shares[1], shares[2], shares[3]})).isEqualTo(s);
    assertThat(Shamir.combine(new int[] {6, 2, 5, 3},
        new byte[][] {shares[5], shares[1], shares[4], shares[2]})).isEqualTo(s);
    assertThat(Shamir.combine(xs, shares)).isEqualTo(s);
  }

  @Test
  void combine_fewerThanThresholdShares_doesNotGiveTheSecret() {
    byte[] s = secret(2);
    int[] xs = {1, 2, 3, 4, 5};
    byte[][] shares = Shamir.split(s, 3, xs, new SecureRandom());

    byte[] guess;
    try {
      guess = Shamir.combine(new int[] {1, 2}, new byte[][] {shares[0], shares[1]});
    } catch (IllegalArgumentException e) {
      guess = null;
    }
    assertThat(guess).isNotEqualTo(s);
  }

  @Test
  void split_thresholdOne_everyShareIsTheSecret() {
    byte[] s = secret(3);
    byte[][] shares = Shamir.split(s, 1, new int[] {3, 9}, new SecureRandom());

    assertThat(Shamir.combine(new int[] {9}, new byte[][] {shares[1]})).isEqualTo(s);
    assertThat(shares[0]).hasSize(Shamir.SHARE_BYTES);
  }
}
