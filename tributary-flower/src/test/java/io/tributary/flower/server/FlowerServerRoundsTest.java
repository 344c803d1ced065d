package io.tributary.flower.server;

import io.tributary.learning.FederatedAlgorithm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.grpc.Status;
import io.tributary.flower.internal.ParametersWire;
import io.tributary.flower.internal.proto.ClientMessage;
import io.tributary.flower.internal.proto.ServerMessage;
import io.tributary.learning.MetricAggregation;
import io.tributary.learning.rounds.RoundJson;
import io.tributary.learning.rounds.RoundRecord;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Rounds against fake clients whose updates are known, so every aggregate is exact. */
class FlowerServerRoundsTest {
  @Test
  void run_threeHonestClients_aggregatesExactlyEveryRound() throws Exception {
    try (Harness h = new Harness(Harness.config().rounds(3).minClients(3).build())) {
      // Shifts 1, 2, 3 with 1, 1, 2 examples: each round adds (1 + 2 + 6) / 4 = 2.25.
      List<FakeClient> clients = List.of(h.client(Behaviours.honest(1, 1)),
          h.client(Behaviours.honest(2, 1)), h.client(Behaviours.honest(3, 2)));
      h.awaitClients(3);
      RunResult result = h.server.run();

      assertThat(result.finalParameters().keySet()).containsExactly("w", "b");
      assertThat(result.finalParameters().get("w"))
          .isEqualTo(Tensor.ofFloats(Shape.of(2), 6.75f, 6.75f));
      assertThat(result.finalParameters().get("b")).isEqualTo(Tensor.scalar(7.75f));
      assertThat(result.rounds()).hasSize(3).allSatisfy(m -> {
        assertThat(m.clients()).isEqualTo(3);
        assertThat(m.failures()).isZero();
        assertThat(m.clientLoss()).isEqualTo(2.25);
        assertThat(m.evalLoss()).isEqualTo(2.25);
        assertThat(m.bytesDown()).isPositive();
        assertThat(m.bytesUp()).isPositive();
      });
      assertThat(result.rounds()).extracting(RoundRecord::round).containsExactly(1, 2, 3);
      // The server speaks first, and round 2's FitIns carries round 1's aggregate.
      FakeClient first = clients.get(0);
      assertThat(first.received.get(0).getMsgCase()).isEqualTo(ServerMessage.MsgCase.FIT_INS);
      ServerMessage round2 = first.received.stream().filter(ServerMessage::hasFitIns)
          .skip(1).findFirst().orElseThrow();
      assertThat(Behaviours.decode(round2.getFitIns().getParameters()))
          .containsExactly(Tensor.ofFloats(Shape.of(2), 2.25f, 2.25f), Tensor.scalar(3.25f));
      // FedAvg's config holds only the round, which a client may shuffle by.
      assertThat(round2.getFitIns().getConfigMap()).containsOnlyKeys("server_round");
      assertThat(round2.getFitIns().getConfigMap().get("server_round").getSint64()).isEqualTo(2);
    }
  }

  /** Adds {@code shift} to every parameter and reports {@code examples}, but no loss metric. */
  private static java.util.function.Function<ServerMessage, Optional<ClientMessage>> noLoss(
      float shift, long examples) {
    return Behaviours.fitAnswer(m -> ClientMessage.newBuilder().setFitRes(
        ClientMessage.FitRes.newBuilder().setNumExamples(examples).setParameters(
            ParametersWire.toProto(Behaviours.npy(Behaviours.shifted(Behaviours.decode(
                m.getFitIns().getParameters()), shift))))).build());
  }

  @Test
  void run_someClientsReportNoLoss_clientLossIsTheMeanOverTheReporters() throws Exception {
    try (Harness h = new Harness(Harness.config().rounds(1).minClients(3).build())) {
      h.client(Behaviours.honest(2, 1));
      h.client(Behaviours.honest(4, 3));
      h.client(noLoss(10, 4));
      h.awaitClients(3);
      RunResult result = h.server.run();

      RoundRecord m = result.rounds().get(0);
      assertThat(m.failures()).isZero();
      assertThat(m.nonFiniteMetrics()).isZero();
      // Losses 2 and 4 weighted by 1 and 3 examples; the silent client is no loss of 0.
      assertThat(m.clientLoss()).isEqualTo(3.5);
      assertThat(m.examples()).isEqualTo(8);
      // Its update counts as any: (2 * 1 + 4 * 3 + 10 * 4) / 8.
      assertThat(result.finalParameters().get("w"))
          .isEqualTo(Tensor.ofFloats(Shape.of(2), 6.75f, 6.75f));
    }
  }

