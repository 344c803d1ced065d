package io.tributary.cli;

import io.tributary.learning.FederatedAlgorithm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.flower.Scalar;
import io.tributary.learning.rounds.RoundRecord;
import io.tributary.privacy.PrivacySpent;
import io.tributary.privacy.aggregation.DpAggregator;
import io.tributary.privacy.aggregation.DpMode;
import io.tributary.privacy.aggregation.DpSettings;
import io.tributary.tensor.Tensor;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.SequencedMap;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** tributary server's --dp flags: the aggregator, the fit config, epsilon per round. */
class ServerDpTest {
  @TempDir Path dir;

  private static DpSettings dp(DpMode mode) {
    return new DpSettings(mode, 1.0, 0.5, Optional.empty(), 0, 1e-5, false);
  }

  private static io.tributary.flower.server.ServerConfig config(FederatedAlgorithm a) {
    return io.tributary.flower.server.ServerConfig.builder().algorithm(a).build();
  }

  @Test
  void dp_clientSide_sendsClippingNormInEveryFitConfig() {
    FederatedAlgorithm s = ServerSettings.dp(ServerSettings.algorithm("fedavg", Map.of(), null),
        dp(DpMode.CLIENT), 4, 1);
    assertThat(config(s).fitInsConfig()).containsEntry("clipping_norm", Scalar.of(0.5));
    assertThat(s.aggregator().name()).isEqualTo("dp_client_fixed");
  }

  @Test
  void dp_clientSideWithLocalNoise_clientsAddItAndTheServerDoesNot() {
    DpSettings local = new DpSettings(DpMode.CLIENT, 1.0, 0.5, Optional.empty(), 0.2, 1e-5,
        false);
    FederatedAlgorithm s = ServerSettings.dp(ServerSettings.algorithm("fedavg", Map.of(), null),
        local, 4, 1);
    assertThat(config(s).fitInsConfig()).containsEntry("clipping_norm", Scalar.of(0.5))
        .containsEntry("local_noise_stddev", Scalar.of(0.2));
  }

  @Test
  void dp_central_sendsNoClippingNorm() {
    FederatedAlgorithm s = ServerSettings.dp(ServerSettings.algorithm("fedprox", Map.of(), 0.1),
        dp(DpMode.CENTRAL), 4, 1);
    assertThat(config(s).fitInsConfig()).containsOnlyKeys("proximal_mu");
  }

  @Test
  void dp_clientAdaptive_sendsEachRoundsNormFromTheStateAndCountsReportedBits() {
    FederatedAlgorithm fedavg = ServerSettings.algorithm("fedavg", Map.of(), null);
    DpSettings adaptive = new DpSettings(DpMode.CLIENT, 1, 0.5, Optional.of(
        new DpSettings.Adaptive(0.5, 0.2, OptionalDouble.of(5))), 0, 1e-5, false);
    FederatedAlgorithm s = ServerSettings.dp(fedavg, adaptive, 4, 1);
    assertThat(s.aggregator().create(io.tributary.core.types.StructType.named("w",
        io.tributary.core.types.TensorType.of(io.tributary.tensor.DType.FLOAT32)))
        .takesNormBits()).isTrue();
    io.tributary.core.values.StructValue state = io.tributary.core.values.StructValue.named(
        "model", io.tributary.core.values.StructValue.named("w",
            io.tributary.tensor.Tensor.scalar(0f)),
        "aggregator", io.tributary.core.values.StructValue.named("round",
            io.tributary.tensor.Tensor.ofLongs(io.tributary.tensor.Shape.scalar(), 3),
            "clip_norm", io.tributary.tensor.Tensor.scalar(0.75)));
    assertThat(config(s).fitInsConfig(state)).containsEntry("clipping_norm", Scalar.of(0.75));
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "--dp central --noise-multiplier 1 --clip 0|--clip must be positive",
      "--dp central --noise-multiplier 0 --clip 1|--noise-multiplier must be positive",
      "--dp central --noise-multiplier 1 --clip 1 --delta 2|--delta must be in (0, 1)",
      "--dp central --noise-multiplier 1 --clip 1 --algorithm krum|--dp replaces the mean of the "
          + "updates, so it applies only to algorithms that average them, not krum"})
  void server_badDpValue_exitsTwoWithOneLine(String args, String message) {
    CliRun r = CliRun.of(("server --address localhost:0 --rounds 1 --min-clients 2 " + args)
        .split(" "));
    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.errLines()).hasSize(1);
    assertThat(r.errLines()[0]).startsWith("tributary server: ").contains(message);
  }

  @Test
  void roundEnded_withDp_writesEpsilonOfEveryRoundSoFar() throws Exception {
    DpSettings d = dp(DpMode.CENTRAL);
    SequencedMap<String, Tensor> model = new LinkedHashMap<>();
    model.put("arr_0", Tensor.scalar(1f));
    try (var out = ServerSettings.runFiles(dir, 2, ServerSettings.algorithm("fedavg", Map.of(),
        null), "tributary server", Optional.of(d)).progress(new PrintWriter(new StringWriter()))
        .build()) {
      for (int r = 1; r <= 2; r++) {
        out.roundEnded(RoundRecord.federated(r, 0.5, Double.NaN, 3, 40, 0, 1.0, 10, 20,
            List.of(), 0, new TreeMap<>(Map.of("clip_norm", 0.5))), model);
      }
    }
    List<String> lines = Files.readAllLines(dir.resolve("metrics.jsonl"));
    for (int r = 1; r <= 2; r++) {
      PrivacySpent s = d.spent(1.0, r);
      assertThat(lines.get(r - 1)).contains("\"algorithm_metrics\": {\"clip_norm\": 0.5, "
          + "\"epsilon\": " + s.epsilon() + "}");
    }
  }
}
