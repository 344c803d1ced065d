package io.tributary.runtime.executor.internal.aggregation;

import io.tributary.runtime.executor.internal.federated.ClientNode;
import io.tributary.runtime.executor.internal.pass.PassCodec;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * An aggregation to the {@code EDGES} placement: another sink's aggregation computed separately
 * for each edge's clients, in the same client pass as the pass's other aggregations.
 *
 * <p>Each edge is reduced by its own fixed tree, with one leaf per client of the edge in the
 * edge's client order ({@link EdgeFold}): a client's values are folded into a fresh partial of
 * the inner sink, and the edge's leaves are combined by the {@link
 * io.tributary.runtime.ReductionTree} over the edge's clients alone. An edge's aggregate is
 * therefore a function of its own clients' values, order and failures only: not of the other
 * edges, the population's size, how the pass groups clients or how many threads or workers
 * computed it. That is what lets anything that sees one edge's clients (a relay, a partition)
 * compute the edge's aggregate with the simulation's bits, by running this sink over that edge.
 *
 * <p>A group's partial holds, per edge with clients in the group, the complete subtrees of the
 * edge's leaves it covers; neighbouring partials append edge by edge. The first two inputs are
 * client nodes whose values are the client's edge index and its position in the edge (each an
 * {@link Integer}); the inner sink's inputs follow.
 */
public final class PerEdgeSink implements Sink {
  /** The most leaves of one edge's tree a partial may claim to cover. */
  private static final long MAX_LEAVES = Integer.MAX_VALUE;

  private final String uri;
  private final Sink inner;
  private final int edges;
  private final int[] sizes;
  private final List<ClientNode> inputs;
  private final java.util.function.BinaryOperator<Object> combine;

  private record Prepared(int edge, int rank, Object leaf, Object inner) {}

  /** The partial of a group of clients: per edge, the run of its leaves, null where none. */
  private static final class PerEdge {
    final EdgeFold[] folds;

    PerEdge(int edges) {
      folds = new EdgeFold[edges];
    }
  }

  /**
   * {@code inner}'s aggregation per edge, as {@code uri}.
   *
   * @param edgeOf the client node that gives each client's edge
   * @param rankInEdge the client node that gives each client's position in its edge
   * @param edges the clients' edges
   */
  public PerEdgeSink(String uri, Sink inner, ClientNode edgeOf, ClientNode rankInEdge,
      io.tributary.runtime.Edges edges) {
    this.uri = uri;
    this.inner = inner;
    this.edges = edges.count();
    this.sizes = new int[this.edges];
    for (int e = 0; e < this.edges; e++) {
      sizes[e] = edges.size(e);
    }
    this.combine = EdgeFold.skippingEmpty(inner);
    List<ClientNode> in = new ArrayList<>();
    in.add(edgeOf);
    in.add(rankInEdge);
    in.addAll(inner.inputs());
    this.inputs = List.copyOf(in);
  }

  /** The aggregation each edge runs. */
  public Sink inner() {
    return inner;
  }

  @Override
  public String intrinsic() {
    return uri;
  }

  @Override
  public List<ClientNode> inputs() {
    return inputs;
  }

  @Override
  public Object newPartial() {
    return new PerEdge(edges);
  }

  @Override
  public Object prepare(Object partial, Object[] values) {
    int edge = (Integer) values[0];
    int rank = (Integer) values[1];
    Object[] rest = new Object[values.length - 2];
    System.arraycopy(values, 2, rest, 0, rest.length);
    // Each client is a leaf of its edge's tree: its values go into a partial of their own.
    Object leaf = inner.newPartial();
    return new Prepared(edge, rank, leaf, inner.prepare(leaf, rest));
  }

  /** As the inner sink: the values go only into its per-edge partials. */
  @Override
  public boolean keepsValues() {
    return inner.keepsValues();
  }

