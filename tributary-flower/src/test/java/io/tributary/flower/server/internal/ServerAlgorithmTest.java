package io.tributary.flower.server.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.flower.Scalar;
import io.tributary.learning.FederatedAlgorithm;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The FitIns config: {@code proximal_mu} for algorithms whose spec takes it, even at 0. */
class ServerAlgorithmTest {
  private static ServerAlgorithm fedProx(double mu) {
    return new ServerAlgorithm(FederatedAlgorithm.named("fedprox", Map.of("proximal_mu", mu)));
  }

  @Test
  void fitConfig_fedProxAtZero_sendsProximalMuAsFlowersFedProxDoes() {
    assertThat(fedProx(0).fitConfig()).containsEntry("proximal_mu",
        Scalar.of(0.0));
    assertThat(fedProx(0.25).fitConfig()).containsEntry("proximal_mu",
        Scalar.of(0.25));
  }

  @Test
  void fitConfig_algorithmWithoutProximalTerm_sendsNone() {
    assertThat(new ServerAlgorithm(FederatedAlgorithm.fedAvg()).fitConfig()).doesNotContainKey("proximal_mu");
    assertThat(new ServerAlgorithm(FederatedAlgorithm.named("fedadam")).fitConfig())
        .doesNotContainKey("proximal_mu");
    // Built in code under a name no spec registers: only a mu above 0 is sent.
    assertThat(new ServerAlgorithm(FederatedAlgorithm.fedAvg().withName("mine")).fitConfig())
        .doesNotContainKey("proximal_mu");
  }

  @Test
  void fitConfig_fedProxAtZeroComposedFurther_stillSendsProximalMu() {
    // A DP wrapper or a renamed copy keeps FedProx's contract; the name is not looked up.
    FederatedAlgorithm composed = FederatedAlgorithm.named("fedprox", Map.of("proximal_mu", 0.0))
        .withAggregator(new io.tributary.learning.aggregation.WeightedMean())
        .withName("my-fedprox");
    assertThat(composed.registration()).isEmpty();
    assertThat(new ServerAlgorithm(composed).fitConfig()).containsEntry("proximal_mu",
        Scalar.of(0.0));
  }
}
