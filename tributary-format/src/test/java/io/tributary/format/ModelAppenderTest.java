package io.tributary.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.format.internal.ZipArchive;
import io.tributary.format.internal.ZipEntryRecord;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ModelAppenderTest {
  @TempDir Path dir;

  private static TagContents round(int i) {
    return TagContents.builder()
        .parameter("w", Samples.floats(i, 64, 32)).parameter("b", Samples.floats(100 + i, 32))
        .updaterState("w", List.of(Samples.floats(200 + i, 64, 32), Samples.floats(300 + i, 64, 32)))
        .trainingConfig(ModelRoundTripTest.adam().withProgress(0, 0, i))
        .build();
  }

  private Path first() throws IOException {
    Path file = dir.resolve("model.zip");
    ModelWriter.save(file, Map.of("r1", round(1)));
    return file;
  }

  @Test
  void addTag_severalTags_readBackAsModelWriterWritesThem() throws IOException {
    Path file = first();
    Path reference = dir.resolve("reference.zip");
    ModelWriter.save(reference, Map.of("r1", round(1)));
    try (ModelAppender a = ModelAppender.open(file)) {
      for (int i = 2; i <= 5; i++) {
        a.addTag("r" + i, round(i));
        ModelWriter.addTag(reference, "r" + i, round(i));
      }
      a.addTag("shared", TagContents.builder().sharedParameter("w", "r2").build());
      ModelWriter.addTag(reference, "shared", TagContents.builder().sharedParameter("w", "r2").build());
      assertThat(a.tags()).containsExactly("r1", "r2", "r3", "r4", "r5", "shared");
    }
    try (ModelFile m = ModelFile.open(file); ModelFile r = ModelFile.open(reference)) {
      assertThat(m.tags()).isEqualTo(r.tags());
      for (String t : r.tags()) {
        assertThat(m.tag(t).parameters()).isEqualTo(r.tag(t).parameters());
        assertThat(m.tag(t).updaterState()).isEqualTo(r.tag(t).updaterState());
        assertThat(m.tag(t).trainingConfig()).isEqualTo(r.tag(t).trainingConfig());
      }
    }
    assertThat(ModelAppender.journalOf(file)).doesNotExist();
  }

  @Test
  void addTag_earlierTagDamagedAfterOpen_neverReadsIt() throws IOException {
    Path file = first();
    try (ModelAppender a = ModelAppender.open(file)) {
      a.addTag("r2", round(2));
      // Scribble over r1's training configuration: a writer that re-read or re-checked the
      // earlier tags to add one would now fail.
      damage(file, "r1/trainingConfig.fb");
      a.addTag("r3", round(3));
    }
    assertThatThrownBy(() -> ModelFile.open(file)).isInstanceOf(ModelFormatException.class);
    assertThatThrownBy(() -> ModelWriter.addTag(file, "r4", round(4)))
        .isInstanceOf(ModelFormatException.class);
  }

  @Test
  void addTag_existingTagIgnoringCase_refused() throws IOException {
    Path file = first();
    try (ModelAppender a = ModelAppender.open(file)) {
      assertThatThrownBy(() -> a.addTag("R1", round(2)))
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("already has tag 'r1'");
    }
  }

  /** An error thrown by a listener, as a kill would stop the writer: no rollback runs. */
  private static final class Killed extends Error {
    Killed() {
      super("killed");
    }
  }

  @Test
  void recover_writerKilledMidTag_fileHoldsTheEarlierTags() throws IOException {
    Path file = first();
    try (ModelAppender a = ModelAppender.open(file)) {
      a.addTag("r2", round(2));
    }
    byte[] before = Files.readAllBytes(file);
    ModelAppender a = ModelAppender.open(file);
    assertThatThrownBy(() -> a.addTag("r3", round(3), (entry, bytes) -> {
      if (entry.endsWith("params/0.fb")) {
        throw new Killed();
      }
    })).isInstanceOf(Killed.class);
    a.close();
    assertThat(Files.readAllBytes(file)).isNotEqualTo(before);
    assertThatThrownBy(() -> ModelFile.open(file)).isInstanceOf(ModelFormatException.class)
        .hasMessageContaining("an added tag was not finished")
        .hasMessageContaining(".model.zip.journal").hasMessageContaining("ModelAppender.recover");

    assertThat(ModelAppender.recover(file)).isTrue();
    assertThat(Files.readAllBytes(file)).isEqualTo(before);
    assertThat(ModelAppender.journalOf(file)).doesNotExist();
    try (ModelAppender again = ModelAppender.open(file)) {
      again.addTag("r3", round(3));
    }
    try (ModelFile m = ModelFile.open(file)) {
      assertThat(m.tags()).containsExactly("r1", "r2", "r3");
      assertThat(m.tag("r2").parameter("w")).isEqualTo(Samples.floats(2, 64, 32));
    }
  }

  @Test
  void recover_journalCutShort_removedAndFileUntouched() throws IOException {
    Path file = first();
    byte[] before = Files.readAllBytes(file);
    Files.write(ModelAppender.journalOf(file), new byte[] {0x54, 0x52, 0x42});
    assertThat(ModelAppender.recover(file)).isTrue();
    assertThat(Files.readAllBytes(file)).isEqualTo(before);
    assertThat(ModelAppender.journalOf(file)).doesNotExist();
    assertThat(ModelAppender.recover(file)).isFalse();
  }

  @Test
  void addTag_failingWrite_rolledBackAtOnce() throws IOException {
    Path file = first();
    byte[] before = Files.readAllBytes(file);
    try (ModelAppender a = ModelAppender.open(file)) {
      assertThatThrownBy(() -> a.addTag("r2", round(2), (entry, bytes) -> {
        if (entry.endsWith("params/0.fb")) {
          throw new IllegalStateException("disk gone");
        }
      })).isInstanceOf(IllegalStateException.class);
      assertThat(Files.readAllBytes(file)).isEqualTo(before);
      assertThat(ModelAppender.journalOf(file)).doesNotExist();
      a.addTag("r2", round(2));
    }
    try (ModelFile m = ModelFile.open(file)) {
      assertThat(m.tags()).containsExactly("r1", "r2");
    }
  }

  private static void damage(Path file, String entry) throws IOException {
    long at;
    try (ZipArchive z = ZipArchive.open(file, ReadOptions.defaults())) {
      ZipEntryRecord e = z.find(entry).orElseThrow();
      at = z.dataStart(e);
    }
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
      ch.write(ByteBuffer.wrap(new byte[] {(byte) 0xde, (byte) 0xad, (byte) 0xbe, (byte) 0xef}), at);
    }
  }
}
