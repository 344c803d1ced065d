/**
 * Federated learning: algorithms and their registry, aggregators, server optimizers, rounds.
 */
module io.tributary.learning {
  requires transitive io.tributary.tensor;
  requires transitive io.tributary.core;
  requires transitive io.tributary.runtime;
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
