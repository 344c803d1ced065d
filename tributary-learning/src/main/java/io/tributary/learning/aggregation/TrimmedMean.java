package io.tributary.learning.aggregation;

import io.tributary.tensor.Tensor;
import java.util.Arrays;
import java.util.List;

/**
 * The coordinate-wise trimmed mean (Flower's FedTrimmedAvg): each coordinate's mean after
 * cutting {@code floor(beta n)} values from each end (scipy's {@code trim_mean}, as Flower uses
 * it).
 *
 * <p>Memory: it needs the whole round, so it holds every update at once, n x the model (100
 * clients x 1M float32: 400 MB), plus a coordinate-major block of n x 1024 doubles (800 KB at
 * n = 100) and the result.
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

  /**
   * {@inheritDoc}
   *
   * @throws InsufficientUpdatesException when {@code floor(beta n)} from each end cuts every
   *     value
   */
  @Override
  public List<Tensor> aggregate(ClientUpdates updates) {
    int cut = (int) (beta * updates.size());
    if (cut >= updates.size() - cut) {
      throw new InsufficientUpdatesException("trimmed mean (beta " + beta + ")",
          "more than 2 floor(beta n)", updates.size());
    }
    return CoordinateBlocks.coordinatewise(updates, (v, at, n) -> {
      // A sort, not a selection: the middle values are summed in ascending order; a selection
      // would leave them unordered and round the sum differently.
      Arrays.sort(v, at, at + n);
      double s = 0;
      for (int i = at + cut; i < at + n - cut; i++) {
        s += v[i];
      }
      return s / (n - 2 * cut);
    });
  }
}
