package io.tributary.learning;

import io.tributary.runtime.Edges;

/**
 * Where a federated algorithm aggregates: straight from the clients at the server ({@link Flat}),
 * or through a middle tier of edges ({@link Hierarchical}, Liu et al.'s client-edge-cloud
 * hierarchy), whose rounds run on the {@code EDGES} placement.
 */
public sealed interface Topology {
  /** Clients report to the server: every algorithm of Flower's suite. */
  Topology FLAT = new Flat();

  /** The clients report to the server directly. */
  record Flat() implements Topology {}

  /**
   * The clients report to {@code edges} edges, and each edge aggregates its clients {@code
   * edgeRounds} times (Liu et al.'s k2) before the server aggregates the edges once.
   *
   * <p>Clients are assigned to edges in contiguous blocks: of a population of N clients, edge e
   * holds the clients {@link Edges#even Edges.even(N, edges)} gives it (sizes differing by at
   * most one, the larger first), and a round's K clients are drawn per edge, {@code
   * Edges.even(K, edges)} from each edge's own clients ({@link #sample}), so that every edge
   * takes part in every round and a client always reports to the same edge.
   *
   * @param edges the number of edges, 1 to {@link Edges#MAX_EDGES}
   * @param edgeRounds edge aggregations per cloud aggregation, 1 to {@link
   *     HierarchicalFedAvg#MAX_EDGE_ROUNDS}
   */
  record Hierarchical(int edges, int edgeRounds) implements Topology {
    /**
     * Checks the counts.
     *
     * @throws IllegalArgumentException naming {@code edges} or {@code edge_rounds}
     */
    public Hierarchical {
      if (edges < 1 || edges > Edges.MAX_EDGES) {
        throw new IllegalArgumentException("edges must be 1 to " + Edges.MAX_EDGES + ", got "
            + edges);
      }
      if (edgeRounds < 1 || edgeRounds > HierarchicalFedAvg.MAX_EDGE_ROUNDS) {
        throw new IllegalArgumentException("edge_rounds must be 1 to "
            + HierarchicalFedAvg.MAX_EDGE_ROUNDS + ", got " + edgeRounds);
      }
    }

    /**
     * The edges of a round's {@code clientsPerRound} clients, listed edge by edge as {@link
     * #sample} lists them.
     *
     * @throws IllegalArgumentException when there are fewer clients per round than edges
     */
    public Edges cohortEdges(int clientsPerRound) {
      if (clientsPerRound < edges) {
        throw new IllegalArgumentException("edges (" + edges + ") must be at most the clients "
            + "per round (" + clientsPerRound + "): every edge needs a client each round");
      }
      return Edges.even(clientsPerRound, edges);
    }

    /**
     * The largest share of its own clients any edge draws in a round, {@code max_e K_e / N_e}:
     * the sampling rate of a privacy accounting, since each client reports to one edge only.
     *
     * @throws IllegalArgumentException when there are fewer clients per round than edges or
     *     more than the population
     */
    public double samplingRate(int population, int clientsPerRound) {
      if (clientsPerRound > population) {
        throw new IllegalArgumentException("cannot sample " + clientsPerRound + " clients from "
            + "a population of " + population);
      }
      Edges drawn = cohortEdges(clientsPerRound);
      Edges all = Edges.even(population, edges);
      double q = 0;
      for (int e = 0; e < edges; e++) {
        q = Math.max(q, (double) drawn.size(e) / all.size(e));
      }
      return q;
    }

    /**
     * The edge of client {@code client} of a population of {@code population}.
     *
     * @throws IllegalArgumentException when the client is not in the population
     */
    public int edgeOf(int client, int population) {
      if (client < 0 || client >= population) {
        throw new IllegalArgumentException("client " + client + " is not in a population of "
            + population);
      }
      return Edges.even(population, edges).edgeOf(client);
    }

    /**
     * Round {@code round}'s {@code count} clients of a population of {@code population}: edge
     * by edge, each edge's share drawn by {@code sampler} from its own contiguous block, sorted
     * within the edge. With {@code count == population} every client takes part, in order.
     *
     * @throws IllegalArgumentException when {@code count} is below the number of edges or above
     *     the population
     */
    public int[] sample(ClientSampler sampler, long round, int population, int count) {
      if (count > population) {
        throw new IllegalArgumentException("cannot sample " + count + " clients from a "
            + "population of " + population);
      }
      Edges perRound = cohortEdges(count);
      Edges population_ = Edges.even(population, edges);
      int[] out = new int[count];
      int at = 0;
      int first = 0;
      for (int e = 0; e < edges; e++) {
        // Each edge draws from its own stream: the edge's index is mixed into the seed.
        ClientSampler own = new ClientSampler(sampler.seed() * 31 + e);
        int[] chosen = own.sample(round, population_.size(e), perRound.size(e));
        for (int c : chosen) {
          out[at++] = first + c;
        }
        first += population_.size(e);
      }
      return out;
    }
  }
}
