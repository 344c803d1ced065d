package io.tributary.cli;

/**
 * Derives the independent seeds of a run from its one {@code --seed}, so that, for example,
 * changing the number of rounds leaves the initial model and each round's clients unchanged.
 */
final class Seeds {
  /** The initial model. */
  static final long MODEL = 1;
  /** Client sampling. */
  static final long SAMPLER = 2;
  /** Local shuffling: round r uses {@code SHUFFLE + r}, then the client index. */
  static final long SHUFFLE = 1L << 32;

  private Seeds() {}

  /** A well-mixed seed for stream {@code stream} of {@code seed} (SplitMix64's finaliser). */
  static long derive(long seed, long stream) {
    long z = seed + 0x9E3779B97F4A7C15L * (stream + 1);
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}
