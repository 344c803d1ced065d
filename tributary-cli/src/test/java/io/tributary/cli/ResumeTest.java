package io.tributary.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.format.ModelAppender;
import io.tributary.format.ModelFile;
import io.tributary.format.ModelTag;
import io.tributary.format.ModelWriter;
import io.tributary.format.TagContents;
import io.tributary.simulation.RunFiles;
import io.tributary.tensor.Tensor;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code simulate --resume}: a run killed at any point goes on from its last checkpoint and ends
 * with the files of an uninterrupted run (every figure but the seconds each round took).
 */
@Timeout(600)
class ResumeTest {
  private static final List<String> SETTINGS = List.of("--clients", "6", "--clients-per-round",
      "3", "--rounds", "24", "--local-epochs", "1", "--checkpoint-every", "4", "--threads", "2");

  @TempDir static Path shared;
  private static Path uninterrupted;

  @TempDir Path dir;

  @BeforeAll
  static void runUninterrupted() {
    uninterrupted = shared.resolve("uninterrupted");
    CliRun run = simulate(uninterrupted);
    assertThat(run.exitCode()).as(run.err()).isZero();
  }

  private static CliRun simulate(Path out, String... more) {
    List<String> args = new ArrayList<>(List.of("simulate"));
    args.addAll(SETTINGS);
    args.addAll(List.of("--out", out.toString()));
    args.addAll(List.of(more));
    return CliRun.of(args.toArray(String[]::new));
  }

