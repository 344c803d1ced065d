package io.tributary.data;

import java.util.List;
import java.util.Objects;

/**
 * Per-client data for federated training: client k trains on {@code train().get(k)} and, where the
 * source provides per-client test data (as the FedProx Synthetic sets do), evaluates on
 * {@code test().get(k)}.
 *
 * @param test either empty (no per-client test data) or one dataset per client
 */
public record FederatedDataset(String name, List<Dataset> train, List<Dataset> test) {

  /** Copies the lists; train and test, when present, must agree on clients and classes. */
  public FederatedDataset {
    Objects.requireNonNull(name, "name");
    train = List.copyOf(train);
    test = List.copyOf(test);
    if (train.isEmpty()) {
      throw new IllegalArgumentException(name + ": a federated dataset needs at least one client");
    }
    if (!test.isEmpty() && test.size() != train.size()) {
      throw new IllegalArgumentException(
          name + ": " + train.size() + " training clients but " + test.size() + " test clients");
    }
    int classes = train.get(0).numClasses();
    for (List<Dataset> part : List.of(train, test)) {
      for (Dataset d : part) {
        if (d.numClasses() != classes) {
          throw new IllegalArgumentException(
              name + ": " + d + " has " + d.numClasses() + " classes, expected " + classes);
        }
      }
    }
  }

  /** Splits {@code data} among clients by {@code partition}; there is no per-client test data. */
  public static FederatedDataset partitioned(String name, Dataset data, Partition partition) {
    return new FederatedDataset(name, partition.apply(data), List.of());
  }

  /** The number of clients. */
  public int numClients() {
    return train.size();
  }

  /** The number of classes shared by every client dataset. */
  public int numClasses() {
    return train.get(0).numClasses();
  }

  /** True when each client has its own test dataset. */
  public boolean hasTest() {
    return !test.isEmpty();
  }

  /** The number of training examples of each client. */
  public int[] trainSizes() {
    return train.stream().mapToInt(Dataset::size).toArray();
  }

  /** Every client's training data joined in client order, for centralised baselines. */
  public Dataset pooledTrain() {
    return Dataset.concat(name + "/train", train);
  }

  /**
   * Every client's test data joined in client order.
   *
   * @throws IllegalStateException when there is no per-client test data
   */
  public Dataset pooledTest() {
    if (test.isEmpty()) {
      throw new IllegalStateException(name + " has no per-client test data");
    }
    return Dataset.concat(name + "/test", test);
  }
}
