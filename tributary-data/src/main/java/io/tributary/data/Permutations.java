package io.tributary.data;

import java.util.SplittableRandom;

/** Seeded Fisher-Yates shuffles, the one source of randomness for orderings in this package. */
final class Permutations {
  private Permutations() {}

  /** {@code 0 .. n-1} in an order fixed by {@code random}. */
  static int[] permutation(int n, SplittableRandom random) {
    int[] p = new int[n];
    for (int i = 0; i < n; i++) {
      p[i] = i;
    }
    shuffle(p, random);
    return p;
  }

  /** Shuffles {@code a} in place. */
  static void shuffle(int[] a, SplittableRandom random) {
    for (int i = a.length - 1; i > 0; i--) {
      int j = random.nextInt(i + 1);
      int t = a[i];
      a[i] = a[j];
      a[j] = t;
    }
  }
}
