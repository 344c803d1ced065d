package io.tributary.flower.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.format.TrainingConfig;
import io.tributary.learning.rounds.RoundRecord;
import io.tributary.learning.rounds.output.RoundCheckpoints;
import io.tributary.learning.rounds.output.RunFileException;
import io.tributary.learning.rounds.output.RunIdentity;
import io.tributary.learning.rounds.output.RunLock;
import io.tributary.tensor.Tensor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SequencedMap;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A server's resume that cannot be fooled: another kind of run's checkpoint, another server
 * run's settings, a second writer and a directory holding another run are refused in one line
 * before anything is written.
 */
class ServerResumeGuardTest {
  @TempDir Path dir;

  private static RunIdentity identity(long seed) {
    SequencedMap<String, String> s = new LinkedHashMap<>();
    s.put("algorithm", "fedavg");
    return new RunIdentity(ServerConfig.RUN_KIND, s, seed);
  }

  /** Three rounds of a server run with {@code identity} in {@link #dir}. */
  private void threeRounds(RunIdentity identity) throws IOException {
    try (ServerRunFiles out = ServerRunFiles.builder(dir, 5).identity(identity).build()) {
      for (int r = 1; r <= 3; r++) {
        SequencedMap<String, Tensor> model = new LinkedHashMap<>();
        model.put("w", Tensor.scalar((float) r));
        out.roundEnded(RoundRecord.federated(r, 0.5, 0.5, 1, 10, 0, 1.0, 10, 20, List.of(), 0,
            new TreeMap<>()), model);
      }
    }
  }

  private static Map<String, String> snapshot(Path run) throws IOException {
    Map<String, String> out = new TreeMap<>();
    try (Stream<Path> files = Files.list(run)) {
      for (Path f : files.toList()) {
        out.put(f.getFileName().toString(), Arrays.toString(Files.readAllBytes(f)));
      }
    }
    return out;
  }

  @Test
  void build_resumeWithAnotherRunsSeed_refusedNamingItAndTheFolderUnchanged() throws Exception {
    threeRounds(identity(7));
    Map<String, String> before = snapshot(dir);

    assertThatThrownBy(() -> ServerRunFiles.builder(dir, 5).identity(identity(8))
        .resumedAfter(2).build())
        .isInstanceOf(RunFileException.class)
        .hasMessage("model.zip tag round-0003 is a checkpoint of another run: seed 8 here, 7 in "
            + "the checkpoint (resume with that run's folder, or start a new run)");
    assertThat(snapshot(dir)).isEqualTo(before);
    // The same identity resumes, cutting metrics.jsonl back to the resumed round.
    try (ServerRunFiles out = ServerRunFiles.builder(dir, 5).identity(identity(7))
        .resumedAfter(2).build()) {
      assertThat(Files.readAllLines(dir.resolve("metrics.jsonl"))).hasSize(2);
    }
  }

  @Test
  void build_whileAnotherWriterHoldsTheFolder_refusedInOneLineAndTheFolderUnchanged()
      throws Exception {
    threeRounds(identity(7));
    try (RunLock held = RunLock.acquire(dir)) {
      Map<String, String> before = snapshot(dir);

      assertThatThrownBy(() -> ServerRunFiles.builder(dir, 5).identity(identity(7))
          .resumedAfter(3).build())
          .isInstanceOf(RunFileException.class)
          .hasMessage(dir + " is being written by another process (it holds .lock); wait for "
              + "that run to end, or use another directory");
      assertThat(snapshot(dir)).isEqualTo(before);
    }
  }

  @Test
  void resume_checkpointOfASimulateRun_refusedAsAnotherKind() throws Exception {
    SequencedMap<String, Tensor> model = new LinkedHashMap<>();
    model.put("w", Tensor.scalar(1f));
    new RoundCheckpoints(dir.resolve(RoundCheckpoints.FILE), 3).write(2, model,
        TrainingConfig.of("", new LinkedHashMap<>()).withProperties(new RunIdentity("simulate",
            new LinkedHashMap<>(), 1).properties()), null);

    assertThatThrownBy(() -> InitialParameters.resume(dir))
        .isInstanceOf(RunFileException.class)
        .hasMessage("model.zip tag round-0002 is a checkpoint of a tributary simulate run, not "
            + "of a server run: resume it with the command that wrote it");
  }

  @Test
  void build_newRunInAFolderHoldingASimulateRun_refusedBeforeWriting() throws Exception {
    Files.writeString(dir.resolve("config.json"), "{}");
    Map<String, String> before = snapshot(dir);

    assertThatThrownBy(() -> ServerRunFiles.builder(dir, 5).build())
        .isInstanceOf(RunFileException.class)
        .hasMessage(dir + " holds a tributary simulate run already (config.json); choose "
            + "another directory");
    assertThat(snapshot(dir)).isEqualTo(before);
  }

  @Test
  void requireSame_editedSettings_refusedAsChangedAfterWriting() throws Exception {
    SequencedMap<String, String> props = new LinkedHashMap<>(identity(7).properties());
    props.put(RunIdentity.SETTINGS, "algorithm=fedprox\n");
    TrainingConfig edited = TrainingConfig.of("", new LinkedHashMap<>()).withProperties(props);

    assertThatThrownBy(() -> identity(7).requireSame("round-0001", edited))
        .isInstanceOf(RunFileException.class)
        .hasMessageContaining("is not the hash of its settings");
  }
}