  /** Honest, and reports {@code accuracy} in its FitRes and EvaluateRes metrics. */
  private static java.util.function.Function<ServerMessage, Optional<ClientMessage>> reporting(
      float shift, long examples, double accuracy) {
    var honest = Behaviours.honest(shift, examples);
    io.tributary.flower.internal.proto.Scalar acc =
        io.tributary.flower.internal.proto.Scalar.newBuilder().setDouble(accuracy).build();
    return m -> honest.apply(m).map(c -> switch (c.getMsgCase()) {
      case FIT_RES -> c.toBuilder().setFitRes(c.getFitRes().toBuilder()
          .putMetrics("accuracy", acc).putMetrics("note",
              io.tributary.flower.internal.proto.Scalar.newBuilder().setString("x").build()))
          .build();
      case EVALUATE_RES -> c.toBuilder().setEvaluateRes(c.getEvaluateRes().toBuilder()
          .putMetrics("accuracy", acc)).build();
      default -> c;
    });
  }

  @Test
  void run_clientsReportMetrics_aggregatedWeightedByExamplesOrAsConfigured() throws Exception {
    try (Harness h = new Harness(Harness.config().rounds(1).minClients(3)
        .clientMetric("accuracy", MetricAggregation.MAX).build())) {
      h.client(reporting(1, 1, 0.5));
      h.client(reporting(2, 3, 0.9));
      h.client(Behaviours.honest(3, 4));
      h.awaitClients(3);
      RoundRecord m = h.server.run().rounds().get(0);
      // MAX as configured; the client that reports none takes no part; strings are not numbers.
      assertThat(m.algorithmMetrics()).containsEntry("fit_accuracy", 0.9)
          .containsEntry("evaluate_accuracy", 0.9).doesNotContainKey("fit_note")
          .doesNotContainKey("fit_loss");
      assertThat(RoundJson.toJson(m)).contains("\"fit_accuracy\": 0.9");
    }
    try (Harness h = new Harness(Harness.config().rounds(1).minClients(2).build())) {
      h.client(reporting(1, 1, 0.5));
      h.client(reporting(2, 3, 0.9));
      h.awaitClients(2);
      RoundRecord m = h.server.run().rounds().get(0);
      // By default weighted by examples: (0.5 * 1 + 0.9 * 3) / 4.
      assertThat(m.algorithmMetric("fit_accuracy")).isCloseTo(0.8,
          org.assertj.core.api.Assertions.within(1e-12));
      assertThat(m.algorithmMetric("evaluate_accuracy")).isCloseTo(0.8,
          org.assertj.core.api.Assertions.within(1e-12));
    }
  }

  @Test
  void run_noClientReportsALoss_clientLossIsAbsent() throws Exception {
    try (Harness h = new Harness(Harness.config().rounds(1).minClients(2).build())) {
      h.client(noLoss(1, 1));
      h.client(noLoss(3, 1));
      h.awaitClients(2);
      RunResult result = h.server.run();

      RoundRecord m = result.rounds().get(0);
      assertThat(m.failures()).isZero();
      assertThat(m.clientLoss()).isNaN();
      assertThat(RoundJson.toJson(m)).contains("\"client_loss\": null");
      assertThat(result.finalParameters().get("w"))
          .isEqualTo(Tensor.ofFloats(Shape.of(2), 2, 2));
    }
  }

