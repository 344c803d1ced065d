package io.tributary.privacy.aggregation;

import io.tributary.privacy.NoiseSource;

/**
 * Where a private aggregator's noise comes from, round by round: {@link #secure()}, the one that
 * gives privacy, or {@link #seededForExperimentsOnlyNotPrivate}, which repeats a run bit for bit
 * and protects nothing (whoever knows the seed can subtract the noise).
 */
public sealed interface DpNoise {
  /**
   * The noise of {@code round} for stream {@code stream} (0 for the server; the clients' local
   * noise uses other streams).
   */
  NoiseSource source(long round, long stream);

  /** Whether this noise repeats (and so gives no privacy). */
  boolean seeded();

  /** Noise from the platform's {@code SecureRandom}: the default. */
  static DpNoise secure() {
    return new Secure();
  }

  /** Noise from {@code seed}, the same for the same round and stream: experiments only. */
  static DpNoise seededForExperimentsOnlyNotPrivate(long seed) {
    return new SeededForExperimentsOnlyNotPrivate(seed);
  }

  /** Cryptographically secure noise; every call draws afresh. */
  record Secure() implements DpNoise {
    @Override
    public NoiseSource source(long round, long stream) {
      return NoiseSource.secure();
    }

    @Override
    public boolean seeded() {
      return false;
    }
  }

  /**
   * Seeded noise: round r's stream s is a generator seeded from (seed, r, s), so a resumed or
   * repeated run draws the same numbers. Not private.
   *
   * @param seed the seed
   */
  record SeededForExperimentsOnlyNotPrivate(long seed) implements DpNoise {
    @Override
    public NoiseSource source(long round, long stream) {
      long s = mix(seed + 0x9E3779B97F4A7C15L * (round + 1));
      s = mix(s ^ (0xBF58476D1CE4E5B9L * (stream + 1)));
      return NoiseSource.seededForExperimentsOnlyNotPrivate(s);
    }

    @Override
    public boolean seeded() {
      return true;
    }

    /** SplitMix64's finaliser. */
    private static long mix(long z) {
      z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
      z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
      return z ^ (z >>> 31);
    }
  }
}
