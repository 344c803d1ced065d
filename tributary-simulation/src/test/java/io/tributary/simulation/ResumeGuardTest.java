package io.tributary.simulation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.format.ModelFile;
import io.tributary.learning.rounds.output.RunFileException;
import io.tributary.learning.rounds.output.RunLock;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A resume that cannot be fooled: another run's checkpoint, a second writer, a damaged older
 * checkpoint are each refused in one line before anything is written, and the run's folder is
 * left byte for byte as it was.
 */
class ResumeGuardTest {
  @TempDir Path dir;

  private static SimulationSettings.Builder small() {
    return SimulationSettings.builder().model(ModelKind.MCLR).clients(5).clientsPerRound(3)
        .rounds(4).seed(3).threads(2).checkpointEvery(1);
  }

  /** A run of {@link #small} stopped after round 3 in {@code run}. */
  private Path stopped(String name) {
    Path run = dir.resolve(name);
    assertThatThrownBy(() -> Simulation.builder(small().out(run).build()).writeFiles()
        .listener(SimulationTest.stopAfter(3)).build().run()).hasMessage("stopped on purpose");
    return run;
  }

  /** Every file of {@code run} with its bytes. */
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
  void resume_checkpointOfAnotherRun_refusedNamingWhatDiffersAndTheFolderUnchanged()
      throws Exception {
    Path run = stopped("run");
    Path other = dir.resolve("other");
    Simulation.builder(small().model(ModelKind.MLP).seed(4).out(other).build()).writeFiles()
        .build().run();
    Files.copy(other.resolve(RunFiles.MODEL), run.resolve(RunFiles.MODEL),
        StandardCopyOption.REPLACE_EXISTING);
    Map<String, String> before = snapshot(run);

    assertThatThrownBy(() -> Simulation.builder(small().out(run).build()).writeFiles()
        .resume().build().run())
        .isInstanceOf(RunFileException.class)
        .hasMessageContaining("is a checkpoint of another run")
        .hasMessageContaining("seed 3 here, 4 in the checkpoint")
        .hasMessageContaining("model \"mclr\" here, \"mlp\" in the checkpoint")
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    assertThat(snapshot(run)).isEqualTo(before);
  }

  @Test
  void resume_whileAnotherWriterHoldsTheFolder_refusedInOneLineAndTheFolderUnchanged()
      throws Exception {
    Path run = stopped("run");
    try (RunLock held = RunLock.acquire(run)) {
      Map<String, String> before = snapshot(run);

      assertThatThrownBy(() -> Simulation.builder(small().out(run).build()).writeFiles()
          .resume().build().run())
          .isInstanceOf(RunFileException.class)
          .hasMessage(run + " is being written by another process (it holds .lock); wait for "
              + "that run to end, or use another directory");
      assertThat(snapshot(run)).isEqualTo(before);
    }
    // Once the other writer is done, the run resumes and ends.
    SimulationResult r = Simulation.builder(small().out(run).build()).writeFiles().resume()
        .build().run();
    assertThat(r.resumedAfter()).isEqualTo(3);
    assertThat(Files.readAllLines(run.resolve(RunFiles.METRICS))).hasSize(4);
  }

  @Test
  void resume_damagedOlderCheckpoint_refusedBeforeWritingAndTheFolderUnchanged()
      throws Exception {
    Path run = stopped("run");
    Path model = run.resolve(RunFiles.MODEL);
    float[] first;
    try (ModelFile m = ModelFile.open(model)) {
      first = m.tag("round-0001").parameters().values().iterator().next().toFloatArray();
    }
    ByteBuffer b = ByteBuffer.allocate(64).order(ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; i < 16; i++) {
      b.putFloat(first[i]);
    }
    byte[] bytes = Files.readAllBytes(model);
    int at = indexOf(bytes, b.array());
    assertThat(at).isPositive();
    bytes[at + 30] ^= 0x10;
    Files.write(model, bytes);
    Map<String, String> before = snapshot(run);

    assertThatThrownBy(() -> Simulation.builder(small().out(run).build()).writeFiles()
        .resume().build().run()).isInstanceOf(IOException.class);
    assertThat(snapshot(run)).isEqualTo(before);
  }

  @Test
  void resume_twoWritersInOneProcess_secondRefused() throws Exception {
    Path run = stopped("run");
    try (RunLock a = RunLock.acquire(run)) {
      assertThatThrownBy(() -> RunLock.acquire(run)).isInstanceOf(RunFileException.class)
          .hasMessageContaining("being written by another process");
    }
    try (RunLock again = RunLock.acquire(run)) {
      assertThat(run.resolve(RunLock.FILE)).exists();
    }
  }

  private static int indexOf(byte[] hay, byte[] needle) {
    outer:
    for (int i = 0; i + needle.length <= hay.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (hay[i + j] != needle[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }
}
