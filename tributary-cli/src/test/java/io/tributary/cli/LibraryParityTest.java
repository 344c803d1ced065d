package io.tributary.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.learning.FederatedAlgorithm;
import io.tributary.simulation.ModelKind;
import io.tributary.simulation.RunFiles;
import io.tributary.simulation.Simulation;
import io.tributary.simulation.SimulationResult;
import io.tributary.simulation.SimulationSettings;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.npy.Npz;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tributary simulate} and the library's {@link Simulation} with the same settings give the
 * same bits: the CLI only parses flags.
 */
class LibraryParityTest {
  @TempDir Path dir;

  @Test
  void simulate_sameSettingsFromCodeAndFromCli_sameFinalModelAndMetrics() throws Exception {
    Path cli = dir.resolve("cli");
    CliRun run = CliRun.of("simulate", "--algorithm", "fedprox", "--mu", "0.05", "--model",
        "mclr", "--clients", "6", "--clients-per-round", "3", "--rounds", "4", "--partition",
        "dirichlet:0.5", "--seed", "11", "--threads", "3", "--checkpoint-every", "2", "--out",
        cli.toString());
    assertThat(run.exitCode()).as(run.err()).isZero();

    Path lib = dir.resolve("lib");
    SimulationSettings settings = SimulationSettings.builder().algorithm(FederatedAlgorithm.named("fedprox"))
        .mu(0.05).model(ModelKind.MCLR).clients(6).clientsPerRound(3).rounds(4)
        .partition("dirichlet:0.5").seed(11).threads(1).checkpointEvery(2).out(lib).build();
    SimulationResult result = Simulation.builder(settings).writeFiles().build().run();

    assertThat(Files.readAllBytes(lib.resolve(RunFiles.FINAL)))
        .isEqualTo(Files.readAllBytes(cli.resolve(RunFiles.FINAL)));
    assertThat(withoutSeconds(lib.resolve(RunFiles.METRICS)))
        .isEqualTo(withoutSeconds(cli.resolve(RunFiles.METRICS)));
    Map<String, Tensor> written = Npz.read(cli.resolve(RunFiles.FINAL));
    assertThat(result.finalParameters()).isEqualTo(written);
    assertThat(result.history().size()).isEqualTo(4);
    assertThat(result.history().last().testAccuracy())
        .isEqualTo(SimulateCommandTest.number(SimulateCommandTest.metrics(cli).get(3),
            "test_accuracy"));
  }

  private static List<String> withoutSeconds(Path metrics) throws IOException {
    return Files.readAllLines(metrics).stream()
        .map(l -> l.replaceAll("\"seconds\": [^,]+, ", "")).toList();
  }
}
