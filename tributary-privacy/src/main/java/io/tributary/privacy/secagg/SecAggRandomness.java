package io.tributary.privacy.secagg;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;

/**
 * Where SecAgg+ parties draw their key pairs, self-mask seeds, Shamir coefficients, nonces and
 * stochastic rounding from. {@link #secure()} is the one to use;
 * {@link #seededForTestsOnlyNotSecure} repeats a run bit for bit and must never protect real
 * data: whoever knows the seed knows every secret key and mask.
 */
public sealed interface SecAggRandomness {
  /** A generator for one purpose of one party (a client id). */
  SecureRandom generator(String purpose, int party);

  /** The platform's default {@link SecureRandom} (a DRBG seeded by the OS) for every party. */
  static SecAggRandomness secure() {
    return new Secure();
  }

  /**
   * Generators determined by {@code seed}, the purpose and the party ({@code SHA1PRNG} seeded
   * before its first use), for reproducible tests only: anyone who knows or guesses the seed
   * recomputes every key and mask, so the aggregation then hides nothing.
   */
  static SecAggRandomness seededForTestsOnlyNotSecure(long seed) {
    return new SeededForTestsOnlyNotSecure(seed);
  }

  /** The platform's secure generator. */
  record Secure() implements SecAggRandomness {
    @Override
    public SecureRandom generator(String purpose, int party) {
      return new SecureRandom();
    }
  }

  /** Seeded generators; see {@link SecAggRandomness#seededForTestsOnlyNotSecure}. */
  record SeededForTestsOnlyNotSecure(long seed) implements SecAggRandomness {
    @Override
    public SecureRandom generator(String purpose, int party) {
      try {
        SecureRandom r = SecureRandom.getInstance("SHA1PRNG", "SUN");
        byte[] p = purpose.getBytes(StandardCharsets.UTF_8);
        r.setSeed(ByteBuffer.allocate(12 + p.length).putLong(seed).putInt(party).put(p).array());
        return r;
      } catch (GeneralSecurityException e) {
        throw new IllegalStateException("the platform has no SHA1PRNG", e);
      }
    }
  }
}
