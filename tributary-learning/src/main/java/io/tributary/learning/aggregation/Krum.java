package io.tributary.learning.aggregation;

import io.tributary.tensor.Tensor;
import java.util.List;

/**
 * Krum and Multi-Krum (Blanchard et al. 2017, as Flower's Krum strategy computes them): each
 * update's score is its summed squared distance to its {@code n - f - 2} nearest others; Krum
 * takes the best update, Multi-Krum the example-weighted mean of the best {@code m}. Needs
 * {@code n > 2f + 2}. Needs the whole round: holds every update at once, n x the model (100
 * clients x 1M float32: 400 MB), and an n x n matrix of double distances (80 KB at n = 100).
 *
 * @param f the number of Byzantine clients tolerated (Flower's {@code num_malicious_clients})
 * @param m how many updates Multi-Krum averages (Flower's {@code num_clients_to_keep}); 0 is
 *     Krum
 */
public record Krum(int f, int m) implements WholeRoundAggregator {
  /** @throws IllegalArgumentException when f or m is negative */
  public Krum {
    if (f < 0 || m < 0) {
      throw new IllegalArgumentException("Krum: num_malicious_clients and num_clients_to_keep "
          + "must be >= 0, got " + f + " and " + m);
    }
  }

  @Override
  public String name() {
    return m == 0 ? "krum" : "multikrum";
  }

  @Override
  public List<Tensor> aggregate(ClientUpdates updates) {
    return m == 0 ? AggregationRules.krum(updates, f) : AggregationRules.multiKrum(updates, f, m);
  }
}
