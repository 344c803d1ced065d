package io.tributary.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** simulate --engine: parsed by the CLI, run by an engine the CLI does not depend on. */
class SimulateEngineTest {
  @TempDir Path dir;

  @Test
  void aSparkEngineWithoutTributarySpark_stopsWithOneLine() {
    CliRun run = SimulateCommandTest.simulate(dir.resolve("run"), "--engine",
        "spark://127.0.0.1:1", "--rounds", "1");
    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.err()).contains("tributary simulate: Could not start the engine "
        + "spark://127.0.0.1:1: the engine spark://127.0.0.1:1 needs tributary-spark on the class "
        + "path");
    assertThat(run.err().lines().filter(l -> l.startsWith("tributary simulate:"))).hasSize(1);
  }

  @Test
  void badEngineValues_areUsageErrors() {
    CliRun yarn = SimulateCommandTest.simulate(dir.resolve("a"), "--engine", "yarn");
    assertThat(yarn.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
    assertThat(yarn.err()).contains("--engine must be local, local[N] or spark://HOST:PORT");
    CliRun conf = SimulateCommandTest.simulate(dir.resolve("b"), "--spark-conf", "a=b");
    assertThat(conf.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
    assertThat(conf.err()).contains("--spark-conf applies only to a Spark engine");
  }
}
