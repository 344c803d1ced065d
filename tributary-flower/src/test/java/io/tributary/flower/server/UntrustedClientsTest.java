package io.tributary.flower.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.flower.internal.ParametersWire;
import io.tributary.flower.internal.proto.ClientMessage;
import io.tributary.flower.internal.proto.ServerMessage;
import io.tributary.learning.rounds.RoundRecord;
import io.tributary.runtime.RuntimeOptions;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * Updates, example counts and metrics from clients are verified before they reach the model or
 * the round's metrics (in-process gRPC, fake clients).
 */
class UntrustedClientsTest {
  private static Function<ServerMessage, Optional<ClientMessage>> fitting(List<Tensor> params,
      long examples, float loss) {
    return Behaviours.fitAnswer(m -> Behaviours.fitRes(
        ParametersWire.toProto(Behaviours.npy(params)), examples, loss));
  }

  private static Function<ServerMessage, Optional<ClientMessage>> evaluatingNaN() {
    Function<ServerMessage, Optional<ClientMessage>> honest = Behaviours.honest(2, 1);
    return m -> m.hasEvaluateIns() ? Optional.of(Behaviours.evaluateRes(Float.NaN, 1))
        : honest.apply(m);
  }

  @Test
  void run_clientSendsNaNOrInf_isExcludedAndNamedInTheRoundRecord() throws Exception {
    try (Harness h = new Harness(Harness.config().rounds(1).minClients(3).build())) {
      h.client(Behaviours.honest(2, 1));
      h.client(fitting(List.of(Tensor.ofFloats(Shape.of(2), Float.NaN, 0), Tensor.scalar(1f)),
          1, 0));
      h.client(fitting(List.of(Tensor.ofFloats(Shape.of(2), 0, 0),
          Tensor.scalar(Float.POSITIVE_INFINITY)), 1, 0));
      h.awaitClients(3);
      List<String> ids = h.server.connectedClients();
      RunResult result = h.server.run();

      RoundRecord m = result.rounds().get(0);
      assertThat(m.failures()).isEqualTo(2);
      String reasons = String.join("\n", m.failureReasons());
      assertThat(reasons).contains("not finite", "NaN at element 0", "+Inf at element 0");
      // The clients connect in any order, so which id is which is not known: two of the three
      // ids are named, each once, and the model below shows the honest one was kept.
      assertThat(m.failureReasons()).hasSize(2);
      assertThat(ids.stream().filter(reasons::contains).count()).isEqualTo(2);
      // Only the honest client's update (+2) reached the model.
      assertThat(result.finalParameters().get("w"))
          .isEqualTo(Tensor.ofFloats(Shape.of(2), 2, 2));
      assertThat(result.finalParameters().get("b")).isEqualTo(Tensor.scalar(3f));
    }
  }

  @Test
  void run_aggregateOverflows_isRefusedAndTheModelIsUnchanged() throws Exception {
    LinkedHashMap<String, Tensor> init = new LinkedHashMap<>();
    init.put("w", Tensor.ofDoubles(Shape.of(1), 0));
    // Each update is finite; their example-weighted sum (1.5e308 + 1.5e308) is not.
    List<Tensor> big = List.of(Tensor.ofDoubles(Shape.of(1), 1.5e308));
    try (Harness h = new Harness(Harness.config().rounds(1).minClients(2)
        .initial(new InitialParameters.Given(init)).build())) {
      h.client(fitting(big, 1, 0));
      h.client(fitting(big, 1, 0));
      h.awaitClients(2);
      RunResult result = h.server.run();

      RoundRecord m = result.rounds().get(0);
      assertThat(m.failureReasons()).anySatisfy(r -> assertThat(r)
          .contains("aggregate refused").contains("overflows"));
      assertThat(result.finalParameters().get("w")).isEqualTo(Tensor.ofDoubles(Shape.of(1), 0));
    }
  }

