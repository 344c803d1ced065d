package io.tributary.privacy.aggregation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.tributary.core.computation.Computation;
import io.tributary.core.computation.Federated;
import io.tributary.core.computation.Intrinsics;
import io.tributary.core.types.FunctionType;
import io.tributary.core.types.Placement;
import io.tributary.core.types.StructType;
import io.tributary.core.types.Types;
import io.tributary.core.values.StructValue;
import io.tributary.learning.FederatedAlgorithm;
import io.tributary.learning.LearningProcess;
import io.tributary.learning.RoundOutput;
import io.tributary.privacy.AdaptiveClipping;
import io.tributary.runtime.ExecutionContext;
import io.tributary.runtime.RuntimeOptions;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * DP-FedAvg's aggregator inside a FedAvg round: clipping bounds each client's contribution, the
 * noise has the documented scale and repeats only when seeded, adaptive clipping follows its
 * formula, and the round's metrics carry the figures used.
 */
class DpAggregatorTest {
  private static final int SIZE = 4;
  private static final StructType M = (StructType) Types.parse("<w=float32[" + SIZE + "]>");
  private static final StructType DATA = (StructType) Types.parse("<u=float32[" + SIZE + "]>");

  /** D is the client's update itself; the client sends it as its delta. */
  private static Computation client(StructType model, StructType data) {
    return Federated.local("send_update", FunctionType.of(StructType.named("model", model,
        "data", data), Types.parse("<delta=" + model + ",num_examples=int64,loss=float32>")),
        arg -> StructValue.named("delta", StructValue.named("w",
            ((StructValue) arg).struct(1).tensor("u")), "num_examples",
            Tensor.ofLongs(Shape.scalar(), 1), "loss", Tensor.scalar(0f)));
  }

  private static Computation eval(StructType model, StructType data) {
    return Federated.local("no_eval", FunctionType.of(StructType.named("model", model, "data",
        data), Types.parse("<loss=float32,num_examples=int64>")),
        arg -> StructValue.named("loss", Tensor.scalar(0f), "num_examples",
            Tensor.ofLongs(Shape.scalar(), 1)));
  }

  private static Computation init(StructType model, Tensor start) {
    return Federated.computation(() -> Intrinsics.federatedEval(
        Federated.local("start", FunctionType.noParameter(StructType.named("model", model)),
            x -> StructValue.named("model", StructValue.named("w", start))), Placement.SERVER));
  }

  private static LearningProcess process(DpAggregator dp, int size) {
    StructType m = (StructType) Types.parse("<w=float32[" + size + "]>");
    StructType d = (StructType) Types.parse("<u=float32[" + size + "]>");
    return FederatedAlgorithm.fedAvg().withAggregator(dp).process(
        init(m, Tensor.ofFloats(Shape.of(size), new float[size])), client(m, d), eval(m, d));
  }

  private static StructValue data(float... u) {
    return StructValue.named("u", Tensor.ofFloats(Shape.of(u.length), u));
  }

  /** Runs {@code rounds} rounds with the same client data; returns each round's output. */
  private static List<RoundOutput> run(LearningProcess p, List<Object> clients, int rounds) {
    return run(RuntimeOptions.defaults(), p, clients, rounds);
  }

  private static List<RoundOutput> run(RuntimeOptions options, LearningProcess p,
      List<Object> clients, int rounds) {
    List<RoundOutput> outs = new ArrayList<>();
    try (ExecutionContext ctx = ExecutionContext.create(options)) {
      StructValue state = (StructValue) ctx.invoke(p.initialize());
      for (int r = 0; r < rounds; r++) {
        RoundOutput out = RoundOutput.of(ctx.invoke(p.next(), state, clients));
        outs.add(out);
        state = out.state();
      }
    }
    return outs;
  }

  private static float[] model(RoundOutput out) {
    return out.model().tensor("w").toFloatArray();
  }

  private static double norm(float[] v) {
    double s = 0;
    for (float x : v) {
      s += (double) x * x;
    }
    return Math.sqrt(s);
  }

  @Test
  void next_clientWithHugeUpdate_movesModelByAtMostClipOverExpectedClients() {
    DpAggregator dp = DpAggregator.fixed(0, 2.0, 4,
        DpNoise.seededForExperimentsOnlyNotPrivate(1));
    List<Object> clients = List.of(data(1e6f, -3e6f, 2e6f, 5e5f), data(0, 0, 0, 0),
        data(0, 0, 0, 0), data(0, 0, 0, 0));
    float[] moved = model(run(process(dp, SIZE), clients, 1).get(0));
    assertThat(norm(moved)).isCloseTo(2.0 / 4, within(1e-6));
  }

