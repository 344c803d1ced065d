/**
 * Federated learning: algorithms and their registry, aggregators, server optimizers, rounds.
 */
// javac warns (-Xlint:exports) that the graph-backed builders (FedAvg, FedProx,
// LearningProcess, SequenceValues) name graph and data types in their signatures though both
// are optional here: a caller of those builders requires graph and data itself (issue 32 moves
// them beside graph).
module io.tributary.learning {
  requires transitive io.tributary.tensor;
  requires transitive io.tributary.core;
  requires transitive io.tributary.runtime;
  // Static: the graph-backed builders need graph and data; privacy, flower and ui use the
  // graph-free part (Aggregator, rounds) and leave both out (their poms exclude them).
  requires static io.tributary.graph;
  requires static io.tributary.data;
  requires transitive io.tributary.format;

  exports io.tributary.learning;
  exports io.tributary.learning.aggregation;
  exports io.tributary.learning.json;
  exports io.tributary.learning.rounds;
  exports io.tributary.learning.rounds.output;
  exports io.tributary.learning.rounds.report;
  exports io.tributary.learning.serveropt;
  exports io.tributary.learning.suite;

  uses io.tributary.learning.AlgorithmSpec;

  provides io.tributary.learning.AlgorithmSpec with
      io.tributary.learning.suite.FedAvgSpec,
      io.tributary.learning.suite.FedAvgMSpec,
      io.tributary.learning.suite.FedProxSpec,
      io.tributary.learning.suite.FedAdamSpec,
      io.tributary.learning.suite.FedYogiSpec,
      io.tributary.learning.suite.FedAdagradSpec,
      io.tributary.learning.suite.FedMedianSpec,
      io.tributary.learning.suite.FedTrimmedAvgSpec,
      io.tributary.learning.suite.KrumSpec,
      io.tributary.learning.suite.MultiKrumSpec,
      io.tributary.learning.suite.BulyanSpec,
      io.tributary.learning.suite.QFedAvgSpec,
      io.tributary.learning.suite.HierFavgSpec;
}