  @Test
  void run_clientDiesMidFit_roundGoesOnWithTheOthersAndCountsTheFailure() throws Exception {
    try (Harness h = new Harness(Harness.config().rounds(2).minClients(2).build())) {
      h.client(Behaviours.honest(1, 1));
      h.client(Behaviours.honest(3, 1));
      FakeClient dying = h.client(Behaviours.diesOnFit());
      h.awaitClients(3);
      RunResult result = h.server.run();

      RoundRecord r1 = result.rounds().get(0);
      assertThat(r1.clients()).isEqualTo(3);
      assertThat(r1.failures()).isEqualTo(1);
      assertThat(r1.failureReasons()).singleElement().asString()
          .contains("fit").contains("stream ended");
      assertThat(result.rounds().get(1).clients()).isEqualTo(2);
      assertThat(result.rounds().get(1).failures()).isZero();
      assertThat(result.finalParameters().get("w"))
          .isEqualTo(Tensor.ofFloats(Shape.of(2), 4, 4));
      assertThat(dying.closed.get(5, TimeUnit.SECONDS).getCode())
          .isEqualTo(Status.Code.CANCELLED);
      assertThat(h.server.connectedClients()).hasSize(2);
    }
  }

  @Test
  void run_silentClientWithRoundTimeout_timesOutAndRoundGoesOn() throws Exception {
    try (Harness h = new Harness(Harness.config().rounds(1).minClients(2)
        .roundTimeout(Duration.ofMillis(300)).build())) {
      h.client(Behaviours.honest(2, 1));
      FakeClient silent = h.client(Behaviours.silent());
      h.awaitClients(2);
      RunResult result = h.server.run();

      assertThat(result.rounds().get(0).failures()).isEqualTo(1);
      assertThat(result.rounds().get(0).failureReasons()).singleElement().asString()
          .contains("no answer to fit_ins within");
      assertThat(silent.closed.get(5, TimeUnit.SECONDS).getCode())
          .isEqualTo(Status.Code.DEADLINE_EXCEEDED);
      assertThat(result.finalParameters().get("w"))
          .isEqualTo(Tensor.ofFloats(Shape.of(2), 2, 2));
    }
  }

  @Test
  void run_tooFewClients_failsNamingTheCounts() throws Exception {
    try (Harness h = new Harness(Harness.config().minClients(3)
        .clientWait(Duration.ofMillis(200)).build())) {
      h.client(Behaviours.honest(1, 1));
      h.awaitClients(1);
      assertThatThrownBy(h.server::run).isInstanceOf(NotEnoughClientsException.class)
          .hasMessageContaining("for 3 clients, but only 1 connected");
    }
  }

  @Test
  void run_noInitialParameters_asksOneClientAsFlowerDoes() throws Exception {
    try (Harness h = new Harness(Harness.config().initial(InitialParameters.fromClient())
        .rounds(1).minClients(2).build())) {
      FakeClient a = h.client(Behaviours.honest(5, 1));
      FakeClient b = h.client(Behaviours.honest(5, 1));
      h.awaitClients(2);
      RunResult result = h.server.run();

      // Both clients give [5, 5] and both add 5.
      assertThat(result.finalParameters()).containsOnlyKeys("arr_0");
      assertThat(result.finalParameters().get("arr_0"))
          .isEqualTo(Tensor.ofFloats(Shape.of(2), 10, 10));
      long asked = List.of(a, b).stream().flatMap(c -> c.received.stream())
          .filter(ServerMessage::hasGetParametersIns).count();
      assertThat(asked).isEqualTo(1);
    }
  }

  @Test
  void run_fedProx_sendsProximalMuInEveryFitConfig() throws Exception {
    try (Harness h = new Harness(Harness.config().rounds(2).minClients(1)
        .algorithm(FederatedAlgorithm.named("fedprox", java.util.Map.of("proximal_mu", 0.5))).build())) {
      FakeClient c = h.client(Behaviours.honest(1, 1));
      h.awaitClients(1);
      h.server.run();
      assertThat(c.received.stream().filter(ServerMessage::hasFitIns))
          .hasSize(2).allSatisfy(m -> assertThat(m.getFitIns().getConfigMap()
              .get("proximal_mu").getDouble()).isEqualTo(0.5));
    }
  }

