package io.tributary.data;

import java.util.ArrayList;
import java.util.List;

/**
 * An assignment of example indices to clients: client k holds the examples {@link #client(int)}.
 *
 * <p>The partitioners in {@link Partitioner} assign every example to exactly one client; a
 * partition built by hand need not, and {@link #isExactCover(int)} says whether it does.
 */
public final class Partition {
  private final int[][] clients;

  /** A partition holding copies of the given per-client index arrays. */
  public Partition(List<int[]> clients) {
    if (clients.isEmpty()) {
      throw new IllegalArgumentException("a partition needs at least one client");
    }
    this.clients = new int[clients.size()][];
    for (int k = 0; k < this.clients.length; k++) {
      this.clients[k] = clients.get(k).clone();
    }
  }

  /** The number of clients. */
  public int numClients() {
    return clients.length;
  }

  /** A copy of client {@code k}'s example indices. */
  public int[] client(int k) {
    return clients[k].clone();
  }

  /** The number of examples each client holds. */
  public int[] sizes() {
    int[] out = new int[clients.length];
    for (int k = 0; k < out.length; k++) {
      out[k] = clients[k].length;
    }
    return out;
  }

  /** True when every index in {@code [0, n)} belongs to exactly one client and no other appears. */
  public boolean isExactCover(int n) {
    boolean[] seen = new boolean[n];
    long total = 0;
    for (int[] c : clients) {
      for (int i : c) {
        if (i < 0 || i >= n || seen[i]) {
          return false;
        }
        seen[i] = true;
        total++;
      }
    }
    return total == n;
  }

  /** For each client, how many of its examples carry each label of {@code labels}. */
  public int[][] labelCounts(int[] labels, int numClasses) {
    int[][] out = new int[clients.length][numClasses];
    for (int k = 0; k < clients.length; k++) {
      for (int i : clients[k]) {
        out[k][labels[i]]++;
      }
    }
    return out;
  }

  /** Client k's examples of {@code data} as a dataset named {@code <data name>/client_<k>}. */
  public List<Dataset> apply(Dataset data) {
    List<Dataset> out = new ArrayList<>(clients.length);
    for (int k = 0; k < clients.length; k++) {
      out.add(data.subset(data.name() + "/client_" + k, clients[k]));
    }
    return out;
  }
}
