package io.tributary.learning.suite;

import io.tributary.learning.AlgorithmSpec;
import io.tributary.learning.FederatedAlgorithm;
import io.tributary.learning.HierarchicalFedAvg;
import io.tributary.learning.Hyperparameter;
import io.tributary.learning.Topology;
import io.tributary.runtime.Edges;
import java.util.List;
import java.util.Map;

/**
 * Hierarchical FedAvg, HierFAVG (Liu et al. 2020, "Client-Edge-Cloud Hierarchical Federated
 * Learning"): the clients report to {@code edges} edges in contiguous blocks ({@link
 * Topology.Hierarchical}); each edge averages its clients' updates {@code edge_rounds} times
 * (k2) per cloud round, and the server averages the edges' models weighted by their examples.
 * The clients' local epochs are k1. With {@code edge_rounds} 1 a cloud round is FedAvg's.
 */
public final class HierFavgSpec implements AlgorithmSpec {
  @Override
  public String name() {
    return "hierfavg";
  }

  @Override
  public String description() {
    return "hierarchical FedAvg through edges, k2 edge rounds per cloud round (Liu et al. 2020)";
  }

  @Override
  public List<Hyperparameter> hyperparameters() {
    return List.of(
        Hyperparameter.whole("edges", 2, "[1, " + Edges.MAX_EDGES + "]",
            "the edges the clients report to, in contiguous blocks of clients"),
        Hyperparameter.whole("edge_rounds", 2, "[1, " + HierarchicalFedAvg.MAX_EDGE_ROUNDS + "]",
            "k2: edge aggregations per cloud aggregation"));
  }

  @Override
  public FederatedAlgorithm build(Map<String, Double> h) {
    return FederatedAlgorithm.fedAvg().withName(name()).withTopology(new Topology.Hierarchical(
        h.get("edges").intValue(), h.get("edge_rounds").intValue()));
  }
}
