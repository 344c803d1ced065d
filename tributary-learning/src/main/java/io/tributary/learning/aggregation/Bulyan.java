package io.tributary.learning.aggregation;

import io.tributary.tensor.Tensor;
import java.util.List;

/**
 * Bulyan (El Mhamdi et al. 2018) with Krum selecting, as Flower's Bulyan strategy computes it.
 * Needs {@code n > 4f + 2} and the whole round: holds every update at once, n x the model (100
 * clients x 1M float32: 400 MB), and an n x n matrix of double distances (80 KB at n = 100),
 * computed once for all of Krum's picks.
 *
 * @param f the number of Byzantine clients tolerated (Flower's {@code num_malicious_clients})
 */
public record Bulyan(int f) implements WholeRoundAggregator {
  /** @throws IllegalArgumentException when f is negative */
  public Bulyan {
    if (f < 0) {
      throw new IllegalArgumentException("Bulyan: num_malicious_clients must be >= 0, got " + f);
    }
  }

  @Override
  public String name() {
    return "bulyan";
  }

  @Override
  public List<Tensor> aggregate(ClientUpdates updates) {
    return AggregationRules.bulyan(updates, f);
  }
}
