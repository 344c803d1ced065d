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
 * <p>A partial holds one partial of the inner sink per edge, created when the edge's first client
 * arrives; combining two partials combines them edge by edge with the inner sink's rule, and an
 * edge absent on one side is taken from the other unchanged. So each edge's result is its
 * clients' values folded in client order, combined by the pass's fixed reduction tree with no
 * operation for the groups that hold none of its clients: an edge that is a complete subtree of
 * that tree gets exactly the subtree's partial, bit for bit.
 *
 * <p>The first input is a client node whose value is the client's edge index (an
 * {@link Integer}); the inner sink's inputs follow.
 */
public final class PerEdgeSink implements Sink {
  private final String uri;
  private final Sink inner;
  private final int edges;
  private final List<ClientNode> inputs;

  private record Prepared(int edge, Object inner) {}

  /** The partial of a group of clients: the inner sink's partial per edge, null where none. */
  private static final class PerEdge {
    final Object[] partials;

    PerEdge(int edges) {
      partials = new Object[edges];
    }
  }

  /**
   * {@code inner}'s aggregation per edge, as {@code uri}.
   *
   * @param edgeOf the client node that gives each client's edge
   * @param edges the number of edges
   */
  public PerEdgeSink(String uri, Sink inner, ClientNode edgeOf, int edges) {
    this.uri = uri;
    this.inner = inner;
    this.edges = edges;
    List<ClientNode> in = new ArrayList<>();
    in.add(edgeOf);
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
  public boolean preparesFromPartial() {
    return inner.preparesFromPartial();
  }

  @Override
  public Object newPartial() {
    return new PerEdge(edges);
  }

  @Override
  public Object prepare(Object partial, Object[] values) {
    int edge = (Integer) values[0];
    PerEdge p = (PerEdge) partial;
    Object[] rest = new Object[values.length - 1];
    System.arraycopy(values, 1, rest, 0, rest.length);
    Object at = p.partials[edge];
    return new Prepared(edge, inner.prepare(at == null ? inner.newPartial() : at, rest));
  }

  @Override
  public void commit(Object partial, Object prepared) {
    PerEdge p = (PerEdge) partial;
    Prepared x = (Prepared) prepared;
    if (p.partials[x.edge()] == null) {
      p.partials[x.edge()] = inner.newPartial();
    }
    inner.commit(p.partials[x.edge()], x.inner());
  }

  @Override
  public Object combine(Object total, Object partial) {
    PerEdge t = total == null ? new PerEdge(edges) : (PerEdge) total;
    PerEdge p = (PerEdge) partial;
    for (int e = 0; e < edges; e++) {
      if (p.partials[e] == null) {
        continue;
      }
      t.partials[e] = t.partials[e] == null ? p.partials[e]
          : inner.combine(t.partials[e], p.partials[e]);
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
      try {
        out.add(inner.result(t.partials[e]));
      } catch (IllegalArgumentException ex) {
        throw new IllegalArgumentException("edge " + e + (t.partials[e] == null
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
      out.u8(p.partials[e] == null ? 0 : 1);
      if (p.partials[e] != null) {
        inner.writePartial(p.partials[e], out);
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
      if (present == 1) {
        p.partials[e] = inner.readPartial(in);
      }
    }
    return p;
  }
}
