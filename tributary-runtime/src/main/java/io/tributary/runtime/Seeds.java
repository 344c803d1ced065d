package io.tributary.runtime;

/**
 * Derives independent, reproducible seeds from a root seed and a path of keys (a round, a client
 * index), so that randomness depends on what is computed and never on which thread computes it.
 */
public final class Seeds {
  private Seeds() {}

  /**
   * The seed for {@code keys} under {@code root}: the same inputs always give the same seed, and
   * different keys give statistically unrelated seeds (SplitMix64 finalization at each step).
   */
  public static long derive(long root, long... keys) {
    long h = mix(root ^ 0x9E3779B97F4A7C15L);
    for (long k : keys) {
      h = mix(h + 0x9E3779B97F4A7C15L + mix(k));
    }
    return h;
  }

  private static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}
