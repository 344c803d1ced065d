package io.tributary.flower.passes;

import io.tributary.learning.FederatedAlgorithm;
import io.tributary.privacy.aggregation.DpAggregator;
import io.tributary.privacy.aggregation.DpNoise;
import java.util.List;

/** A jar's algorithms composed in code: DP-FedAvg with secure sums (ClassPathPassesTest). */
public final class DpAlgorithmsProvider implements ComposedAlgorithms {
  /** The algorithm it provides. */
  static FederatedAlgorithm dpFedAvg() {
    return FederatedAlgorithm.fedAvg().withAggregator(DpAggregator.fixed(0.5, 1.0, 4,
        DpNoise.seededForExperimentsOnlyNotPrivate(5)).clientSide().withSecureSum(12));
  }

  @Override
  public List<FederatedAlgorithm> algorithms() {
    return List.of(dpFedAvg());
  }
}
