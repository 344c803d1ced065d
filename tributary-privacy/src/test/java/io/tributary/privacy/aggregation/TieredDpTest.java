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
import io.tributary.learning.LearningProcess;
import io.tributary.learning.RoundOutput;
import io.tributary.privacy.RdpAccountant;
import io.tributary.privacy.Sampling;
import io.tributary.privacy.secagg.SecAggPlus;
import io.tributary.privacy.secagg.SecAggSettings;
import io.tributary.runtime.Edges;
import io.tributary.runtime.ExecutionContext;
import io.tributary.runtime.RuntimeOptions;
import io.tributary.runtime.SecureSumRequest;
import io.tributary.runtime.SecureSummation;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/**
 * Private hierarchical rounds: clipping on the clients, sums per edge (securely, each edge's
 * clients only), noise at the edges or at the server with the documented scale on the global
 * update, and the accounting of the edge rounds.
 */
class TieredDpTest {
  private static final DpNoise SEEDED = DpNoise.seededForExperimentsOnlyNotPrivate(7);

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

  private static LearningProcess process(TieredDp dp, int size) {
    StructType m = (StructType) Types.parse("<w=float32[" + size + "]>");
    StructType d = (StructType) Types.parse("<u=float32[" + size + "]>");
    Computation init = Federated.computation(() -> Intrinsics.federatedEval(
        Federated.local("start", FunctionType.noParameter(StructType.named("model", m)),
            x -> StructValue.named("model", StructValue.named("w",
                Tensor.ofFloats(Shape.of(size), new float[size])))), Placement.SERVER));
    return dp.process(init, client(m, d), eval(m, d));
  }

  private static StructValue data(float... u) {
    return StructValue.named("u", Tensor.ofFloats(Shape.of(u.length), u));
  }

  private static RoundOutput round(RuntimeOptions options, LearningProcess p,
      List<Object> clients) {
    try (ExecutionContext ctx = ExecutionContext.create(options.withThreads(2))) {
      Object state = ctx.invoke(p.initialize());
      return RoundOutput.of(ctx.invoke(p.next(), state, clients));
    }
  }

  private static float[] model(RoundOutput out) {
    Tensor w = out.state().struct("model").tensor("w");
    float[] v = new float[(int) w.size()];
    for (int i = 0; i < v.length; i++) {
      v[i] = (float) w.getAsDouble(i);
    }
    return v;
  }

  private static TieredDp dp(TieredDp.NoiseAt at, double z, int edgeRounds) {
    return new TieredDp(at, z, 1.0, edgeRounds, SEEDED, OptionalInt.empty());
  }

  /** Six clients in two edges of three; client 0's update (norm 5) is clipped to norm 1. */
  private static final List<Object> SIX = List.of(data(3, 4), data(0.5f, 0), data(0, 0.5f),
      data(0.2f, 0.2f), data(-0.5f, 0), data(0, -0.1f));
  private static final RuntimeOptions TWO_EDGES = RuntimeOptions.defaults()
      .withEdges(Edges.even(6, 2));

  @Test
  void next_serverNoiseNegligible_givesTheMeanOfTheClippedUpdates() {
    RoundOutput out = round(TWO_EDGES, process(dp(TieredDp.NoiseAt.SERVER, 1e-9, 1), 2), SIX);

    // (0.6, 0.8) is client 0 clipped; the others are within C = 1.
    assertThat(model(out)[0]).isCloseTo((0.6f + 0.5f + 0.2f - 0.5f) / 6, within(1e-6f));
    assertThat(model(out)[1]).isCloseTo((0.8f + 0.5f + 0.2f - 0.1f) / 6, within(1e-6f));
    assertThat(out.metrics().clients()).isEqualTo(6);
  }

  @Test
  void next_edgeNoiseNegligibleTwoEdgeRounds_movesEachEdgeTwiceThenAveragesTheEdges() {
    RoundOutput out = round(TWO_EDGES, process(dp(TieredDp.NoiseAt.EDGES, 1e-9, 2), 2), SIX);

    // The updates do not depend on the model: each edge adds its clipped mean twice, and the
    // server averages the two edges (three clients each), so the model moves twice the mean.
    assertThat(model(out)[0]).isCloseTo(2 * (0.6f + 0.5f + 0.2f - 0.5f) / 6, within(1e-6f));
    assertThat(model(out)[1]).isCloseTo(2 * (0.8f + 0.5f + 0.2f - 0.1f) / 6, within(1e-6f));
  }

  @Test
  void next_noiseAtEdges_isSqrtEdgesTimesTheServersOnTheGlobalUpdate() {
    int size = 20_000;
    List<Object> zeros = new ArrayList<>();
    for (int c = 0; c < 8; c++) {
      // Updates all but zero, and different: seeded noise (experiments only) takes its stream
      // from the edge's sum, so edges with the same sum would draw the same noise.
      float[] u = new float[size];
      java.util.Arrays.fill(u, (c + 1) * 1e-7f);
      zeros.add(data(u));
    }
    RuntimeOptions fourEdges = RuntimeOptions.defaults().withEdges(Edges.even(8, 4));

    RoundOutput atEdges = round(fourEdges, process(dp(TieredDp.NoiseAt.EDGES, 1, 1), size),
        zeros);
    RoundOutput atServer = round(fourEdges, process(dp(TieredDp.NoiseAt.SERVER, 1, 1), size),
        zeros);

    // z C sqrt(E) / K = 2 / 8 at the edges, z C / K = 1 / 8 at the server.
    assertThat(stddev(model(atEdges))).isCloseTo(0.25, within(0.25 * 0.03));
    assertThat(stddev(model(atServer))).isCloseTo(0.125, within(0.125 * 0.03));
    assertThat(atEdges.metrics().others()).containsEntry(TieredDp.NOISE_STDDEV, 0.25);
    assertThat(atServer.metrics().others()).containsEntry(TieredDp.NOISE_STDDEV, 0.125);
  }

