package io.tributary.learning.aggregation;

import io.tributary.tensor.Tensor;
import java.util.List;

/**
 * The coordinate-wise median of the updates (Flower's FedMedian), unweighted; robust to a
 * minority of arbitrary updates. Holds every update of the round (n x the model).
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
