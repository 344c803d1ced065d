package io.tributary.privacy.secagg.internal;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.TreeSet;

/**
 * The sparse graph along which SecAgg+ clients agree on masks and hold each other's shares: a
 * Harary graph {@code H(k, n)} on a ring whose order is a permutation drawn from a public seed.
 *
 * <p>Each client is joined to the {@code k/2} clients on either side of it on the ring; for an
 * odd {@code k} also to the client opposite when {@code n} is even, or to one more on either
 * side when {@code n} is odd (degree {@code k + 1}). With {@code k >= n - 1} the graph is
 * complete. The seed is public: anyone, the server included, computes the same graph; it only
 * spreads the neighbourhoods so that they do not follow client numbering.
 */
public final class CommunicationGraph {
  private final int[][] neighbours;

  private CommunicationGraph(int[][] neighbours) {
    this.neighbours = neighbours;
  }

  /** The graph of {@code n} clients (ids 0 to n - 1) with degree about {@code k}. */
  public static CommunicationGraph harary(int n, int k, long seed) {
    if (n < 1 || k < 1) {
      throw new IllegalArgumentException("a graph of " + n + " clients and degree " + k);
    }
    int[][] out = new int[n][];
    if (k >= n - 1) {
      for (int u = 0; u < n; u++) {
        final int self = u;
        out[u] = java.util.stream.IntStream.range(0, n).filter(v -> v != self).toArray();
      }
      return new CommunicationGraph(out);
    }
    int[] ring = new int[n];
    for (int i = 0; i < n; i++) {
      ring[i] = i;
    }
    SplittableRandom random = new SplittableRandom(seed);
    for (int i = n - 1; i > 0; i--) {
      int j = random.nextInt(i + 1);
      int t = ring[i];
      ring[i] = ring[j];
      ring[j] = t;
    }
    int half = k / 2;
    boolean opposite = k % 2 == 1 && n % 2 == 0;
    if (k % 2 == 1 && n % 2 == 1) {
      half++;
    }
    for (int p = 0; p < n; p++) {
      TreeSet<Integer> set = new TreeSet<>();
      for (int d = 1; d <= half; d++) {
        set.add(ring[(p + d) % n]);
        set.add(ring[(p - d + n) % n]);
      }
      if (opposite) {
        set.add(ring[(p + n / 2) % n]);
      }
      out[ring[p]] = set.stream().mapToInt(Integer::intValue).toArray();
    }
    return new CommunicationGraph(out);
  }

  /** The number of clients. */
  public int size() {
    return neighbours.length;
  }

  /** The neighbours of client {@code u}, ascending. */
  public int[] neighbours(int u) {
    return neighbours[u].clone();
  }

  /** Whether {@code u} and {@code v} are neighbours. */
  public boolean adjacent(int u, int v) {
    return Arrays.binarySearch(neighbours[u], v) >= 0;
  }

  /** The smallest degree of any client. */
  public int minDegree() {
    return Arrays.stream(neighbours).mapToInt(a -> a.length).min().orElse(0);
  }
}