  @Test
  void run_hugeFiniteLossMetrics_areLeftOutSoTheRoundIsNotRefused() throws Exception {
    try (Harness h = new Harness(Harness.config().rounds(1).minClients(3).build())) {
      h.client(Behaviours.honest(2, 1));
      // Each weighted loss (2e29 * 1e9) is finite in float32; their sum (4e38) would not be.
      List<Tensor> same = List.of(Tensor.ofFloats(Shape.of(2), 2, 2), Tensor.scalar(3f));
      h.client(fitting(same, 1_000_000_000L, 2e29f));
      h.client(fitting(same, 1_000_000_000L, 2e29f));
      h.awaitClients(3);
      RunResult result = h.server.run();

      RoundRecord m = result.rounds().get(0);
      assertThat(m.failureReasons()).isEmpty();
      assertThat(m.nonFiniteMetrics()).isEqualTo(2);
      assertThat(m.clientLoss()).isEqualTo(2.0);
      assertThat(result.finalParameters().get("w"))
          .isEqualTo(Tensor.ofFloats(Shape.of(2), 2, 2));
    }
  }

  @Test
  void run_examplesAboveBoundWithClip_countsAsTheBound() throws Exception {
    try (Harness h = new Harness(Harness.config().rounds(1).minClients(2)
        .maxExamplesPerClient(10, RuntimeOptions.WeightPolicy.CLIP).build())) {
      h.client(Behaviours.honest(2, 10));
      h.client(fitting(List.of(Tensor.ofFloats(Shape.of(2), 4, 4), Tensor.scalar(1f)),
          Long.MAX_VALUE, 1));
      h.awaitClients(2);
      RunResult result = h.server.run();

      RoundRecord m = result.rounds().get(0);
      assertThat(m.failures()).isZero();
      // Weights 10 and 10 (clipped): the plain mean of +2 and +4.
      assertThat(result.finalParameters().get("w"))
          .isEqualTo(Tensor.ofFloats(Shape.of(2), 3, 3));
      // Losses 2 and 1, weighted 10 and 10: no overflow in the weights.
      assertThat(m.clientLoss()).isEqualTo(1.5);
      // The claimed counts, whose int64 sum wrapped, saturated.
      assertThat(m.examples()).isEqualTo(Long.MAX_VALUE);
    }
  }

  static java.util.stream.Stream<org.junit.jupiter.params.provider.Arguments> overMedian() {
    // Two honest clients (update 0, 10 examples) and one claiming 1,000 examples (update +3).
    // Round 1 has no previous median: 3 * 1000 / 1020. Round 2 with the default bound counts the
    // claim as 10 x median(10, 10, 1000) = 100: 3 * 100 / 120 = 2.5; with the bound off, again
    // 3 * 1000 / 1020.
    return java.util.stream.Stream.of(
        org.junit.jupiter.params.provider.Arguments.of(ServerConfig.DEFAULT_EXAMPLES_OVER_MEDIAN,
            3000.0 / 1020 + 2.5),
        org.junit.jupiter.params.provider.Arguments.of(0.0, 2 * 3000.0 / 1020));
  }

  @org.junit.jupiter.params.ParameterizedTest
  @org.junit.jupiter.params.provider.MethodSource("overMedian")
  void run_claimFarAboveThePreviousMedian_countsAsTheRoundRelativeBound(double factor,
      double expected) throws Exception {
    try (Harness h = new Harness(Harness.config().rounds(2).minClients(3)
        .examplesOverMedian(factor).build())) {
      h.client(Behaviours.honest(0, 10));
      h.client(Behaviours.honest(0, 10));
      h.client(Behaviours.honest(3, 1000));
      h.awaitClients(3);
      RunResult result = h.server.run();

      assertThat(result.rounds()).allSatisfy(r -> assertThat(r.failures()).isZero());
      assertThat(result.finalParameters().get("w").getFloat(0)).isCloseTo((float) expected,
          org.assertj.core.data.Offset.offset(1e-5f));
    }
  }