  @Test
  void next_clientWithHugeUpdateAndNoise_differsFromClippedClientOnlyByTheNoise() {
    DpNoise seeded = DpNoise.seededForExperimentsOnlyNotPrivate(7);
    DpAggregator dp = DpAggregator.fixed(1.0, 1.0, 3, seeded);
    float[] huge = model(run(process(dp, SIZE), List.of(data(3e6f, 0, 0, 0), data(0, 0.5f, 0, 0),
        data(0, 0, 0.25f, 0)), 1).get(0));
    float[] small = model(run(process(dp, SIZE), List.of(data(1, 0, 0, 0), data(0, 0.5f, 0, 0),
        data(0, 0, 0.25f, 0)), 1).get(0));
    assertThat(huge).containsExactly(small);
  }

  @Test
  void next_seededNoise_twoRunsBitIdentical() {
    DpAggregator dp = DpAggregator.fixed(1.0, 1.0, 2,
        DpNoise.seededForExperimentsOnlyNotPrivate(42));
    List<Object> clients = List.of(data(1, 2, 3, 4), data(-1, 0.5f, 0, 2));
    List<RoundOutput> a = run(process(dp, SIZE), clients, 3);
    List<RoundOutput> b = run(process(dp, SIZE), clients, 3);
    for (int r = 0; r < 3; r++) {
      assertThat(model(a.get(r))).containsExactly(model(b.get(r)));
    }
    assertThat(model(a.get(0))).isNotEqualTo(model(a.get(1)));
  }

  @Test
  void next_secureNoise_twoRunsDiffer() {
    DpAggregator dp = DpAggregator.fixed(1.0, 1.0, 2, DpNoise.secure());
    List<Object> clients = List.of(data(1, 2, 3, 4), data(-1, 0.5f, 0, 2));
    assertThat(model(run(process(dp, SIZE), clients, 1).get(0)))
        .isNotEqualTo(model(run(process(dp, SIZE), clients, 1).get(0)));
  }

  @Test
  void next_zeroUpdates_noiseStddevIsMultiplierTimesClipOverClients() {
    int size = 40_000;
    DpAggregator dp = DpAggregator.fixed(1.0, 1.0, 1,
        DpNoise.seededForExperimentsOnlyNotPrivate(3));
    float[] w = model(run(process(dp, size), List.of(data(new float[size])), 1).get(0));
    double mean = 0;
    for (float x : w) {
      mean += x;
    }
    mean /= size;
    double var = 0;
    for (float x : w) {
      var += (x - mean) * (x - mean);
    }
    assertThat(Math.sqrt(var / (size - 1))).isCloseTo(1.0, within(0.05));
    assertThat(mean).isCloseTo(0, within(0.02));
  }

  @Test
  void next_noiseOnMean_scalesWithClipAndExpectedClients() {
    int size = 40_000;
    DpAggregator dp = DpAggregator.fixed(2.0, 0.5, 4,
        DpNoise.seededForExperimentsOnlyNotPrivate(5));
    List<Object> zeros = List.of(data(new float[size]), data(new float[size]));
    RoundOutput out = run(process(dp, size), zeros, 1).get(0);
    assertThat(norm(model(out)) / Math.sqrt(size)).isCloseTo(2.0 * 0.5 / 4, within(0.0125));
    assertThat(out.metrics().others()).containsEntry("clip_norm", 0.5)
        .containsEntry("noise_stddev", 0.25);
  }

  @Test
  void next_adaptiveClipping_clipNormFollowsAndrewEtAlByHand() {
    // Norms 1, 2, 3, 4 and 10; C0 = 3; no noise: 3 of 5 updates are within C (unclipped).
    AdaptiveClipping ac = new AdaptiveClipping(0.5, 0.2, 0);
    DpAggregator dp = DpAggregator.adaptive(0, 3.0, 5, ac,
        DpNoise.seededForExperimentsOnlyNotPrivate(1));
    List<Object> clients = List.of(data(1, 0, 0, 0), data(0, 2, 0, 0), data(0, 0, 3, 0),
        data(0, 0, 0, 4), data(10, 0, 0, 0));
    List<RoundOutput> outs = run(process(dp, SIZE), clients, 2);
    double c1 = 3.0 * Math.exp(-0.2 * (3.0 / 5 - 0.5));
    assertThat(outs.get(0).metrics().others().get("clip_norm")).isEqualTo(3.0);
    assertThat(outs.get(0).state().struct("aggregator").tensor("clip_norm").item())
        .isCloseTo(c1, within(1e-12));
    assertThat(outs.get(1).metrics().others().get("clip_norm")).isCloseTo(c1, within(1e-12));
    // c1 = 2.88 < 3: now 2 unclipped of 5, so C grows back toward the median norm 3.
    double c2 = c1 * Math.exp(-0.2 * (2.0 / 5 - 0.5));
    assertThat(outs.get(1).state().struct("aggregator").tensor("clip_norm").item())
        .isCloseTo(c2, within(1e-12));
    float[] w = model(outs.get(0));
    // Round 1's mean: the sum of the clipped updates over 5 (1, 2, 3 kept; 4 and 10 clipped to 3).
    assertThat(w).containsExactly(new float[] {(1f + 3f) / 5, 2f / 5, 3f / 5, 3f / 5},
        within(1e-6f));
  }

