package io.tributary.runtime;

import java.util.Arrays;

/**
 * Which edge each client of a population belongs to: the membership that the {@code EDGES}
 * placement's intrinsics group clients by.
 *
 * <p>Every client belongs to exactly one edge, and edges are numbered {@code 0} to
 * {@code count() - 1}; an edge may have no clients, but an aggregation that needs one there (a
 * mean, a minimum) then fails naming the edge. Build with {@link #of}, {@link #contiguous} or
 * {@link #even}; set with {@link RuntimeOptions#withEdges}.
 *
 * <p>Each edge's aggregate is reduced by the edge's own fixed tree, one leaf per client of the
 * edge ({@link #rankInEdge}), so it depends on that edge's clients only: a relay or a partition
 * holding one edge's clients computes it with the same bits. Edges of consecutive clients whose
 * boundaries fall on the client pass's fixed reduction tree ({@link #followsReductionTree}), in a
 * pass whose leaves are single clients (fewer than 512 clients), give per-edge sums that are
 * exactly the flat tree's subtrees, which makes a sum through the edges bit-identical to the flat
 * sum where no rounding happens at the edges (docs/runtime.md).
 */
public final class Edges {
  /** The most edges a population may have: more is a configuration mistake. */
  public static final int MAX_EDGES = 1 << 20;

  private final int count;
  private final int[] edgeOf;
  private final int[] sizes;
  /** Each client's position among its edge's clients, in client order. */
  private final int[] rank;

  private Edges(int count, int[] edgeOf) {
    if (count < 1 || count > MAX_EDGES) {
      throw new IllegalArgumentException("a population needs 1 to " + MAX_EDGES
          + " edges, got " + count);
    }
    this.count = count;
    this.edgeOf = edgeOf;
    this.sizes = new int[count];
    this.rank = new int[edgeOf.length];
    for (int c = 0; c < edgeOf.length; c++) {
      int e = edgeOf[c];
      if (e < 0) {
        throw new IllegalArgumentException("client " + c + " has no edge (" + e + ")");
      }
      if (e >= count) {
        throw new IllegalArgumentException("client " + c + " has edge " + e + ", but there are "
            + count + " edges (0 to " + (count - 1) + ")");
      }
      rank[c] = sizes[e]++;
    }
  }

  /**
   * Client {@code c} belongs to edge {@code edgeOfClient[c]}.
   *
   * @throws IllegalArgumentException when a client's edge is negative or not below {@code count}
   */
  public static Edges of(int count, int... edgeOfClient) {
    return new Edges(count, edgeOfClient.clone());
  }

  /** Edge {@code e} holds the next {@code sizes[e]} clients, in client order. */
  public static Edges contiguous(int... sizes) {
    long total = 0;
    for (int e = 0; e < sizes.length; e++) {
      if (sizes[e] < 0) {
        throw new IllegalArgumentException("edge " + e + " cannot have " + sizes[e] + " clients");
      }
      total += sizes[e];
    }
    if (total > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException("the edges hold " + total + " clients, too many");
    }
    int[] of = new int[(int) total];
    int c = 0;
    for (int e = 0; e < sizes.length; e++) {
      Arrays.fill(of, c, c + sizes[e], e);
      c += sizes[e];
    }
    return new Edges(sizes.length, of);
  }

  /**
   * {@code clients} consecutive clients cut into {@code count} edges of sizes differing by at
   * most one, the larger ones first.
   */
  public static Edges even(int clients, int count) {
    if (clients < 0 || count < 1) {
      throw new IllegalArgumentException("cannot cut " + clients + " clients into " + count
          + " edges");
    }
    int[] sizes = new int[count];
    for (int e = 0; e < count; e++) {
      sizes[e] = clients / count + (e < clients % count ? 1 : 0);
    }
    return contiguous(sizes);
  }

  /** The number of edges. */
  public int count() {
    return count;
  }

  /** The number of clients this assignment covers. */
  public int clients() {
    return edgeOf.length;
  }

  /** The edge of client {@code client}. */
  public int edgeOf(int client) {
    return edgeOf[client];
  }

  /**
   * The position of client {@code client} among its edge's clients, from 0, in client order:
   * the leaf it is in its edge's own reduction tree.
   */
  public int rankInEdge(int client) {
    return rank[client];
  }

  /** The number of clients of edge {@code edge}. */
  public int size(int edge) {
    return sizes[edge];
  }

  /**
   * Whether the edges are consecutive runs of clients that are, each, one complete node of the
   * fixed reduction tree of a client pass over these clients, all on one level: then each edge's
   * partial is a subtree of that tree, and combining the edges' partials by a tree over the edges
   * repeats the flat pass's order of operations exactly. The tree's leaves are groups of
   * {@code max(1, clients / 256)} consecutive clients, a function of the client count only.
   */
  public boolean followsReductionTree() {
    return treeLevel().isPresent();
  }

  /**
   * The level of the client pass's fixed reduction tree whose nodes the edges are, when they
   * {@link #followsReductionTree follow it}: each edge then covers {@code 2^level} consecutive
   * groups of the pass (the last edge may cover fewer), starting at a multiple of {@code 2^level}.
   * A pass engine that never splits such a range between workers computes each edge's aggregate
   * wholly on one worker.
   */
  public java.util.OptionalInt treeLevel() {
    int clients = edgeOf.length;
    int groupSize = io.tributary.runtime.executor.internal.pass.ClientPass.groupSize(clients);
    long groups = clients == 0 ? 0 : (clients + (long) groupSize - 1) / groupSize;
    for (int level = 0; level < 63; level++) {
      long span = (long) groupSize << level;
      long nodes = groups == 0 ? 0 : ((groups - 1) >> level) + 1;
      if (nodes == count && contiguousWithSpan(span)) {
        return java.util.OptionalInt.of(level);
      }
      if (nodes < count) {
        return java.util.OptionalInt.empty();
      }
    }
    return java.util.OptionalInt.empty();
  }

  private boolean contiguousWithSpan(long span) {
    for (int c = 0; c < edgeOf.length; c++) {
      if (edgeOf[c] != c / span) {
        return false;
      }
    }
    return true;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Edges e && e.count == count && Arrays.equals(e.edgeOf, edgeOf);
  }

  @Override
  public int hashCode() {
    return 31 * count + Arrays.hashCode(edgeOf);
  }

  @Override
  public String toString() {
    return count + " edges over " + edgeOf.length + " clients";
  }
}