  @Test
  void config_examplesOverMedianBetweenZeroAndOne_isRefusedNamingIt() {
    assertThatThrownBy(() -> ServerConfig.builder().examplesOverMedian(0.5).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("examplesOverMedian must be 0 (off) or 1 to 1e12, got 0.5");
  }

  @Test
  void run_examplesAboveBoundWithExclude_failsThatClient() throws Exception {
    try (Harness h = new Harness(Harness.config().rounds(1).minClients(2)
        .maxExamplesPerClient(10, RuntimeOptions.WeightPolicy.EXCLUDE).build())) {
      h.client(Behaviours.honest(2, 10));
      h.client(fitting(List.of(Tensor.ofFloats(Shape.of(2), 4, 4), Tensor.scalar(1f)),
          Long.MAX_VALUE, 1));
      h.awaitClients(2);
      RunResult result = h.server.run();

      RoundRecord m = result.rounds().get(0);
      assertThat(m.failures()).isEqualTo(1);
      assertThat(m.failureReasons()).singleElement().asString()
          .contains("the weight 9223372036854775807 is above the bound 10");
      assertThat(result.finalParameters().get("w"))
          .isEqualTo(Tensor.ofFloats(Shape.of(2), 2, 2));
      assertThat(m.clientLoss()).isEqualTo(2.0);
    }
  }

  @Test
  void run_nanMetrics_areLeftOutOfTheAggregatesAndCounted() throws Exception {
    try (Harness h = new Harness(Harness.config().rounds(1).minClients(3).build())) {
      h.client(Behaviours.honest(2, 1));
      // A finite update with a NaN loss metric: the update counts, the loss does not.
      h.client(fitting(List.of(Tensor.ofFloats(Shape.of(2), 4, 4), Tensor.scalar(5f)), 1,
          Float.NaN));
      h.client(evaluatingNaN());
      h.awaitClients(3);
      RunResult result = h.server.run();

      RoundRecord m = result.rounds().get(0);
      assertThat(m.failures()).isZero();
      assertThat(m.nonFiniteMetrics()).isEqualTo(2);
      // Fit losses 2, NaN (left out) and 2: 2. Evaluation losses 2, 0 and NaN (left out): 1.
      assertThat(m.clientLoss()).isEqualTo(2.0);
      assertThat(m.evalLoss()).isEqualTo(1.0);
      assertThat(result.finalParameters().get("w"))
          .isEqualTo(Tensor.ofFloats(Shape.of(2), 8f / 3, 8f / 3));
    }
  }

  @Test
  void run_initialParametersFromClientNotFinite_areRefused() throws Exception {
    Function<ServerMessage, Optional<ClientMessage>> nan = m -> m.hasGetParametersIns()
        ? Optional.of(ClientMessage.newBuilder().setGetParametersRes(
            ClientMessage.GetParametersRes.newBuilder().setParameters(ParametersWire.toProto(
                Behaviours.npy(List.of(Tensor.ofFloats(Shape.of(2), 1, Float.NaN)))))).build())
        : Behaviours.honest(0, 1).apply(m);
    try (Harness h = new Harness(Harness.config().rounds(1).minClients(1)
        .initial(InitialParameters.fromClient()).build())) {
      h.client(nan);
      h.awaitClients(1);
      assertThatThrownBy(h.server::run).isInstanceOf(FlowerServerException.class)
          .hasMessageContaining("not finite").hasMessageContaining("NaN at element 1");
    }
  }

  @Test
  void run_initialParametersFromOneClientNotFinite_skipsItForAnother() throws Exception {
    Function<ServerMessage, Optional<ClientMessage>> nan = m -> m.hasGetParametersIns()
        ? Optional.of(ClientMessage.newBuilder().setGetParametersRes(
            ClientMessage.GetParametersRes.newBuilder().setParameters(ParametersWire.toProto(
                Behaviours.npy(List.of(Tensor.ofFloats(Shape.of(2), 1, Float.NaN)))))).build())
        : Behaviours.honest(0, 1).apply(m);
    try (Harness h = new Harness(Harness.config().rounds(1).minClients(2)
        .initial(InitialParameters.fromClient()).build())) {
      h.client(nan);
      h.client(Behaviours.honest(3, 1));
      h.awaitClients(2);
      RunResult result = h.server.run();
      // The honest client's parameters [3, 3] are the initial model, whichever is asked first.
      assertThat(result.rounds()).hasSize(1);
      assertThat(result.finalParameters().get("arr_0").allClose(
          Tensor.ofFloats(Shape.of(2), 4.5f, 4.5f))).isTrue();
    }
  }

  @Test
  void config_defaults_haveARoundTimeoutAndAnExampleBound() {
    ServerConfig c = ServerConfig.builder().build();
    assertThat(c.roundTimeout()).contains(Duration.ofMinutes(10));
    assertThat(c.maxExamplesPerClient()).isEqualTo(1_000_000_000L);
    assertThat(c.overMaxExamples()).isEqualTo(RuntimeOptions.WeightPolicy.CLIP);
    assertThat(ServerConfig.builder().roundTimeout(Duration.ZERO).build().roundTimeout())
        .isEmpty();
  }
}