  private static double stddev(float[] v) {
    double sum = 0;
    double squares = 0;
    for (float x : v) {
      sum += x;
      squares += (double) x * x;
    }
    double mean = sum / v.length;
    return Math.sqrt(squares / v.length - mean * mean);
  }

  /** A hook that adds in the clear and keeps every request it received. */
  private static final class Recording implements SecureSummation {
    final List<SecureSumRequest> requests = new ArrayList<>();

    @Override
    public long[] sum(SecureSumRequest request) {
      requests.add(request);
      long[] out = new long[request.length()];
      for (long[] x : request.inputs()) {
        for (int i = 0; i < out.length; i++) {
          out[i] += x[i];
        }
      }
      return out;
    }
  }

  @Test
  void next_secureSum_runsOncePerEdgeOverThatEdgesClientsOnly() {
    TieredDp secure = new TieredDp(TieredDp.NoiseAt.EDGES, 1e-9, 1.0, 1, SEEDED,
        OptionalInt.of(16));
    Recording hook = new Recording();

    RoundOutput out = round(TWO_EDGES.withSecureSum(hook), process(secure, 2), SIX);

    assertThat(hook.requests).hasSize(2);
    assertThat(hook.requests).allSatisfy(r -> {
      assertThat(r.intrinsic()).isEqualTo("federated_secure_sum_bitwidth_to_edges");
      assertThat(r.inputs()).hasSize(3);
    });
    // The sum is exact up to the 16-bit quantization of each update over [-1, 1].
    assertThat(model(out)[0]).isCloseTo((0.6f + 0.5f + 0.2f - 0.5f) / 6, within(1e-4f));
    assertThat(model(out)[1]).isCloseTo((0.8f + 0.5f + 0.2f - 0.1f) / 6, within(1e-4f));
  }

  @Test
  void next_secAggPlusPerEdge_equalsTheRecordedSecureSum() {
    TieredDp secure = new TieredDp(TieredDp.NoiseAt.SERVER, 1e-9, 1.0, 1, SEEDED,
        OptionalInt.of(16));
    RuntimeOptions secAgg = TWO_EDGES.withSecureSum(SecAggPlus.secureSummation(
        SecAggSettings.of(3, 2, 16, 11)));

    RoundOutput withSecAgg = round(secAgg, process(secure, 2), SIX);
    RoundOutput inTheClear = round(TWO_EDGES.withSecureSum(new Recording()), process(secure, 2),
        SIX);

    assertThat(model(withSecAgg)).containsExactly(model(inTheClear));
  }

  @Test
  void accountedNoiseMultiplier_edgeRoundsAtTheEdges_composeToZOverSqrtK2() {
    TieredDp edges = dp(TieredDp.NoiseAt.EDGES, 2.0, 4);
    RdpAccountant expected = new RdpAccountant();
    expected.compose(Sampling.FIXED_SIZE, 0.1, 1.0, 50);

    assertThat(edges.accountedNoiseMultiplier()).isEqualTo(1.0);
    assertThat(dp(TieredDp.NoiseAt.SERVER, 2.0, 1).accountedNoiseMultiplier()).isEqualTo(2.0);
    assertThat(edges.spent(0.1, 50, 1e-5).epsilon())
        .isEqualTo(expected.epsilon(1e-5).epsilon());
    // More edge rounds at the same z spend more.
    assertThat(dp(TieredDp.NoiseAt.EDGES, 2.0, 1).spent(0.1, 50, 1e-5).epsilon())
        .isLessThan(edges.spent(0.1, 50, 1e-5).epsilon());
  }

  @Test
  void new_noiseAtTheServerWithTwoEdgeRounds_throwsNamingEdgeRounds() {
    assertThatThrownBy(() -> dp(TieredDp.NoiseAt.SERVER, 1, 2))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("edge_rounds 1, got 2");
    assertThatThrownBy(() -> dp(TieredDp.NoiseAt.EDGES, 0, 1))
        .hasMessageContaining("noise_multiplier must be positive");
    assertThatThrownBy(() -> TieredDp.NoiseAt.parse("cloud"))
        .hasMessage("--dp-at must be edges or server, got 'cloud'");
  }

  @Test
  void tiered_adaptiveClipping_isRefusedNamingTheFlag() {
    DpSettings adaptive = DpSettings.builder(DpMode.CLIENT).noiseMultiplier(1).adaptive()
        .build();

    assertThatThrownBy(() -> adaptive.tiered(TieredDp.NoiseAt.EDGES, 1, 0))
        .hasMessageContaining("--adaptive-clip does not apply through edges");
  }
}
