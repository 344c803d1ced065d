package io.tributary.data;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A seeded rule that splits a dataset's examples among clients. Every partitioner here assigns each
 * example to exactly one client, and the same inputs and seed give the same partition.
 */
public sealed interface Partitioner
    permits Partitioner.Iid, Partitioner.Dirichlet, Partitioner.Shards {

  /**
   * Splits the examples whose labels are {@code labels} among {@code numClients} clients.
   *
   * @param labels the label of each example, each in {@code [0, numClasses)}
   * @throws IllegalArgumentException for a label out of range or settings the data cannot meet
   */
  Partition partition(int[] labels, int numClasses, int numClients, long seed);

  /** Splits {@code data} by its labels; see {@link #partition(int[], int, int, long)}. */
  default Partition partition(Dataset data, int numClients, long seed) {
    return partition(data.labelArray(), data.numClasses(), numClients, seed);
  }

  /**
   * Reads a partitioner from its short form: {@code iid}, {@code dirichlet:ALPHA} (ALPHA > 0) or
   * {@code shards:K} (K >= 1 shards per client).
   *
   * @throws IllegalArgumentException naming the spec and what is wrong with it
   */
  static Partitioner parse(String spec) {
    String s = spec.strip();
    if (s.equals("iid")) {
      return new Iid();
    }
    int colon = s.indexOf(':');
    String kind = colon < 0 ? s : s.substring(0, colon);
    String arg = colon < 0 ? "" : s.substring(colon + 1).strip();
    try {
      return switch (kind) {
        case "dirichlet" -> new Dirichlet(Double.parseDouble(arg));
        case "shards" -> new Shards(Integer.parseInt(arg));
        default -> throw new IllegalArgumentException(
            "unknown partitioner '" + spec + "': use iid, dirichlet:ALPHA or shards:K");
      };
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "partitioner '" + spec + "': '" + arg + "' is not a number", e);
    }
  }

  /**
   * IID: a seeded random permutation cut into {@code numClients} parts whose sizes differ by at
   * most one (the first {@code N mod numClients} clients get the extra example).
   */
  record Iid() implements Partitioner {
    @Override
    public Partition partition(int[] labels, int numClasses, int numClients, long seed) {
      checkInputs(labels, numClasses, numClients);
      int n = labels.length;
      if (numClients > n) {
        throw new IllegalArgumentException(
            "iid: " + numClients + " clients but only " + n + " examples");
      }
      int[] perm = Permutations.permutation(n, new SplittableRandom(seed));
      List<int[]> clients = new ArrayList<>(numClients);
      int at = 0;
      for (int k = 0; k < numClients; k++) {
        int len = n / numClients + (k < n % numClients ? 1 : 0);
        int[] part = Arrays.copyOfRange(perm, at, at + len);
        Arrays.sort(part);
        clients.add(part);
        at += len;
      }
      return new Partition(clients);
    }

    @Override
    public String toString() {
      return "iid";
    }
  }

  /**
   * Label skew by a Dirichlet prior (Hsu et al. 2019): for each class, proportions
   * {@code p ~ Dir(alpha, ..., alpha)} over clients, and that class's examples, shuffled, are cut
   * at {@code floor(cumsum(p) * n_class)}. Small alpha concentrates each class on few clients;
   * large alpha approaches IID. Clients may end up with no examples.
   */
  record Dirichlet(double alpha) implements Partitioner {
    /** Requires a finite alpha above zero. */
    public Dirichlet {
      if (!(alpha > 0) || Double.isInfinite(alpha)) {
        throw new IllegalArgumentException("dirichlet alpha must be finite and > 0, got " + alpha);
      }
    }

    @Override
    public Partition partition(int[] labels, int numClasses, int numClients, long seed) {
      checkInputs(labels, numClasses, numClients);
      SplittableRandom random = new SplittableRandom(seed);
      int[][] byClass = byClass(labels, numClasses);
      int[][] parts = new int[numClients][];
      int[] fill = new int[numClients];
      int[][] cuts = new int[numClasses][];
      int[] sizes = new int[numClients];
      for (int c = 0; c < numClasses; c++) {
        int[] members = byClass[c];
        Permutations.shuffle(members, random);
        double[] p = Gamma.symmetricDirichlet(alpha, numClients, random);
        int[] cut = new int[numClients + 1];
        double cum = 0;
        for (int k = 0; k < numClients; k++) {
          cum += p[k];
          cut[k + 1] = k == numClients - 1
              ? members.length
              : (int) Math.min(members.length, Math.floor(cum * members.length));
          sizes[k] += cut[k + 1] - cut[k];
        }
        cuts[c] = cut;
      }
      for (int k = 0; k < numClients; k++) {
        parts[k] = new int[sizes[k]];
      }
      for (int c = 0; c < numClasses; c++) {
        for (int k = 0; k < numClients; k++) {
          for (int j = cuts[c][k]; j < cuts[c][k + 1]; j++) {
            parts[k][fill[k]++] = byClass[c][j];
          }
        }
      }
      List<int[]> clients = new ArrayList<>(numClients);
      for (int[] part : parts) {
        Arrays.sort(part);
        clients.add(part);
      }
      return new Partition(clients);
    }

    @Override
    public String toString() {
      return "dirichlet:" + alpha;
    }
  }

  /**
   * Pathological non-IID shards (McMahan et al. 2017): examples sorted by label (stably, so
   * within a label they keep their order), cut into {@code numClients * shardsPerClient} contiguous
   * shards whose sizes differ by at most one, and shards dealt to clients by a seeded permutation.
   * A client sees at most {@code shardsPerClient} labels when every class size is a multiple of
   * the shard size; otherwise a shard can straddle two labels.
   */
  record Shards(int shardsPerClient) implements Partitioner {
    /** Requires at least one shard per client. */
    public Shards {
      if (shardsPerClient < 1) {
        throw new IllegalArgumentException(
            "shards per client must be >= 1, got " + shardsPerClient);
      }
    }

    @Override
    public Partition partition(int[] labels, int numClasses, int numClients, long seed) {
      checkInputs(labels, numClasses, numClients);
      long numShards = (long) numClients * shardsPerClient;
      int n = labels.length;
      if (numShards > n) {
        throw new IllegalArgumentException(
            "shards: " + numClients + " clients x " + shardsPerClient + " shards needs at least "
                + numShards + " examples, have " + n);
      }
      int[] sorted = new int[n];
      int at = 0;
      for (int[] members : byClass(labels, numClasses)) {
        System.arraycopy(members, 0, sorted, at, members.length);
        at += members.length;
      }
      int[] shardOrder = Permutations.permutation((int) numShards, new SplittableRandom(seed));
      List<int[]> clients = new ArrayList<>(numClients);
      for (int k = 0; k < numClients; k++) {
        int[] ids = Arrays.copyOfRange(shardOrder, k * shardsPerClient, (k + 1) * shardsPerClient);
        int len = 0;
        for (int s : ids) {
          len += shardEnd(s, n, numShards) - shardEnd(s - 1, n, numShards);
        }
        int[] part = new int[len];
        int w = 0;
        for (int s : ids) {
          int from = shardEnd(s - 1, n, numShards);
          int to = shardEnd(s, n, numShards);
          System.arraycopy(sorted, from, part, w, to - from);
          w += to - from;
        }
        Arrays.sort(part);
        clients.add(part);
      }
      return new Partition(clients);
    }

    /** The exclusive end of shard {@code s} (shard -1 ends at 0). */
    private static int shardEnd(long s, int n, long numShards) {
      return (int) ((s + 1) * n / numShards);
    }

    @Override
    public String toString() {
      return "shards:" + shardsPerClient;
    }
  }

  private static void checkInputs(int[] labels, int numClasses, int numClients) {
    if (numClients < 1) {
      throw new IllegalArgumentException("need at least one client, got " + numClients);
    }
    if (numClasses < 1) {
      throw new IllegalArgumentException("need at least one class, got " + numClasses);
    }
    for (int i = 0; i < labels.length; i++) {
      if (labels[i] < 0 || labels[i] >= numClasses) {
        throw new IllegalArgumentException(
            "label " + labels[i] + " of example " + i + " is outside [0, " + numClasses + ")");
      }
    }
  }

  /** For each class, the ascending indices of its examples. */
  private static int[][] byClass(int[] labels, int numClasses) {
    int[] counts = new int[numClasses];
    for (int y : labels) {
      counts[y]++;
    }
    int[][] out = new int[numClasses][];
    for (int c = 0; c < numClasses; c++) {
      out[c] = new int[counts[c]];
    }
    int[] fill = new int[numClasses];
    for (int i = 0; i < labels.length; i++) {
      out[labels[i]][fill[labels[i]]++] = i;
    }
    return out;
  }
}
