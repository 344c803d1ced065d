package io.tributary.data;

import java.util.Objects;

/** A dataset divided into disjoint training and test parts. */
public record TrainTestSplit(Dataset train, Dataset test) {

  /** Requires both parts. */
  public TrainTestSplit {
    Objects.requireNonNull(train, "train");
    Objects.requireNonNull(test, "test");
  }
}
