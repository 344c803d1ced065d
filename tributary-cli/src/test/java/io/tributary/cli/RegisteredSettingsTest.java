package io.tributary.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.format.ModelWriter;
import io.tributary.simulation.RunFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the one schema and the one registry give the command line: a registered algorithm with
 * {@code --hp}, any setting with {@code --set}, both recorded in config.json and read back by
 * {@code --resume} from it.
 */
@Timeout(300)
class RegisteredSettingsTest {
  private static final List<String> SMALL = List.of("--clients", "6", "--clients-per-round",
      "3", "--rounds", "4", "--local-epochs", "1", "--checkpoint-every", "2", "--threads", "2");

  @TempDir Path dir;

  private static CliRun simulate(Path out, String... more) {
    List<String> args = new ArrayList<>(List.of("simulate"));
    args.addAll(SMALL);
    args.addAll(List.of(more));
    args.addAll(List.of("--out", out.toString()));
    return CliRun.of(args.toArray(String[]::new));
  }

  @Test
  void simulate_registeredAlgorithmWithHp_recordedAndResumedFromConfig() throws Exception {
    Path whole = dir.resolve("whole");
    CliRun run = simulate(whole, "--algorithm", "stepmedian", "--hp", "step=0.25");
    assertThat(run.exitCode()).as(run.err()).isZero();
    String config = Files.readString(whole.resolve(RunFiles.CONFIG));
    assertThat(config).contains("\"algorithm\": \"stepmedian\"")
        .contains("\"algorithm_options\": {\"step\": 0.25}")
        .contains("--algorithm stepmedian").contains("--hp step=0.25");

    // The run as a kill after round 2 leaves it: resume reads the algorithm from config.json.
    Path killed = dir.resolve("killed");
    Files.createDirectories(killed);
    for (String f : List.of(RunFiles.CONFIG, RunFiles.CLIENTS, RunFiles.MODEL, RunFiles.METRICS)) {
      Files.copy(whole.resolve(f), killed.resolve(f));
    }
    ModelWriter.deleteTag(killed.resolve(RunFiles.MODEL), "round-0004");
    List<String> metrics = Files.readAllLines(killed.resolve(RunFiles.METRICS));
    Files.write(killed.resolve(RunFiles.METRICS), metrics.subList(0, 2));

    CliRun resumed = CliRun.of("simulate", "--resume", killed.toString(), "--threads", "1");

    assertThat(resumed.exitCode()).as(resumed.err()).isZero();
    assertThat(resumed.err()).contains("resuming after round 2");
    assertThat(Files.readAllBytes(killed.resolve(RunFiles.FINAL)))
        .isEqualTo(Files.readAllBytes(whole.resolve(RunFiles.FINAL)));
  }

  /**
   * The measure of a new aggregation rule: {@code ClampedMeanSpec} is one class, its
   * registration one line of the service file; nothing else names it, yet {@code simulate} runs
   * it by name with {@code --hp}, lists it, records it and its bound refuses values out of range.
   */
  @Test
  void simulate_newRuleOfOneClassAndOneLine_runsByNameWithHp() throws Exception {
    Path out = dir.resolve("clamped");
    CliRun run = simulate(out, "--algorithm", "clampedmean", "--hp", "bound=0.05");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(Files.readString(out.resolve(RunFiles.CONFIG)))
        .contains("\"algorithm\": \"clampedmean\"")
        .contains("\"algorithm_options\": {\"bound\": 0.05}");
    assertThat(Files.readAllLines(out.resolve(RunFiles.METRICS))).hasSize(4);
    CliRun loose = simulate(dir.resolve("loose"), "--algorithm", "clampedmean", "--hp",
        "bound=1000");
    assertThat(loose.exitCode()).as(loose.err()).isZero();
    // A bound that clamps changes the model; one that never binds is the plain mean's.
    assertThat(Files.readAllBytes(out.resolve(RunFiles.FINAL)))
        .isNotEqualTo(Files.readAllBytes(dir.resolve("loose").resolve(RunFiles.FINAL)));
    CliRun help = CliRun.of("simulate", "--help");
    assertThat(help.out() + help.err()).contains("clampedmean");
    CliRun bad = simulate(dir.resolve("bad"), "--algorithm", "clampedmean", "--hp", "bound=0");
    assertThat(bad.exitCode()).isEqualTo(2);
    assertThat(bad.err()).isEqualTo("tributary simulate: clampedmean: bound must be in (0, inf), "
        + "got 0.0" + System.lineSeparator());
  }

  @Test
  void simulate_hpOutOfRange_oneLineNamingAlgorithmAndRange() {
    CliRun run = simulate(dir.resolve("x"), "--algorithm", "stepmedian", "--hp", "step=2");
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).isEqualTo("tributary simulate: stepmedian: step must be in (0, 1], "
        + "got 2.0" + System.lineSeparator());
  }

  @Test
  void simulate_setKey_sameRunAsItsOwnFlag() throws Exception {
    CliRun a = simulate(dir.resolve("flag"), "--batch-size", "8", "--lr", "0.05");
    CliRun b = simulate(dir.resolve("set"), "--set", "batch_size=8", "--set", "lr=0.05");
    assertThat(a.exitCode()).as(a.err()).isZero();
    assertThat(b.exitCode()).as(b.err()).isZero();
    assertThat(Files.readAllBytes(dir.resolve("set").resolve(RunFiles.FINAL)))
        .isEqualTo(Files.readAllBytes(dir.resolve("flag").resolve(RunFiles.FINAL)));
  }

  @Test
  void simulate_setUnknownOrBadKey_oneLineNamingIt() {
    CliRun unknown = simulate(dir.resolve("u"), "--set", "roundz=3");
    assertThat(unknown.exitCode()).isEqualTo(2);
    assertThat(unknown.err()).startsWith("tributary simulate: --set unknown setting 'roundz'; "
        + "the settings are the keys of config.json: algorithm, dataset,");
    CliRun bad = simulate(dir.resolve("b"), "--set", "rounds=many");
    assertThat(bad.exitCode()).isEqualTo(2);
    assertThat(bad.err()).isEqualTo("tributary simulate: --set rounds must be a 32-bit "
        + "integer, got \"many\"" + System.lineSeparator());
    CliRun recorded = simulate(dir.resolve("r"), "--set", "command=x");
    assertThat(recorded.err()).isEqualTo("tributary simulate: --set command is recorded, not "
        + "set" + System.lineSeparator());
  }

  @Test
  void simulate_kernel_recordedAsASettingAndRepeated() throws Exception {
    Path java = dir.resolve("java");
    CliRun plain = simulate(java);
    assertThat(plain.exitCode()).as(plain.err()).isZero();
    String config = Files.readString(java.resolve(RunFiles.CONFIG));
    assertThat(config).contains("\"kernel\": \"java\"").doesNotContain("--kernel");

    CliRun bad = simulate(dir.resolve("bad"), "--kernel", "cuda");
    assertThat(bad.exitCode()).isEqualTo(2);
    assertThat(bad.err()).startsWith("tributary simulate: 'cuda' names no matrix kernel");

    CliRun edited = simulate(dir.resolve("edited"), "--set", "kernel=fast");
    assertThat(edited.exitCode()).isEqualTo(2);
    assertThat(edited.err()).isEqualTo("tributary simulate: --set kernel must be java or "
        + "openblas, got 'fast'" + System.lineSeparator());
  }
}
