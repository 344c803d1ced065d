package io.tributary.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.format.internal.ZipArchive;
import io.tributary.format.internal.ZipEntryRecord;
import io.tributary.tensor.DType;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.TensorBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SequencedMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TagOperationsTest {
  @TempDir Path dir;

  private Path file;
  private final Tensor w1 = Samples.floats(1, 64, 32);
  private final Tensor b1 = Samples.floats(2, 32);
  private final Tensor emb = Samples.floats(3, 100, 16);

  private Path base() throws IOException {
    file = dir.resolve("model.zip");
    SequencedMap<String, TagContents> tags = new LinkedHashMap<>();
    tags.put("round1", TagContents.builder()
        .parameter("dense/kernel", w1).parameter("dense/bias", b1).parameter("embedding", emb)
        .updaterState("dense/kernel", List.of(Samples.floats(4, 64, 32), Samples.floats(5, 64, 32)))
        .trainingConfig(ModelRoundTripTest.adam().withProgress(100, 1, 1))
        .build());
    ModelWriter.save(file, tags);
    return file;
  }

  @Test
  void open_tagsCaseInsensitive_andNewestByDefault() throws IOException {
    base();
    ModelWriter.addTag(file, "Round2", TagContents.builder().parameter("dense/kernel", w1).build());
    try (ModelFile m = ModelFile.open(file)) {
      assertThat(m.tags()).containsExactly("round1", "Round2");
      assertThat(m.newestTag()).isEqualTo("Round2");
      assertThat(m.newest().name()).isEqualTo("Round2");
      assertThat(m.tag("ROUND1").name()).isEqualTo("round1");
      assertThat(m.tag("round2").name()).isEqualTo("Round2");
      assertThatThrownBy(() -> m.tag("round3")).isInstanceOf(NoSuchTagException.class)
          .hasMessageContaining("round1, Round2");
    }
    assertThatThrownBy(() -> ModelWriter.addTag(file, "ROUND2", TagContents.builder().build()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("already has tag 'Round2'");
  }

  @Test
  void addTag_existingEntriesKeepTheirBytesAndOffsets() throws IOException {
    base();
    byte[] before = Files.readAllBytes(file);
    Map<String, Long> offsetsBefore = new HashMap<>();
    long cdBefore;
    try (ZipArchive z = ZipArchive.open(file, 0)) {
      cdBefore = z.centralDirectoryOffset();
      for (ZipEntryRecord e : z.entries()) {
        offsetsBefore.put(e.name(), e.localHeaderOffset());
      }
    }
    ModelWriter.addTag(file, "round2", TagContents.builder()
        .parameter("dense/kernel", Samples.floats(9, 64, 32))
        .sharedParameter("dense/bias", "round1")
        .sharedParameter("embedding", "ROUND1")
        .build());
    byte[] after = Files.readAllBytes(file);
    assertThat(Arrays.equals(before, 0, (int) cdBefore, after, 0, (int) cdBefore))
        .as("every byte before the old central directory is unchanged").isTrue();
    try (ZipArchive z = ZipArchive.open(file, 0)) {
      for (ZipEntryRecord e : z.entries()) {
        if (offsetsBefore.containsKey(e.name()) && !e.name().equals("tags.txt")) {
          assertThat(e.localHeaderOffset()).as(e.name()).isEqualTo(offsetsBefore.get(e.name()));
        }
      }
    }
    assertThat(ModelRoundTripTest.text(file, "round2/params.txt"))
        .isEqualTo("dense/kernel 0\ndense/bias round1/1\nembedding round1/2\n");
    try (ModelFile m = ModelFile.open(file)) {
      ModelTag r2 = m.tag("round2");
      assertThat(r2.parameter("dense/bias")).isEqualTo(b1);
      assertThat(r2.parameterInfo("embedding").sharedFrom()).contains("round1");
      assertThat(r2.parameterInfo("dense/kernel").sharedFrom()).isEmpty();
      assertThat(m.tag("round1").parameters().get("dense/kernel")).isEqualTo(w1);
    }
  }

  @Test
  void addTag_shareOfAShare_pointsAtTheFileItself() throws IOException {
    base();
    ModelWriter.addTag(file, "r2", TagContents.builder().sharedParameter("embedding", "round1").build());
    ModelWriter.addTag(file, "r3", TagContents.builder().sharedParameter("emb", "r2", "embedding").build());
    assertThat(ModelRoundTripTest.text(file, "r3/params.txt")).isEqualTo("emb round1/2\n");
    try (ModelFile m = ModelFile.open(file)) {
      assertThat(m.tag("r3").parameter("emb")).isEqualTo(emb);
    }
  }

  @Test
  void addTag_unknownSource_rejectedAndFileUnchanged() throws IOException {
    base();
    byte[] before = Files.readAllBytes(file);
    assertThatThrownBy(() -> ModelWriter.addTag(file, "r2",
            TagContents.builder().sharedParameter("x", "nowhere").build()))
        .isInstanceOf(NoSuchTagException.class);
    assertThatThrownBy(() -> ModelWriter.addTag(file, "r2",
            TagContents.builder().sharedParameter("x", "round1").build()))
        .isInstanceOf(java.util.NoSuchElementException.class).hasMessageContaining("'x'");
    assertThat(Files.readAllBytes(file)).isEqualTo(before);
    try (var s = Files.list(dir)) {
      assertThat(s.map(p -> p.getFileName().toString())).containsExactly("model.zip");
    }
  }

  @Test
  void deleteTag_keepsSharedParametersAlive() throws IOException {
    base();
    ModelWriter.addTag(file, "round2", TagContents.builder()
        .parameter("dense/kernel", Samples.floats(9, 64, 32))
        .sharedParameter("dense/bias", "round1")
        .sharedParameter("embedding", "round1")
        .sharedUpdaterState("dense/kernel", "round1")
        .build());
    ModelWriter.addTag(file, "round3", TagContents.builder()
        .sharedParameter("embedding", "round1")
        .sharedParameter("dense/bias", "round2")
        .build());
    ModelWriter.deleteTag(file, "ROUND1");
    try (ModelFile m = ModelFile.open(file)) {
      assertThat(m.tags()).containsExactly("round2", "round3");
      ModelTag r2 = m.tag("round2");
      assertThat(r2.parameter("dense/bias")).isEqualTo(b1);
      assertThat(r2.parameter("embedding")).isEqualTo(emb);
      assertThat(r2.parameterInfo("embedding").sharedFrom()).isEmpty();
      assertThat(r2.updaterState("dense/kernel")).hasSize(2);
      ModelTag r3 = m.tag("round3");
      assertThat(r3.parameter("embedding")).isEqualTo(emb);
      assertThat(r3.parameterInfo("embedding").sharedFrom()).contains("round2");
    }
    assertThat(ModelRoundTripTest.entryNames(file)).noneMatch(n -> n.startsWith("round1/"));
    ModelWriter.deleteTag(file, "round2");
    try (ModelFile m = ModelFile.open(file)) {
      assertThat(m.tags()).containsExactly("round3");
      assertThat(m.newest().parameters()).containsEntry("embedding", emb).containsEntry("dense/bias", b1);
    }
    assertThatThrownBy(() -> ModelWriter.deleteTag(file, "round3"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("only tag");
  }

  @Test
  void deleteTag_unsharedTag_dropsItsEntries() throws IOException {
    base();
    ModelWriter.addTag(file, "scratch", TagContents.builder().parameter("tmp", Samples.floats(7, 1000)).build());
    long withScratch = Files.size(file);
    ModelWriter.deleteTag(file, "scratch");
    assertThat(Files.size(file)).isLessThan(withScratch - 4000);
    try (ModelFile m = ModelFile.open(file)) {
      assertThat(m.tags()).containsExactly("round1");
      assertThat(m.newest().parameter("dense/kernel")).isEqualTo(w1);
      assertThat(m.newest().trainingConfig().iterationCount()).isEqualTo(100);
    }
  }

  @Test
  void tags_checkpointsQuantizedVariantAndModelVariants_coexist() throws IOException {
    file = dir.resolve("variants.zip");
    Tensor w = Samples.floats(1, 16, 8);
    // Symmetric per-column INT8 quantization: q = round(w / scale), scale = max|w| / 127.
    TensorBuilder q = TensorBuilder.allocate(DType.INT8, w.shape());
    float[] scales = new float[8];
    for (int c = 0; c < 8; c++) {
      float max = 0;
      for (int r = 0; r < 16; r++) {
        max = Math.max(max, Math.abs(w.getFloat(r * 8 + c)));
      }
      scales[c] = max / 127f;
      for (int r = 0; r < 16; r++) {
        q.setByte(r * 8 + c, (byte) Math.round(w.getFloat(r * 8 + c) / scales[c]));
      }
    }
    Tensor quantized = q.build();
    Tensor scale = Tensor.ofFloats(Shape.of(8), scales);
    SequencedMap<String, TagContents> tags = new LinkedHashMap<>();
    for (int round = 1; round <= 3; round++) {
      tags.put("round" + round, TagContents.builder().parameter("w", Samples.floats(round, 16, 8))
          .trainingConfig(TrainingConfig.none().withProgress(round * 10L, round, round)).build());
    }
    tags.put("fp32", TagContents.builder().parameter("w", w).build());
    tags.put("int8", TagContents.builder().parameter("w", quantized).parameter("w:scale", scale).build());
    tags.put("en", TagContents.builder().sharedParameter("w", "fp32").parameter("head", Samples.floats(8, 8)).build());
    tags.put("zh", TagContents.builder().sharedParameter("w", "fp32").parameter("head", Samples.floats(9, 8)).build());
    ModelWriter.save(file, tags);
    try (ModelFile m = ModelFile.open(file)) {
      assertThat(m.tags()).containsExactly("round1", "round2", "round3", "fp32", "int8", "en", "zh");
      assertThat(m.tag("round2").trainingConfig().round()).isEqualTo(2);
      ModelTag int8 = m.tag("int8");
      Tensor qq = int8.parameter("w");
      Tensor ss = int8.parameter("w:scale");
      assertThat(qq.dtype()).isEqualTo(DType.INT8);
      for (int i = 0; i < 128; i++) {
        assertThat(qq.getByte(i) * ss.getFloat(i % 8)).isCloseTo(w.getFloat(i), org.assertj.core.data.Offset.offset(ss.getFloat(i % 8)));
      }
      assertThat(m.tag("en").parameter("w")).isEqualTo(w);
      assertThat(m.tag("zh").parameterInfo("w").sharedFrom()).contains("fp32");
      assertThat(m.tag("zh").parameter("head")).isNotEqualTo(m.tag("en").parameter("head"));
    }
  }
}
