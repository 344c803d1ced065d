package io.tributary.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class MainTest {

  @ParameterizedTest
  @ValueSource(strings = {"", "simulate", "inspect", "convert"})
  void help_everyCommand_printsUsageAndExitsZero(String command) {
    CliRun run = command.isEmpty() ? CliRun.of("--help") : CliRun.of(command, "--help");

    assertThat(run.exitCode()).isZero();
    assertThat(run.out()).startsWith("Usage: tributary" + (command.isEmpty() ? "" : " " + command));
    assertThat(run.err()).isEmpty();
  }

  @Test
  void version_printsProjectVersion() {
    CliRun run = CliRun.of("--version");

    assertThat(run.exitCode()).isZero();
    assertThat(run.out()).startsWith("tributary ").doesNotContain("${project.version}", "unknown");
  }

  @Test
  void noCommand_printsUsageOnStderrAndExitsTwo() {
    CliRun run = CliRun.of();

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains("Missing command").contains("Usage: tributary");
  }

  @Test
  void unknownCommand_exitsTwo() {
    CliRun run = CliRun.of("train");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains("train");
  }
}
