package io.tributary.learning.aggregation;

import io.tributary.tensor.Tensor;
import java.util.List;

/**
 * The coordinate-wise trimmed mean (Flower's FedTrimmedAvg): each coordinate's mean after
 * cutting {@code floor(beta n)} values from each end. Needs the whole round, so it holds every
 * update at once: n x the model (100 clients x 1M float32: 400 MB).
 *
 * @param beta the fraction cut from each end, in [0, 0.5) (Flower's {@code beta}, default 0.2)
 */
public record TrimmedMean(double beta) implements WholeRoundAggregator {
  /** @throws IllegalArgumentException when beta is not in [0, 0.5) */
  public TrimmedMean {
    if (!(beta >= 0 && beta < 0.5)) {
      throw new IllegalArgumentException("trimmed mean: beta must be in [0, 0.5), got " + beta);
    }
  }

  @Override
  public String name() {
    return "trimmed_mean";
  }

  @Override
  public List<Tensor> aggregate(ClientUpdates updates) {
    return AggregationRules.trimmedMean(updates, beta);
  }
}
