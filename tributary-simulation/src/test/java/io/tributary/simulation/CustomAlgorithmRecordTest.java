package io.tributary.simulation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.learning.FederatedAlgorithm;
import io.tributary.learning.aggregation.TrimmedMean;
import io.tributary.learning.serveropt.ServerSgd;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An algorithm composed in code: its parts recorded, a differing one refused on resume. */
class CustomAlgorithmRecordTest {
  @TempDir Path dir;

  private static SimulationSettings.Builder settings(double momentum, Path out) {
    FederatedAlgorithm mine = FederatedAlgorithm.of("mine", new ServerSgd(1, momentum))
        .withAggregator(new TrimmedMean(0.2));
    return SimulationSettings.builder().algorithm(mine).rounds(2)
        .localEpochs(1).threads(1).out(out);
  }

  @Test
  void toJson_customAlgorithm_recordsItsPartsAndTheCommandSaysItIsCodeOnly() {
    SimulationSettings s = settings(0.9, null).build();

    assertThat(s.toJson()).contains("\"algorithm_parts\": {\"mu\": \"0\", \"aggregator\": "
        + "\"TrimmedMean[beta=0.2]\", \"server_optimizer\": \"ServerSgd[learningRate=1.0, "
        + "momentum=0.9]\"}");
    assertThat(s.shellCommand()).endsWith("  # not repeatable from the command line, given in "
        + "code: the algorithm mine (composed in code)");
    assertThat(SimulationSettings.builder().build().shellCommand()).doesNotContain("#");
  }

  @Test
  void resume_customAlgorithmWithAnotherPart_refusedNamingThePart() throws Exception {
    Path out = dir.resolve("run");
    Simulation.builder(settings(0.9, out).build()).writeFiles().build().run();
    String metrics = Files.readString(out.resolve(RunFiles.METRICS));

    assertThatThrownBy(() -> Simulation.builder(settings(0.5, out).build()).writeFiles()
        .resume().build().run())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("resume: algorithm_parts.server_optimizer "
            + "\"ServerSgd[learningRate=1.0, momentum=0.5]\" differs from the run in " + out);
    assertThat(Files.readString(out.resolve(RunFiles.METRICS))).isEqualTo(metrics);
  }

  @Test
  void toJson_registryAlgorithmBuiltInCode_recordedByNameAndOptions() throws Exception {
    FederatedAlgorithm adam = FederatedAlgorithm.named("fedadam",
        java.util.Map.of("eta", 0.05, "beta_1", 0.8));
    SimulationSettings s = SimulationSettings.builder().algorithm(adam).build();

    assertThat(adam.registration()).isPresent();
    assertThat(s.toJson()).contains("\"algorithm\": \"fedadam\"")
        .contains("\"eta\": 0.05").contains("\"beta_1\": 0.8")
        .doesNotContain("algorithm_parts");
    assertThat(s.codeOnly()).isEmpty();
    assertThat(SimulationSettings.fromJson(s.toJson()).algorithm()).isEqualTo(adam);
  }

  @Test
  void registration_partChangedAfterTheRegistryBuiltIt_isComposed() {
    FederatedAlgorithm changed = FederatedAlgorithm.fedAvg().withAggregator(new TrimmedMean(0.1));

    assertThat(FederatedAlgorithm.fedAvg().registration()).isPresent();
    assertThat(changed.registration()).isEmpty();
    assertThat(SimulationSettings.builder().algorithm(changed).build().codeOnly())
        .containsExactly("the algorithm fedavg (composed in code)");
  }
}
