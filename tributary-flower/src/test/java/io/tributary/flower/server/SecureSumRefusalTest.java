package io.tributary.flower.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.flower.internal.proto.ServerMessage;
import io.tributary.learning.FederatedAlgorithm;
import io.tributary.privacy.aggregation.DpAggregator;
import io.tributary.privacy.aggregation.DpMode;
import io.tributary.privacy.aggregation.DpNoise;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A server refuses a round computation with a secure sum before any client trains, since its
 * runtime would compute every client's input to the sum itself.
 */
class SecureSumRefusalTest {
  private static DpAggregator clientDp() {
    return new DpAggregator(DpMode.CLIENT, 0, 1.0, 2, Optional.empty(), 0,
        DpNoise.seededForExperimentsOnlyNotPrivate(1));
  }

  /** The model is asked of a client, so the refusal comes once it is had. */
  @Test
  void run_dpAggregatorWithSecureSum_refusedBeforeAnyClientFits() throws Exception {
    FederatedAlgorithm algorithm = FederatedAlgorithm.fedAvg()
        .withAggregator(clientDp().withSecureSum(16));
    try (Harness h = new Harness(Harness.config().rounds(1).minClients(2).algorithm(algorithm)
        .initial(InitialParameters.fromClient()).build())) {
      List<FakeClient> clients = List.of(h.client(Behaviours.honest(1, 1)),
          h.client(Behaviours.honest(1, 1)));
      h.awaitClients(2);

      assertThatThrownBy(h.server::run).isInstanceOfSatisfying(
          SecureSumRefusedException.class, e -> {
            assertThat(e.intrinsics()).containsExactly("federated_secure_sum_bitwidth");
            assertThat(e.getMessage()).contains("sums securely (federated_secure_sum_bitwidth)")
                .contains("hold every client's input in the clear");
            // Precise: which piece this server lacks (no secure-pass protocol on this
            // module's class path), and which nodes cannot run passes: these Join clients
            // answer the capability query as a Python Flower client without get_properties.
            assertThat(e.missingPieces()).containsExactly(SecureSumPiece.FLEET_PROTOCOL);
            assertThat(e.getMessage()).contains("it lacks a server pass engine")
                .doesNotContain("Join transport")
                .contains("2 of 2 connected nodes cannot run client passes");
            assertThat(e.nodesAsked()).isEqualTo(2);
            assertThat(e.incapableNodes()).hasSize(2);
            assertThat(e.incapableNodes().values())
                .allMatch(why -> why.equals("answered GET_PROPERTIES_NOT_IMPLEMENTED"));
            for (String id : e.incapableNodes().keySet()) {
              assertThat(e.getMessage()).contains(id + ": answered "
                  + "GET_PROPERTIES_NOT_IMPLEMENTED");
            }
          });
      assertThat(clients).anyMatch(c -> c.received.stream()
          .anyMatch(ServerMessage::hasGetParametersIns));
      for (FakeClient c : clients) {
        assertThat(c.received).noneMatch(ServerMessage::hasFitIns);
      }
    }
  }

  @Test
  void run_secureSumWithAGivenModel_refusedBeforeWaitingForClients() throws Exception {
    FederatedAlgorithm algorithm = FederatedAlgorithm.fedAvg()
        .withAggregator(clientDp().withSecureSum(16));
    try (Harness h = new Harness(Harness.config().rounds(1).minClients(2).algorithm(algorithm)
        .clientWait(java.time.Duration.ofMinutes(5)).build())) {
      long start = System.nanoTime();

      assertThatThrownBy(h.server::run).isInstanceOfSatisfying(SecureSumRefusedException.class,
          e -> {
            assertThat(e.nodesAsked()).isZero();
            assertThat(e.getMessage()).contains("No node was connected to ask");
          });

      // No client ever connects: the refusal did not wait the five minutes for two.
      assertThat(java.time.Duration.ofNanos(System.nanoTime() - start))
          .isLessThan(java.time.Duration.ofMinutes(1));
    }
  }

  @Test
  void run_sameDpAggregatorWithoutSecureSum_runsItsRound() throws Exception {
    FederatedAlgorithm algorithm = FederatedAlgorithm.fedAvg().withAggregator(clientDp());
    try (Harness h = new Harness(Harness.config().rounds(1).minClients(2).algorithm(algorithm)
        .build())) {
      List<FakeClient> clients = List.of(h.client(Behaviours.honest(1, 1)),
          h.client(Behaviours.honest(1, 1)));
      h.awaitClients(2);

      RunResult r = h.server.run();

      assertThat(r.rounds()).hasSize(1);
      for (FakeClient c : clients) {
        assertThat(c.received).anyMatch(ServerMessage::hasFitIns);
      }
    }
  }
}
