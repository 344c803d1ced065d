package io.tributary.guide;

import io.tributary.learning.FederatedAlgorithm;
import io.tributary.learning.rounds.RoundRecord;
import io.tributary.privacy.aggregation.DpMode;
import io.tributary.privacy.aggregation.DpSettings;
import io.tributary.simulation.History;
import io.tributary.simulation.SettingsSchema;
import io.tributary.simulation.Simulation;
import io.tributary.simulation.SimulationSettings;
import java.util.Locale;
import java.util.Map;

/**
 * Hierarchical FedAvg through 4 edges against flat FedAvg on non-IID digits, then the same with
 * differential privacy whose noise the edges add.
 */
public final class HierarchicalRounds {
  private HierarchicalRounds() {}

  public static void main(String[] args) throws Exception {
    // 20 clients, all in every round: clients 0-4 report to edge 0, 5-9 to edge 1, and so on.
    FederatedAlgorithm hierfavg = FederatedAlgorithm.named("hierfavg",
        Map.of("edges", 4.0, "edge_rounds", 2.0));
    History flat = run(settings(FederatedAlgorithm.fedAvg()).build());
    History edges = run(settings(hierfavg).build());
    for (int r = 0; r < edges.rounds().size(); r++) {
      System.out.printf(Locale.ROOT, "cloud round %d: fedavg %.3f, hierfavg k2=2 %.3f%n", r + 1,
          flat.rounds().get(r).testAccuracy(), edges.rounds().get(r).testAccuracy());
    }
    System.out.println("bytes reaching the server per round: fedavg "
        + flat.last().bytesUp() + ", hierfavg " + edges.last().bytesUp());

    // The same with DP: each edge noises its own sum, so the server sees only noised sums.
    SimulationSettings.Builder b = settings(hierfavg).dp(DpSettings.builder(DpMode.CLIENT)
        .noiseMultiplier(0.5).clip(1).insecureSeededNoise(true).build());  // seeded: a demo
    b.set(SettingsSchema.DP_AT, "edges");
    SimulationSettings privateSettings = b.build();
    History noisy = run(privateSettings);
    System.out.printf(Locale.ROOT, "private hierfavg: test accuracy %.3f, epsilon %.2f "
        + "(noise multiplier %.3f per cloud round)%n", noisy.last().testAccuracy(),
        noisy.last().algorithmMetric(RoundRecord.EPSILON),
        privateSettings.tieredDp(0).orElseThrow().accountedNoiseMultiplier());
  }

  private static SimulationSettings.Builder settings(FederatedAlgorithm algorithm) {
    return SimulationSettings.builder().algorithm(algorithm).partition("dirichlet:0.1")
        .clients(20).clientsPerRound(20).rounds(4).seed(3);
  }

  private static History run(SimulationSettings settings) throws Exception {
    return Simulation.builder(settings).build().run().history();
  }
}