  /** A server's client: its data are the update it sends and the norm bit it reports. */
  private static Computation reportingClient(StructType model) {
    StructType d = (StructType) Types.parse("<u=float32[" + SIZE + "],bit=int64>");
    return Federated.local("send_clipped", FunctionType.of(StructType.named("model", model,
        "data", d), Types.parse("<delta=" + model + ",num_examples=int64,loss=float32,"
            + "loss_weight=float32,norm_bit=int64>")),
        arg -> StructValue.named("delta", StructValue.named("w",
            ((StructValue) arg).struct(1).tensor("u")), "num_examples",
            Tensor.ofLongs(Shape.scalar(), 1), "loss", Tensor.scalar(0f), "loss_weight",
            Tensor.scalar(0f), "norm_bit", ((StructValue) arg).struct(1).tensor("bit")));
  }

  @Test
  void withReportedNormBits_clientsBitsNotTheReceivedNormsMoveTheClipNorm() {
    // Every update arrives within C = 3 (the clients clipped it), but only 1 of 4 says it was
    // within C before clipping: C must shrink by exp(-0.2 (1/4 - 0.5)), not grow.
    AdaptiveClipping ac = new AdaptiveClipping(0.5, 0.2, 0);
    DpAggregator dp = new DpAggregator(DpMode.CLIENT, 0, 3.0, 4, Optional.of(ac), 0,
        DpNoise.seededForExperimentsOnlyNotPrivate(1)).withReportedNormBits();
    StructType d = (StructType) Types.parse("<u=float32[" + SIZE + "],bit=int64>");
    LearningProcess p = FederatedAlgorithm.fedAvg().withAggregator(dp).process(
        init(M, Tensor.ofFloats(Shape.of(SIZE), new float[SIZE])), reportingClient(M),
        eval(M, d));
    List<Object> clients = new ArrayList<>();
    long[] bits = {1, 0, 0, 0};
    for (long b : bits) {
      clients.add(StructValue.named("u", Tensor.ofFloats(Shape.of(SIZE), 0.5f, 0, 0, 0), "bit",
          Tensor.ofLongs(Shape.scalar(), b)));
    }
    List<RoundOutput> outs = run(p, clients, 1);
    assertThat(outs.get(0).state().struct("aggregator").tensor("clip_norm").item())
        .isCloseTo(3.0 * Math.exp(-0.2 * (1.0 / 4 - 0.5)), within(1e-12));
    assertThat(model(outs.get(0))[0]).isCloseTo(0.5f, within(1e-6f));
    // A client update without norm_bit cannot feed such an aggregator.
    assertThatThrownBy(() -> FederatedAlgorithm.fedAvg().withAggregator(dp).process(
        init(M, Tensor.ofFloats(Shape.of(SIZE), new float[SIZE])), client(M, DATA),
        eval(M, DATA))).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("norm_bit");
    assertThatThrownBy(() -> DpAggregator.fixed(1, 1, 2, DpNoise.secure()).clientSide()
        .withReportedNormBits()).hasMessageContaining("adaptive clipping only");
  }

  @Test
  void next_adaptiveClipping_manyRoundsSettlesNearTargetQuantile() {
    // Ten clients with norms 1..10; the 0.3 quantile lies between 3 and 4.
    AdaptiveClipping ac = new AdaptiveClipping(0.3, 0.2, 0);
    DpAggregator dp = DpAggregator.adaptive(0, 9.0, 10, ac,
        DpNoise.seededForExperimentsOnlyNotPrivate(1));
    List<Object> clients = new ArrayList<>();
    for (int k = 1; k <= 10; k++) {
      clients.add(data(k, 0, 0, 0));
    }
    List<RoundOutput> outs = run(process(dp, SIZE), clients, 60);
    double c = outs.getLast().state().struct("aggregator").tensor("clip_norm").item();
    assertThat(c).isBetween(2.5, 4.5);
  }

  @Test
  void initialize_state_asDocumented() {
    LearningProcess p = process(DpAggregator.fixed(1, 1, 1, DpNoise.secure()), SIZE);
    assertThat(p.next().type().result().toString()).contains(
        "<train_loss=float32,num_examples=int64,clients=int64,clip_norm=float64,"
            + "noise_stddev=float64>@SERVER");
    assertThat(p.initialize().type().toString()).contains("aggregator=" + DpAggregator.STATE);
  }

