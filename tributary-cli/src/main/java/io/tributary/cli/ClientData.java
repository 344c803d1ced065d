package io.tributary.cli;

import io.tributary.data.Dataset;
import io.tributary.data.Digits;
import io.tributary.data.FashionMnist;
import io.tributary.data.FederatedDataset;
import io.tributary.data.FederatedSource;
import io.tributary.data.Partition;
import io.tributary.data.Partitioner;
import io.tributary.data.Synthetic;
import io.tributary.data.TrainTestSplit;
import io.tributary.simulation.DatasetSpec;
import io.tributary.simulation.ModelKind;
import io.tributary.simulation.SimulationData;
import java.io.IOException;
import java.nio.file.Path;

/**
 * The data of one {@code tributary client}: partition {@code index} of {@code count} of a
 * dataset, its own training and test examples. Clients started with the same dataset, count and
 * seed hold disjoint partitions, like the clients of a simulation.
 *
 * @param name the dataset's name
 * @param train this client's training examples
 * @param test this client's test examples
 */
record ClientData(String name, Dataset train, Dataset test) {
  /**
   * Loads and splits the data; every random choice derives from {@code seed}.
   *
   * <p>Pooled data (digits, fashion-mnist): the training set is split into {@code count} parts
   * by {@code split}, with the same seed as {@code tributary simulate} uses, so part {@code
   * index} is simulate's client {@code index}; the test set is split IID, so each client scores
   * its own share of it, and this client keeps part {@code index} of each. Synthetic
   * data are generated with {@code count} devices, and this client is device {@code index} with
   * its own 90/10 split.
   *
   * @throws IOException when file-based data cannot be read
   * @throws IllegalArgumentException when the data cannot be split as asked
   */
  static ClientData load(DatasetSpec spec, Path dataDir, int index, int count,
      Partitioner split, ModelKind model, long seed) throws IOException {
    return switch (spec) {
      case DatasetSpec.Digits d -> pooled(Digits.load(SimulationData.TEST_FRACTION, seed), index,
          count, split, model, seed);
      case DatasetSpec.FashionMnist f -> pooled(dataDir == null ? FashionMnist.load()
          : FashionMnist.load(dataDir), index, count, split, model, seed);
      case DatasetSpec.Synthetic s -> device(Synthetic.fedProx(s.alpha(), s.beta(), seed,
          synthetic(count)), index, model);
      case DatasetSpec.SyntheticIid s -> device(Synthetic.iid(seed, synthetic(count)), index,
          model);
      case DatasetSpec.Generated g -> generated(SimulationData.generated(
          SimulationData.population(g, seed), count, model), index);
      case DatasetSpec.Table c -> user(SimulationData.source(c, seed), index, model);
      case DatasetSpec.NpzDir n -> user(SimulationData.source(n, seed), index, model);
      case DatasetSpec.Provided p -> throw new IllegalArgumentException("data given in code ("
          + p + ") have no command line");
    };
  }

  /** Client {@code index} of the user's data, scored on the pooled held-out examples. */
  private static ClientData user(FederatedSource source, int index, ModelKind model)
      throws IOException {
    try {
      if (index >= source.clients()) {
        throw new IllegalArgumentException(source.name() + " has " + source.clients()
            + " clients, so there is no client " + index);
      }
      return new ClientData(source.name(), SimulationData.forModel(source.checked(index), model),
          SimulationData.forModel(source.test(), model));
    } finally {
      if (source instanceof java.io.Closeable c) {
        c.close();
      }
    }
  }

  /** Client {@code index} of simulate's generated population, scored on its test set. */
  private static ClientData generated(SimulationData population, int index) {
    return new ClientData(population.name(), population.clientTrain().get(index),
        population.test());
  }

  private static Synthetic.Config synthetic(int count) {
    Synthetic.Config d = Synthetic.Config.DEFAULT;
    return new Synthetic.Config(count, d.dimension(), d.numClasses(), d.maxTotalSamples());
  }

  private static ClientData pooled(TrainTestSplit split, int index, int count,
      Partitioner partitioner, ModelKind model, long seed) {
    Partition trainParts = partitioner.partition(split.train(), count, seed);
    Partition testParts = new Partitioner.Iid().partition(split.test(), count, seed);
    Dataset train = split.train().subset(split.train().name() + "-" + index + "of" + count,
        trainParts.client(index));
    Dataset test = split.test().subset(split.test().name() + "-" + index + "of" + count,
        testParts.client(index));
    return new ClientData(split.train().name(), SimulationData.forModel(train, model),
        SimulationData.forModel(test, model));
  }

  private static ClientData device(FederatedDataset fed, int index, ModelKind model) {
    return new ClientData(fed.name(), SimulationData.forModel(fed.train().get(index), model),
        SimulationData.forModel(fed.test().get(index), model));
  }
}
