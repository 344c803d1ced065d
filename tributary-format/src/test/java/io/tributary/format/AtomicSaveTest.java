package io.tributary.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.tensor.Tensor;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.SequencedMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A save that dies at any point leaves the previous file exactly as it was. */
class AtomicSaveTest {
  private static final int PARAMS = 12;

  @TempDir Path dir;

  private Path previous(Path file) throws IOException {
    SequencedMap<String, TagContents> tags = new LinkedHashMap<>();
    tags.put("old", TagContents.builder().parameter("w", Samples.floats(5, 100, 10)).build());
    ModelWriter.save(file, tags);
    return file;
  }

  /**
   * Kills a writer process after it reports {@code afterEntries} entries: 1 is after the first
   * text entry, 8 in the middle of the arrays, 16 after the central directory is written but
   * before the fsync and rename.
   */
  @ParameterizedTest
  @ValueSource(ints = {1, 8, 16})
  void save_writerKilledPartway_previousFileIntactAndLoads(int afterEntries) throws Exception {
    Path file = previous(dir.resolve("model.zip"));
    byte[] before = Files.readAllBytes(file);
    String java = ProcessHandle.current().info().command().orElse("java");
    Process p = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
        SlowSaveMain.class.getName(), file.toString(), Integer.toString(PARAMS),
        Integer.toString(afterEntries))
        .redirectErrorStream(true).start();
    try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      int seen = 0;
      String line;
      while (seen < afterEntries && (line = r.readLine()) != null) {
        assertThat(line).as("writer output").startsWith("wrote ");
        seen++;
      }
      assertThat(seen).as("entries the writer reported before the kill").isEqualTo(afterEntries);
      try (var s = Files.list(dir)) {
        assertThat(s.map(f -> f.getFileName().toString())).as("a temporary file is being written")
            .anyMatch(n -> n.startsWith(".model.zip.") && n.endsWith(".tmp"));
      }
      p.destroyForcibly();
      assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
    } finally {
      p.destroyForcibly();
    }
    assertThat(Files.readAllBytes(file)).isEqualTo(before);
    try (ModelFile m = ModelFile.open(file)) {
      assertThat(m.tags()).containsExactly("old");
      assertThat(m.newest().parameter("w")).isEqualTo(Samples.floats(5, 100, 10));
    }
    // The stray temporary file does not get in the way of the next save, which removes it.
    SequencedMap<String, TagContents> next = new LinkedHashMap<>();
    next.put("next", TagContents.builder().parameter("v", Samples.floats(6, 3)).build());
    ModelWriter.save(file, next);
    try (ModelFile m = ModelFile.open(file)) {
      assertThat(m.tags()).containsExactly("next");
    }
    try (var s = Files.list(dir)) {
      assertThat(s.map(f -> f.getFileName().toString())).as("temporary files after the next save")
          .noneMatch(n -> n.endsWith(".tmp"));
    }
  }

  @Test
  void save_writerCompletes_replacesFile() throws Exception {
    Path file = previous(dir.resolve("model.zip"));
    String java = ProcessHandle.current().info().command().orElse("java");
    Process p = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
        SlowSaveMain.class.getName(), file.toString(), "2", "0").redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(out).endsWith("done" + System.lineSeparator());
    try (ModelFile m = ModelFile.open(file)) {
      assertThat(m.tags()).containsExactly("new");
      assertThat(m.newest().parameter("p1")).isEqualTo(Samples.floats(1001, 256, 1024));
    }
  }

  @Test
  void save_failingPartway_previousFileIntactAndNoTemporaryLeft() throws IOException {
    Path file = previous(dir.resolve("model.zip"));
    byte[] before = Files.readAllBytes(file);
    SequencedMap<String, TagContents> tags = new LinkedHashMap<>();
    tags.put("new", TagContents.builder().parameter("a", Samples.floats(1, 1000)).parameter("b", Samples.floats(2, 1000)).build());
    assertThatThrownBy(() -> ModelWriter.save(file, tags, (entry, bytes) -> {
      if (entry.endsWith("params/1.fb")) {
        throw new UncheckedIOException(new IOException("disk full (simulated)"));
      }
    })).isInstanceOf(UncheckedIOException.class);
    assertThat(Files.readAllBytes(file)).isEqualTo(before);
    try (var s = Files.list(dir)) {
      assertThat(s.map(f -> f.getFileName().toString()).toList()).isEqualTo(List.of("model.zip"));
    }
    ModelWriter.addTag(file, "more", TagContents.builder().parameter("x", Tensor.scalar(1f)).build());
    assertThatThrownBy(() -> ModelWriter.addTag(file, "evenMore", TagContents.builder().parameter("y", Tensor.scalar(2f)).build(),
        (entry, bytes) -> {
          throw new UncheckedIOException(new IOException("crash (simulated)"));
        })).isInstanceOf(UncheckedIOException.class);
    try (ModelFile m = ModelFile.open(file)) {
      assertThat(m.tags()).containsExactly("old", "more");
    }
  }
}
