package io.tributary.flower.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.flower.Scalar;
import io.tributary.learning.Algorithms;
import io.tributary.learning.FederatedAlgorithm;
import org.junit.jupiter.api.Test;

/** The FitIns config: {@code proximal_mu} for algorithms whose spec takes it, even at 0. */
class ServerAlgorithmTest {
  @Test
  void fitConfig_fedProxAtZero_sendsProximalMuAsFlowersFedProxDoes() {
    assertThat(ServerAlgorithm.fedProx(0).fitConfig()).containsEntry("proximal_mu",
        Scalar.of(0.0));
    assertThat(ServerAlgorithm.fedProx(0.25).fitConfig()).containsEntry("proximal_mu",
        Scalar.of(0.25));
  }

  @Test
  void fitConfig_algorithmWithoutProximalTerm_sendsNone() {
    assertThat(ServerAlgorithm.fedAvg().fitConfig()).doesNotContainKey("proximal_mu");
    assertThat(new ServerAlgorithm(Algorithms.named("fedadam")).fitConfig())
        .doesNotContainKey("proximal_mu");
    // Built in code under a name no spec registers: only a mu above 0 is sent.
    assertThat(new ServerAlgorithm(FederatedAlgorithm.fedAvg().withName("mine")).fitConfig())
        .doesNotContainKey("proximal_mu");
  }
}
