package io.tributary.privacy;

import java.security.SecureRandom;
import java.util.SplittableRandom;

/**
 * Where Gaussian noise comes from. {@link #secure()}, a cryptographically secure generator, is
 * the one to use: a guessable noise sequence gives no privacy. {@link
 * #seededForExperimentsOnlyNotPrivate} repeats a run bit for bit and must never protect real
 * data.
 */
public interface NoiseSource {
  /** A standard normal sample. */
  double nextGaussian();

  /** Noise from the platform's default {@link SecureRandom} (a DRBG seeded by the OS). */
  static NoiseSource secure() {
    SecureRandom random = new SecureRandom();
    return random::nextGaussian;
  }

  /**
   * Noise from a seeded generator, for reproducible experiments only: anyone who knows or guesses
   * the seed can subtract the noise, so such a run has no differential privacy at all.
   */
  static NoiseSource seededForExperimentsOnlyNotPrivate(long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    return random::nextGaussian;
  }
}
