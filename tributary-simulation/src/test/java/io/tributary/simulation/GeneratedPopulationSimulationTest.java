package io.tributary.simulation;

import io.tributary.learning.FederatedAlgorithm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.tributary.data.GeneratedPopulation;
import io.tributary.learning.SettingException;
import io.tributary.learning.rounds.RoundRecord;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Simulations over {@code --dataset generated}: clients made on demand, any population size. */
class GeneratedPopulationSimulationTest {
  private static SimulationSettings.Builder settings() {
    return SimulationSettings.builder().algorithm(FederatedAlgorithm.fedAvg())
        .dataset(DatasetSpec.parse("generated:40,3,20")).clients(300).clientsPerRound(30)
        .rounds(8).localEpochs(1).batchSize(5).learningRate(0.5).threads(2).seed(3);
  }

  @Test
  void run_generatedLinearLabels_mclrLearns() throws Exception {
    SimulationResult r = Simulation.builder(settings().build()).build().run();

    List<RoundRecord> rounds = r.history().rounds();
    assertThat(rounds.getFirst().testAccuracy()).isLessThan(0.7);
    assertThat(rounds.getLast().testAccuracy()).isGreaterThan(0.8);
    assertThat(r.history().series(RoundRecord::clients)).containsOnly(30.0);
    assertThat(r.finalParameters()).hasSize(2);
  }

  @Test
  void run_twoMillionClients_tenPerRound_runsWithoutHoldingThePopulation() throws Exception {
    SimulationResult r = Simulation.builder(settings().clients(2_000_000).rounds(1)
        .dataset(DatasetSpec.parse("generated:40,3,1")).build()).build().run();

    assertThat(r.history().last().clients()).isEqualTo(30);
  }

  @Test
  void build_heldDataBeyondTheirLimit_refusedWhileGeneratedAccepted() {
    assertThatThrownBy(() -> SimulationSettings.builder().dataset(new DatasetSpec.SyntheticIid())
        .clients(SimulationSettings.MAX_CLIENTS + 1).build())
        .isInstanceOf(SettingException.class).hasMessageStartingWith("clients must be in");
    assertThat(settings().clients(SimulationSettings.MAX_GENERATED_CLIENTS).build().clients())
        .isEqualTo(10_000_000);
    assertThatThrownBy(() -> settings().clients(SimulationSettings.MAX_GENERATED_CLIENTS + 1)
        .build()).isInstanceOf(SettingException.class)
        .hasMessage("clients must be in [1, 10000000], got 10000001");
  }

  @Test
  void data_sameGeneratedPopulation_equalWithoutMakingClients() {
    GeneratedPopulation population = new GeneratedPopulation(30, 3, 2, 5);
    SimulationData a = SimulationData.generated(population, 5_000_000, ModelKind.MCLR);
    SimulationData b = SimulationData.generated(population, 5_000_000, ModelKind.MCLR);

    assertTimeoutPreemptively(Duration.ofSeconds(5), () -> {
      assertThat(a.clientTrain()).isEqualTo(b.clientTrain())
          .hasSameHashCodeAs(b.clientTrain())
          .isNotEqualTo(SimulationData.generated(population, 4_999_999, ModelKind.MCLR)
              .clientTrain());
      assertThat(a.toString()).contains("5000000 clients of GeneratedPopulation[");
    });
    assertThat(a.generated()).isTrue();
    assertThat(a.clientTrain().get(4_999_999).size()).isEqualTo(2);
  }

  @Test
  void parse_generatedForms_roundTripAndNamedErrors() {
    assertThat(DatasetSpec.parse("generated")).isEqualTo(DatasetSpec.Generated.DEFAULT);
    assertThat(DatasetSpec.parse(" Generated:99999,10,1 ").toString())
        .isEqualTo("generated:99999,10,1");
    assertThat(DatasetSpec.parse("generated:5,2,1").naturallyPartitioned()).isTrue();
    assertThatThrownBy(() -> DatasetSpec.parse("generated:5,2"))
        .hasMessageContaining("generated:FEATURES,CLASSES,EXAMPLES");
    assertThatThrownBy(() -> DatasetSpec.parse("generated:5,x,1"))
        .hasMessageContaining("'x' is not a whole number");
    assertThatThrownBy(() -> DatasetSpec.parse("generated:5,1,1"))
        .hasMessageContaining("at least 2 classes");
  }
}
