package io.tributary.cli;

import io.tributary.flower.passes.ComposedAlgorithms;
import io.tributary.learning.FederatedAlgorithm;
import io.tributary.privacy.aggregation.DpAggregator;
import io.tributary.privacy.aggregation.DpNoise;
import java.util.List;

/**
 * DP-FedAvg whose clipped updates are summed securely, composed in code: what a user's jar
 * registers for {@code supernode --classpath} so that the node runs a server's secure passes of
 * it.
 */
public final class DpSecureSumAlgorithms implements ComposedAlgorithms {
  /** Clients that clip to norm 1, four a round, 12-bit secure sums, seeded noise. */
  static FederatedAlgorithm algorithm() {
    DpAggregator dp = DpAggregator.fixed(0.5, 1.0, 4,
        DpNoise.seededForExperimentsOnlyNotPrivate(5)).clientSide().withSecureSum(12);
    return FederatedAlgorithm.fedAvg().withAggregator(dp);
  }

  @Override
  public List<FederatedAlgorithm> algorithms() {
    return List.of(algorithm());
  }
}