  @Test
  void resume_runKilledDuringTraining_endsAsTheUninterruptedRun() throws Exception {
    Path run = dir.resolve("killed");
    // The child runs with this JVM's options, so that it picks the same kernels (native access
    // decides whether OpenBLAS is used) and its rounds are the bits this JVM would compute.
    List<String> cmd = new ArrayList<>();
    cmd.add(ProcessHandle.current().info().command().orElse("java"));
    cmd.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
    cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), Main.class.getName(),
        "simulate"));
    cmd.addAll(SETTINGS);
    cmd.addAll(List.of("--out", run.toString()));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true)
        .redirectOutput(dir.resolve("killed.log").toFile()).start();
    try {
      // Kill it (as kill -9 would) once it has passed its second checkpoint.
      long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(4);
      while (lines(run.resolve(RunFiles.METRICS)) < 10 && p.isAlive()
          && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
    } finally {
      p.destroyForcibly().waitFor();
    }
    int done = lines(run.resolve(RunFiles.METRICS));
    assertThat(done).as("rounds finished before the kill").isBetween(8, 23);
    assertThat(Files.exists(run.resolve(RunFiles.FINAL))).isFalse();

    CliRun resumed = CliRun.of("simulate", "--resume", run.toString());

    assertThat(resumed.exitCode()).as(resumed.err()).isZero();
    assertThat(resumed.err()).contains("resuming after round");
    assertSameRun(run);
  }

  @Test
  void resume_runKilledDuringACheckpointWrite_endsAsTheUninterruptedRun() throws Exception {
    // The files a run leaves when killed while writing its round-12 checkpoint: model.zip still
    // ends at round 8 beside the half-written temporary file, metrics.jsonl has gone on to round
    // 13 and half of round 14, and nothing of the end exists.
    Path run = dir.resolve("killed-writing");
    copy(uninterrupted, run);
    Path model = run.resolve(RunFiles.MODEL);
    for (String tag : List.of("round-0024", "round-0020", "round-0016", "round-0012")) {
      ModelWriter.deleteTag(model, tag);
    }
    Files.write(run.resolve(".model.zip.0b7c44a1-2f5e-4c4e-9d41-3f0c6a1e9b2d.tmp"),
        Files.readAllBytes(model), StandardOpenOption.CREATE_NEW);
    List<String> metrics = Files.readAllLines(run.resolve(RunFiles.METRICS));
    Files.writeString(run.resolve(RunFiles.METRICS), String.join("\n", metrics.subList(0, 13))
        + "\n" + metrics.get(13).substring(0, 40), StandardCharsets.UTF_8);
    Files.delete(run.resolve(RunFiles.FINAL));
    Files.delete(run.resolve(RunFiles.REPORT));

    CliRun resumed = CliRun.of("simulate", "--resume", run.toString(), "--threads", "1");

    assertThat(resumed.exitCode()).as(resumed.err()).isZero();
    assertThat(resumed.err()).contains("resuming after round 8");
    assertSameRun(run);
    assertThat(Files.list(run).map(f -> f.getFileName().toString()))
        .noneMatch(n -> n.endsWith(".tmp"));
  }

  @Test
  void resume_runKilledDuringAnAddedCheckpoint_endsAsTheUninterruptedRun() throws Exception {
    // The files a run leaves when killed while adding its round-12 checkpoint in place: model.zip
    // half overwritten from round 8's tail on, with the journal of that tail beside it.
    Path run = dir.resolve("killed-adding");
    copy(uninterrupted, run);
    Path model = run.resolve(RunFiles.MODEL);
    TagContents round12;
    try (ModelFile m = ModelFile.open(model)) {
      ModelTag t = m.tag("round-0012");
      round12 = TagContents.builder().parameter(t.parameterNames().get(0),
          t.parameter(t.parameterNames().get(0))).trainingConfig(t.trainingConfig()).build();
    }
    for (String tag : List.of("round-0024", "round-0020", "round-0016", "round-0012")) {
      ModelWriter.deleteTag(model, tag);
    }
    ModelAppender appender = ModelAppender.open(model);
    try {
      appender.addTag("round-0012", round12, (entry, bytes) -> {
        if (entry.endsWith("params/0.fb")) {
          throw new Killed();
        }
      });
    } catch (Killed expected) {
      // As kill -9 would leave it: no rollback ran.
    } finally {
      appender.close();
    }
    assertThat(Files.list(run).map(f -> f.getFileName().toString())).contains(".model.zip.journal");
    List<String> metrics = Files.readAllLines(run.resolve(RunFiles.METRICS));
    Files.writeString(run.resolve(RunFiles.METRICS), String.join("\n", metrics.subList(0, 11))
        + "\n", StandardCharsets.UTF_8);
    Files.delete(run.resolve(RunFiles.FINAL));
    Files.delete(run.resolve(RunFiles.REPORT));

    CliRun resumed = CliRun.of("simulate", "--resume", run.toString(), "--threads", "1");

    assertThat(resumed.exitCode()).as(resumed.err()).isZero();
    assertThat(resumed.err()).contains("resuming after round 8");
    assertSameRun(run);
    assertThat(Files.list(run).map(f -> f.getFileName().toString()))
        .noneMatch(n -> n.endsWith(".journal"));
  }

  /** What a kill does to a writer: it stops, and nothing after runs. */
  private static final class Killed extends Error {
    Killed() {
      super("killed");
    }
  }

  @Test
  void resume_withDifferentSettings_isRefusedNamingTheDifference() throws Exception {
    Path run = dir.resolve("other");
    copy(uninterrupted, run);

    CliRun resumed = CliRun.of("simulate", "--resume", run.toString(), "--rounds", "30");

    assertThat(resumed.exitCode()).isEqualTo(2);
    assertThat(resumed.err()).isEqualTo("tributary simulate: --resume: --rounds 30 differs from"
        + " the run in " + run + ", which has --rounds 24 (resume with the run's settings, or"
        + " start a new run)" + System.lineSeparator());
  }

  @Test
  void resume_directoryWithoutARun_exitsTwoWithOneLine() {
    CliRun resumed = CliRun.of("simulate", "--resume", dir.toString());

    assertThat(resumed.exitCode()).isEqualTo(2);
    assertThat(resumed.err().lines()).singleElement().asString()
        .contains(dir.toString()).contains("holds no run to resume");
  }

  /** The run in {@code run} wrote what the uninterrupted run wrote. */
  private static void assertSameRun(Path run) throws IOException {
    assertThat(Files.readAllBytes(run.resolve(RunFiles.FINAL)))
        .isEqualTo(Files.readAllBytes(uninterrupted.resolve(RunFiles.FINAL)));
    assertThat(withoutSeconds(run.resolve(RunFiles.METRICS)))
        .isEqualTo(withoutSeconds(uninterrupted.resolve(RunFiles.METRICS)));
    assertThat(checkpoints(run)).isEqualTo(checkpoints(uninterrupted));
    assertThat(Files.exists(run.resolve(RunFiles.REPORT))).isTrue();
  }

  private static Map<String, Map<String, Tensor>> checkpoints(Path run) throws IOException {
    Map<String, Map<String, Tensor>> out = new LinkedHashMap<>();
    try (ModelFile m = ModelFile.open(run.resolve(RunFiles.MODEL))) {
      for (String tag : m.tags()) {
        out.put(tag, m.tag(tag).parameters());
      }
    }
    return out;
  }

  private static List<String> withoutSeconds(Path metrics) throws IOException {
    return Files.readAllLines(metrics).stream()
        .map(l -> l.replaceAll("\"seconds\": [^,]+, ", "")).toList();
  }

  private static int lines(Path file) throws IOException {
    if (!Files.exists(file)) {
      return 0;
    }
    return (int) Files.readString(file).chars().filter(c -> c == '\n').count();
  }

  private static void copy(Path from, Path to) throws IOException {
    Files.createDirectories(to);
    try (var files = Files.list(from)) {
      for (Path f : files.toList()) {
        Files.copy(f, to.resolve(f.getFileName()));
      }
    }
  }
}