  @Override
  public void commit(Object partial, Object prepared) {
    PerEdge p = (PerEdge) partial;
    Prepared x = (Prepared) prepared;
    inner.commit(x.leaf(), x.inner());
    EdgeFold f = p.folds[x.edge()];
    if (f == null) {
      f = new EdgeFold(x.rank(), combine);
      p.folds[x.edge()] = f;
    }
    f.add(x.rank(), x.leaf());
  }

  @Override
  public Object combine(Object total, Object partial) {
    PerEdge t = total == null ? new PerEdge(edges) : (PerEdge) total;
    PerEdge p = (PerEdge) partial;
    for (int e = 0; e < edges; e++) {
      if (p.folds[e] == null) {
        continue;
      }
      if (t.folds[e] == null) {
        t.folds[e] = p.folds[e];
      } else {
        t.folds[e].append(p.folds[e]);
      }
    }
    return t;
  }

  /**
   * One value per edge, in edge order.
   *
   * @throws IllegalArgumentException naming the edge, when an edge's aggregation has no value
   *     (a mean or minimum over an edge without clients that contributed)
   */
  @Override
  public Object result(Object total) {
    PerEdge t = total == null ? new PerEdge(edges) : (PerEdge) total;
    List<Object> out = new ArrayList<>(edges);
    for (int e = 0; e < edges; e++) {
      Object root = null;
      if (t.folds[e] != null) {
        EdgeFold all = new EdgeFold(0, combine);
        all.append(t.folds[e]);
        root = all.root(sizes[e]);
      }
      try {
        out.add(inner.result(root));
      } catch (IllegalArgumentException ex) {
        throw new IllegalArgumentException("edge " + e + (root == null
            ? " has no clients that contributed: " : ": ") + ex.getMessage(), ex);
      }
    }
    return Collections.unmodifiableList(out);
  }

  @Override
  public void writePartial(Object partial, PassCodec.Out out) {
    PerEdge p = (PerEdge) partial;
    out.i32(edges);
    for (int e = 0; e < edges; e++) {
      EdgeFold f = p.folds[e];
      out.u8(f == null ? 0 : 1);
      if (f == null) {
        continue;
      }
      out.i64(f.start());
      List<io.tributary.runtime.ReductionTree.Node<Object>> nodes = f.subtrees();
      out.i32(nodes.size());
      for (io.tributary.runtime.ReductionTree.Node<Object> n : nodes) {
        out.u8(n.level());
        out.u8(n.value() == null ? 0 : 1);
        if (n.value() != null) {
          inner.writePartial(n.value(), out);
        }
      }
    }
  }

  @Override
  public Object readPartial(PassCodec.In in) {
    int n = in.count("edges", edges);
    if (n != edges) {
      throw in.bad(uri + " has " + edges + " edges, not " + n);
    }
    PerEdge p = new PerEdge(edges);
    for (int e = 0; e < edges; e++) {
      int present = in.u8("the edge flag");
      if (present > 1) {
        throw in.bad("the edge flag is " + present);
      }
      if (present == 0) {
        continue;
      }
      long start = in.i64("the edge's first leaf");
      if (start < 0 || start >= sizes[e]) {
        throw in.bad("edge " + e + " has " + sizes[e] + " clients, not a leaf " + start);
      }
      EdgeFold f = new EdgeFold(start, combine);
      int count = in.count("subtrees", 64);
      for (int k = 0; k < count; k++) {
        int level = in.u8("a subtree's level");
        if (level > 31 || f.next() + (1L << level) > Math.min(sizes[e], MAX_LEAVES)
            || f.next() % (1L << level) != 0) {
          throw in.bad("edge " + e + "'s subtree of level " + level + " at leaf " + f.next()
              + " is not in its tree of " + sizes[e] + " leaves");
        }
        int has = in.u8("the subtree flag");
        if (has > 1) {
          throw in.bad("the subtree flag is " + has);
        }
        Object value = has == 1 ? inner.readPartial(in) : null;
        f.addSubtree(new io.tributary.runtime.ReductionTree.Node<>(level, f.next() >> level,
            value));
      }
      p.folds[e] = f;
    }
    return p;
  }
}
