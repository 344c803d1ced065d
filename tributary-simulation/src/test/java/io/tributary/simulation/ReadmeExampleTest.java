package io.tributary.simulation;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.learning.FederatedAlgorithm;
import io.tributary.learning.rounds.RoundRecord;
import io.tributary.tensor.Tensor;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SequencedMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's library example, run: the README quotes this test's code (less the line that
 * moves the output into a temporary directory), and the test fails when the two drift apart.
 */
class ReadmeExampleTest {
  @TempDir Path dir;

  @Test
  void readmeExample_runs_andTheReadmeQuotesItVerbatim() throws Exception {
    Path runs = dir;
    SimulationSettings settings = SimulationSettings.builder()
        .algorithm(FederatedAlgorithm.named("fedprox")).mu(0.05).rounds(20).seed(7)
        .out(Path.of("runs/mine"))
        .build();
    settings = settings.withOut(runs.resolve("mine"));
    SimulationResult result = Simulation.builder(settings)
        .writeFiles()                                   // config.json ... report.html
        .listener(new SimulationListener() {            // one's own, e.g. to log elsewhere
          @Override
          public void roundEnded(RoundRecord r, SequencedMap<String, Tensor> model) {
            System.out.println(r.round() + " " + r.testAccuracy());
          }
        })
        .build().run();
    double accuracy = result.history().last().testAccuracy();

    assertThat(accuracy).isGreaterThan(0.8);
    assertThat(runs.resolve("mine").resolve(RunFiles.REPORT)).exists();
    String readme = Files.readString(Path.of("..", "README.md"), StandardCharsets.UTF_8);
    String source = Files.readString(
        Path.of("src/test/java/io/tributary/simulation/ReadmeExampleTest.java"),
        StandardCharsets.UTF_8);
    int from = source.indexOf("    SimulationSettings settings =");
    // Without the last line break: stripIndent counts a final empty line as unindented.
    int to = source.indexOf("\n", source.indexOf("    double accuracy ="));
    String quoted = source.substring(from, to)
        .replace("    settings = settings.withOut(runs.resolve(\"mine\"));\n", "");
    assertThat(readme).contains(quoted.stripIndent());
  }
}