  /**
   * A client-side DP client: shifts every parameter (3 of them) by {@code shift}, clips the
   * update to the round's {@code clipping_norm} and reports {@code norm_bit} as Flower's
   * adaptiveclipping_mod does.
   */
  private static java.util.function.Function<ServerMessage, Optional<ClientMessage>> clipping(
      float shift, List<Double> normsSeen) {
    return Behaviours.fitAnswer(m -> {
      double c = m.getFitIns().getConfigMap().get("clipping_norm").getDouble();
      normsSeen.add(c);
      double norm = Math.abs(shift) * Math.sqrt(3);
      float sent = norm > c ? (float) (shift * c / norm) : shift;
      ClientMessage res = Behaviours.fitRes(io.tributary.flower.internal.ParametersWire.toProto(
          Behaviours.npy(Behaviours.shifted(Behaviours.decode(m.getFitIns().getParameters()),
              sent))), 1, 0f);
      return res.toBuilder().setFitRes(res.getFitRes().toBuilder().putMetrics("norm_bit",
          io.tributary.flower.internal.proto.Scalar.newBuilder().setBool(norm <= c).build()))
          .build();
    });
  }

  @Test
  void run_clientSideAdaptiveClipping_sendsEachRoundsNormAndCountsTheClientsBits()
      throws Exception {
    // No noise, so the norms follow Andrew et al.'s update exactly: C0 = 1, target 0.5, lr 0.2.
    io.tributary.privacy.AdaptiveClipping ac =
        new io.tributary.privacy.AdaptiveClipping(0.5, 0.2, 0);
    io.tributary.privacy.aggregation.DpAggregator dp =
        new io.tributary.privacy.aggregation.DpAggregator(
            io.tributary.privacy.aggregation.DpMode.CLIENT, 0, 1.0, 3, Optional.of(ac), 0,
            io.tributary.privacy.aggregation.DpNoise.seededForExperimentsOnlyNotPrivate(1))
            .withReportedNormBits();
    FederatedAlgorithm algorithm = io.tributary.learning.FederatedAlgorithm.fedAvg()
        .withAggregator(dp);
    List<Double> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
    try (Harness h = new Harness(Harness.config().rounds(2).minClients(3).algorithm(algorithm)
        .fitConfig(java.util.Map.of("clipping_norm", io.tributary.flower.Scalar.of(1.0)))
        .roundFitConfig(state -> java.util.Map.of("clipping_norm", io.tributary.flower.Scalar.of(
            state.struct("aggregator").tensor("clip_norm").item()))).build())) {
      // Update norms 0.1 sqrt(3), 0.2 sqrt(3) and 4 sqrt(3): two of three within C = 1.
      h.client(clipping(0.1f, seen));
      h.client(clipping(0.2f, seen));
      h.client(clipping(4f, seen));
      h.awaitClients(3);
      RunResult r = h.server.run();
      double c1 = Math.exp(-0.2 * (2.0 / 3 - 0.5));
      assertThat(r.rounds().get(0).algorithmMetric("clip_norm")).isEqualTo(1.0);
      assertThat(r.rounds().get(1).algorithmMetric("clip_norm")).isCloseTo(c1,
          org.assertj.core.api.Assertions.within(1e-12));
      assertThat(seen).hasSize(6);
      assertThat(seen.subList(0, 3)).containsOnly(1.0);
      assertThat(seen.subList(3, 6)).allSatisfy(x -> assertThat(x).isCloseTo(c1,
          org.assertj.core.api.Assertions.within(1e-12)));
    }
  }

  @Test
  void close_afterRun_sendsReconnectInsZeroToEveryClient() throws Exception {
    Harness h = new Harness(Harness.config().rounds(1).minClients(2).build());
    List<FakeClient> clients = List.of(h.client(Behaviours.honest(1, 1)),
        h.client(Behaviours.honest(1, 1)));
    h.awaitClients(2);
    h.server.run();
    h.close();
    for (FakeClient c : clients) {
      assertThat(c.closed.get(5, TimeUnit.SECONDS).getCode()).isEqualTo(Status.Code.OK);
      ServerMessage last = c.received.get(c.received.size() - 1);
      assertThat(last.hasReconnectIns()).isTrue();
      assertThat(last.getReconnectIns().getSeconds()).isZero();
    }
    assertThat(h.server.connectedClients()).isEmpty();
  }

  @Test
  void start_portZeroOnNetty_listensOnAFreePort() throws Exception {
    try (FlowerServer s = FlowerServer.start(Harness.config().build())) {
      assertThat(s.port()).isPositive();
      assertThat(Optional.of(s.connectedClients())).contains(List.of());
    }
  }
}
