package io.tributary.format;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.tributary.tensor.Tensor;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SequencedMap;

/**
 * Fuzzes the model file reader, from the zip through its text entries and FlatBuffers headers to
 * every array: any bytes open and read in full, or fail with {@link ModelFormatException}.
 *
 * <p>A file that reads is saved again from what was read and must read back equal, tag by tag.
 */
class ModelFileFuzzTest {
  private static final Path DIR = tempDir();

  private static Path tempDir() {
    try {
      Path dir = Files.createTempDirectory("model-fuzz");
      dir.toFile().deleteOnExit();
      return dir;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @FuzzTest(maxDuration = "5s")
  void open(byte[] input) throws IOException {
    Path file = DIR.resolve("input.zip");
    Files.write(file, input);
    file.toFile().deleteOnExit();
    SequencedMap<String, Read> read = new LinkedHashMap<>();
    try (ModelFile m = ModelFile.open(file)) {
      for (ModelTag t : m.allTags()) {
        for (String p : t.parameterNames()) {
          assertThat(t.parameterInfo(p).name()).isEqualTo(p);
          assertThat(t.mapParameter(p)).isEqualTo(t.parameter(p));
        }
        read.put(t.name(), new Read(t.parameters(), t.updaterState(), t.trainingConfig(),
            t.graph().map(ModelFileFuzzTest::bytes).orElse(null)));
      }
    } catch (ModelFormatException e) {
      return;
    }
    Path again = DIR.resolve("again.zip");
    again.toFile().deleteOnExit();
    SequencedMap<String, TagContents> tags = new LinkedHashMap<>();
    for (Map.Entry<String, Read> e : read.entrySet()) {
      tags.put(e.getKey(), e.getValue().contents());
    }
    ModelWriter.save(again, tags);
    try (ModelFile m = ModelFile.open(again)) {
      assertThat(m.tags()).containsExactlyElementsOf(read.keySet());
      for (Map.Entry<String, Read> e : read.entrySet()) {
        ModelTag t = m.tag(e.getKey());
        Read r = e.getValue();
        assertThat(t.parameters()).containsExactlyEntriesOf(r.parameters());
        assertThat(t.updaterState()).containsExactlyEntriesOf(r.updater());
        assertThat(t.trainingConfig()).isEqualTo(r.config());
        assertThat(t.graph().map(ModelFileFuzzTest::bytes).orElse(null)).isEqualTo(r.graph());
      }
    }
  }

  private static byte[] bytes(ByteBuffer b) {
    byte[] out = new byte[b.remaining()];
    b.duplicate().get(out);
    return out;
  }

  /** What one tag held. */
  private record Read(SequencedMap<String, Tensor> parameters,
      SequencedMap<String, List<Tensor>> updater, TrainingConfig config, byte[] graph) {
    TagContents contents() {
      TagContents.Builder b = TagContents.builder().trainingConfig(config);
      parameters.forEach(b::parameter);
      updater.forEach(b::updaterState);
      if (graph != null) {
        b.graph(ByteBuffer.wrap(graph));
      }
      return b.build();
    }
  }
}