  @Test
  void clientSide_withLocalNoise_seededRunsRepeatAndDifferFromCentral() {
    DpNoise seeded = DpNoise.seededForExperimentsOnlyNotPrivate(9);
    DpAggregator central = DpAggregator.fixed(1.0, 1.0, 2, seeded);
    DpAggregator local = central.withLocalNoise(0.5);
    List<Object> clients = List.of(data(1, 2, 3, 4), data(-1, 0.5f, 0, 2));
    float[] a = model(run(process(local, SIZE), clients, 1).get(0));
    assertThat(a).containsExactly(model(run(process(local, SIZE), clients, 1).get(0)));
    assertThat(a).isNotEqualTo(model(run(process(central, SIZE), clients, 1).get(0)));
    assertThat(local.mode()).isEqualTo(DpMode.CLIENT);
    assertThat(local.name()).isEqualTo("dp_client_fixed");
  }

  /** Five clients, two of them far beyond the clip. */
  private static final List<Object> FIVE = List.of(data(3, -4, 0, 0), data(0.1f, 0.2f, -0.3f, 0),
      data(-1e3f, 5e2f, 0, 1e3f), data(0.5f, 0.5f, 0.5f, 0.5f), data(0, 0, 0, -0.25f));

  @Test
  void next_clientSideDpOverSecAgg_matchesThePlainSumWithinQuantizationAndServerSeesOnlySums() {
    double clip = 1.0;
    int bits = 16;
    DpAggregator plain = DpAggregator.fixed(0.8, clip, 5,
        DpNoise.seededForExperimentsOnlyNotPrivate(3)).clientSide();
    DpAggregator secure = plain.withSecureSum(bits);
    List<io.tributary.privacy.secagg.SecAggTranscript> seen = new ArrayList<>();
    RuntimeOptions secAgg = RuntimeOptions.defaults().withSecureSum(
        io.tributary.privacy.secagg.SecAggPlus.secureSummation(
            io.tributary.privacy.secagg.SecAggSettings.of(4, 3, bits, 11), seen::add));
    List<RoundOutput> a = run(process(plain, SIZE), FIVE, 2);
    List<RoundOutput> b = run(secAgg, process(secure, SIZE), FIVE, 2);
    // Rounding to nearest moves each client's element by at most half a step of 2C/(2^b - 1);
    // the mean divides the sum of five such errors by the expected five clients.
    double step = 2 * clip / ((1 << bits) - 1);
    for (int r = 0; r < 2; r++) {
      float[] x = model(a.get(r));
      float[] y = model(b.get(r));
      for (int j = 0; j < SIZE; j++) {
        assertThat((double) y[j]).as("round %d element %d", r + 1, j)
            .isCloseTo(x[j], within((r + 1) * 5 * step / 2 / 5 + 1e-6));
      }
    }
    // Per round two secure sums (the quantized updates, and the count within C), each with the
    // five clients' masked inputs and the total only.
    assertThat(seen).hasSize(4);
    for (var t : seen) {
      assertThat(t.contributors()).containsExactlyInAnyOrder(0, 1, 2, 3, 4);
      assertThat(t.sum()).isPresent();
    }
    assertThat(seen.get(0).maskedInputs().get(0).masked()).hasSize(SIZE);
  }

  @Test
  void withSecureSum_centralOrBadBits_isRefusedNamingWhy() {
    DpAggregator central = DpAggregator.fixed(1.0, 1.0, 2, DpNoise.secure());
    assertThatThrownBy(() -> central.withSecureSum(16))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("client-side DP");
    assertThatThrownBy(() -> central.clientSide().withSecureSum(43))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("1 to 42");
  }

  @Test
  void constructor_badParameters_failNamingFlowerName() {
    assertThatThrownBy(() -> DpAggregator.fixed(1, 0, 2, DpNoise.secure()))
        .hasMessageContaining("clipping_norm");
    assertThatThrownBy(() -> DpAggregator.fixed(-1, 1, 2, DpNoise.secure()))
        .hasMessageContaining("noise_multiplier");
    assertThatThrownBy(() -> DpAggregator.fixed(1, 1, 0, DpNoise.secure()))
        .hasMessageContaining("num_sampled_clients");
    assertThatThrownBy(() -> DpAggregator.fixed(1, 1, 2, DpNoise.secure()).withLocalNoise(-1))
        .hasMessageContaining("local noise");
    assertThatThrownBy(() -> new DpAggregator(DpMode.CENTRAL, 1, 1, 2, Optional.empty(), 0.5,
        DpNoise.secure())).hasMessageContaining("client-side");
    assertThatThrownBy(() -> DpAggregator.adaptive(1, 1, 10, AdaptiveClipping.defaults(10),
        DpNoise.secure())).hasMessageContaining("clipped_count_stddev");
  }
}
