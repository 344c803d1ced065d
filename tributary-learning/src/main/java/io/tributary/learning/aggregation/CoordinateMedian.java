package io.tributary.learning.aggregation;

import io.tributary.tensor.Tensor;
import java.util.List;

/**
 * The coordinate-wise median of the updates (Flower's FedMedian), unweighted; robust to a
 * minority of arbitrary updates. Needs the whole round, so it holds every update at once: n x
 * the model (100 clients x 1M float32: 400 MB).
 */
public record CoordinateMedian() implements WholeRoundAggregator {
  @Override
  public String name() {
    return "median";
  }

  @Override
  public List<Tensor> aggregate(ClientUpdates updates) {
    return AggregationRules.median(updates);
  }
}
