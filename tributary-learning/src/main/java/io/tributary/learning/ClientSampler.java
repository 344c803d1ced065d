package io.tributary.learning;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Chooses the clients that take part in each round: the same seed and round always give the same
 * clients, whatever else happened before, so a run can be repeated or resumed at any round.
 *
 * @param seed the sampling seed
 */
public record ClientSampler(long seed) {
  /**
   * {@code count} distinct client indices in {@code [0, population)}, sorted, for this round.
   *
   * @throws IllegalArgumentException if the round is negative, or the count is not in
   *     {@code [0, population]}
   */
  public int[] sample(long round, int population, int count) {
    if (round < 0) {
      throw new IllegalArgumentException("round must be >= 0, got " + round);
    }
    if (population < 0 || count < 0 || count > population) {
      throw new IllegalArgumentException("cannot sample " + count + " clients from a population of "
          + population);
    }
    // One stream per (seed, round): mixing the round into the seed keeps rounds independent
    // without drawing through the earlier rounds.
    SplittableRandom rnd = new SplittableRandom(mix(seed, round));
    int[] chosen;
    if (count * 2L <= population) {
      chosen = floyd(rnd, population, count);
    } else {
      int[] all = new int[population];
      for (int i = 0; i < population; i++) {
        all[i] = i;
      }
      for (int i = 0; i < count; i++) {
        int j = i + rnd.nextInt(population - i);
        int t = all[i];
        all[i] = all[j];
        all[j] = t;
      }
      chosen = Arrays.copyOf(all, count);
    }
    Arrays.sort(chosen);
    return chosen;
  }

  /** Floyd's algorithm: {@code count} distinct values without an array of the population. */
  private static int[] floyd(SplittableRandom rnd, int population, int count) {
    java.util.HashSet<Integer> set = new java.util.HashSet<>();
    int[] out = new int[count];
    int k = 0;
    for (int j = population - count; j < population; j++) {
      int t = rnd.nextInt(j + 1);
      int pick = set.add(t) ? t : j;
      if (pick == j) {
        set.add(j);
      }
      out[k++] = pick;
    }
    return out;
  }

  private static long mix(long seed, long round) {
    long z = seed * 0x9E3779B97F4A7C15L + round;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}
