package io.tributary.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.format.internal.ArrayReader;
import io.tributary.format.internal.ZipArchive;
import io.tributary.format.internal.ZipEntryRecord;
import io.tributary.tensor.DType;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.SequencedMap;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

class ModelRoundTripTest {
  @TempDir Path dir;

  private static SequencedMap<String, TagContents> one(String tag, TagContents c) {
    SequencedMap<String, TagContents> m = new LinkedHashMap<>();
    m.put(tag, c);
    return m;
  }

  @ParameterizedTest
  @EnumSource(DType.class)
  void save_everyDtype_readBackEqualByLoadAndByMap(DType dtype) throws IOException {
    Path file = dir.resolve("m.zip");
    SequencedMap<String, Tensor> params = new LinkedHashMap<>();
    params.put("matrix", Samples.random(dtype, Shape.of(33, 65), 1));
    params.put("scalar", Samples.random(dtype, Shape.scalar(), 2));
    params.put("empty", Samples.random(dtype, Shape.of(0, 3), 3));
    ModelWriter.save(file, one("t", TagContents.of(params)));
    try (ModelFile m = ModelFile.open(file)) {
      ModelTag t = m.newest();
      assertThat(t.parameters()).isEqualTo(params);
      for (String name : params.keySet()) {
        assertThat(t.mapParameter(name)).isEqualTo(params.get(name));
        ArrayInfo info = t.parameterInfo(name);
        assertThat(info.dtype()).isEqualTo(dtype);
        assertThat(info.shape()).isEqualTo(params.get(name).shape());
        assertThat(info.sharedFrom()).isEmpty();
      }
    }
  }

  @Test
  void save_namesThatAreNotFileNames_roundTrip() throws IOException {
    List<String> names = List.of("my/param/name", "&MyParam*", "权重/层_1 ✓", "emoji 😀 name",
        "with space", "100% sure", "line\nbreak\ttab", "../../etc/passwd", "x".repeat(20_000), "0", "a b/3");
    SequencedMap<String, Tensor> params = new LinkedHashMap<>();
    for (int i = 0; i < names.size(); i++) {
      params.put(names.get(i), Samples.floats(i, 2, i + 1));
    }
    Path file = dir.resolve("names.zip");
    ModelWriter.save(file, one("t", TagContents.of(params)));
    try (ModelFile m = ModelFile.open(file)) {
      assertThat(m.newest().parameterNames()).containsExactlyElementsOf(names);
      assertThat(m.newest().parameters()).isEqualTo(params);
    }
    List<String> entries = entryNames(file);
    assertThat(entries).allMatch(n -> n.matches("tags\\.txt|t/[A-Za-z]+\\.(txt|fb)|t/params/\\d+\\.fb"));
  }

  @Test
  void save_layout_isTheAdrLayout() throws IOException {
    Path file = dir.resolve("adr.zip");
    SequencedMap<String, TagContents> tags = new LinkedHashMap<>();
    tags.put("base", TagContents.builder()
        .parameter("my_normal_param", Samples.floats(1, 3))
        .parameter("shared_param", Samples.floats(2, 4))
        .updaterState("my_normal_param", List.of(Samples.floats(3, 3), Samples.floats(4, 3)))
        .trainingConfig(adam())
        .graph(sampleGraph())
        .build());
    tags.put("tuned", TagContents.builder()
        .parameter("my_normal_param", Samples.floats(5, 3))
        .sharedParameter("shared_param", "base")
        .build());
    ModelWriter.save(file, tags);
    assertThat(entryNames(file)).containsExactlyInAnyOrder(
        "tags.txt",
        "base/params.txt", "base/updater.txt", "base/trainingConfig.fb", "base/graph.fb",
        "base/params/0.fb", "base/params/1.fb", "base/updater/0.fb", "base/updater/1.fb",
        "tuned/params.txt", "tuned/updater.txt", "tuned/trainingConfig.fb", "tuned/params/0.fb");
    assertThat(text(file, "tags.txt")).isEqualTo("base\ntuned\n");
    assertThat(text(file, "base/params.txt")).isEqualTo("my_normal_param 0\nshared_param 1\n");
    assertThat(text(file, "base/updater.txt")).isEqualTo("my_normal_param 0 1\n");
    assertThat(text(file, "tuned/params.txt")).isEqualTo("my_normal_param 0\nshared_param base/1\n");
  }

  @Test
  void save_updaterStateAndTrainingConfig_roundTrip() throws IOException {
    Path file = dir.resolve("train.zip");
    List<Tensor> mv = List.of(Samples.floats(3, 3), Samples.floats(4, 3));
    TrainingConfig config = adam();
    ModelWriter.save(file, one("r1", TagContents.builder()
        .parameter("w", Samples.floats(1, 3))
        .updaterState("w", mv)
        .trainingConfig(config)
        .build()));
    try (ModelFile m = ModelFile.open(file)) {
      ModelTag t = m.tag("r1");
      assertThat(t.trainingConfig()).isEqualTo(config);
      assertThat(t.updaterParameterNames()).containsExactly("w");
      assertThat(t.updaterState("w")).isEqualTo(mv);
      assertThat(t.updaterStateInfo("w")).extracting(ArrayInfo::entry)
          .containsExactly("r1/updater/0.fb", "r1/updater/1.fb");
      assertThat(t.hasGraph()).isFalse();
      assertThat(t.graph()).isEmpty();
    }
  }

  @Test
  void save_graph_roundTripsByteForByte() throws IOException {
    Path file = dir.resolve("graph.zip");
    ByteBuffer graph = sampleGraph();
    ModelWriter.save(file, one("g", TagContents.builder().graph(graph.duplicate()).build()));
    try (ModelFile m = ModelFile.open(file)) {
      assertThat(m.newest().graph()).contains(graph);
    }
  }

  @Test
  void graph_notAFlatBuffer_rejectedWhenBuilding() {
    assertThatThrownBy(() -> TagContents.builder().graph(ByteBuffer.wrap(new byte[] {(byte) 0xFF, 0, 0, 0, 1, 2, 3, 4})))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("root offset");
  }

  @Test
  void save_largeArrays_alignedToPagesAndSmallOnesTo64Bytes() throws IOException {
    Path file = dir.resolve("aligned.zip");
    SequencedMap<String, Tensor> params = new LinkedHashMap<>();
    params.put("big", Samples.floats(1, 1000, 3));
    params.put("tiny", Samples.floats(2, 5));
    params.put("big2", Samples.random(DType.FLOAT64, Shape.of(777), 3));
    ModelWriter.save(file, one("t", TagContents.of(params)));
    try (ZipArchive z = ZipArchive.open(file, 0)) {
      ArrayReader arrays = new ArrayReader(z, 0);
      for (ZipEntryRecord e : z.entries()) {
        if (e.name().contains("/params/")) {
          assertThat(e.method()).isEqualTo(ZipEntryRecord.STORED);
          var h = arrays.header(e);
          long dataAt = z.dataStart(e) + h.dataOffset();
          assertThat(dataAt % (h.dataLength() >= 4096 ? 4096 : 64)).as(e.name()).isZero();
        }
      }
    }
  }

  @Test
  void parameters_loadedFromSeveralThreadsAtOnce_allEqual() throws Exception {
    Path file = dir.resolve("threads.zip");
    SequencedMap<String, Tensor> params = new LinkedHashMap<>();
    for (int i = 0; i < 6; i++) {
      // Over the reader's 128 KiB staging buffer, so every load streams several slices through it.
      params.put("p" + i, Samples.random(DType.FLOAT32, Shape.of(50_000 + 1_000 * i), i));
    }
    ModelWriter.save(file, one("t", TagContents.of(params)));
    try (ModelFile m = ModelFile.open(file); ExecutorService pool = Executors.newFixedThreadPool(4)) {
      List<Callable<SequencedMap<String, Tensor>>> loads = new ArrayList<>();
      for (int i = 0; i < 12; i++) {
        loads.add(() -> m.tag("t").parameters());
      }
      for (Future<SequencedMap<String, Tensor>> f : pool.invokeAll(loads)) {
        assertThat(f.get()).isEqualTo(params);
      }
    }
  }

  @Test
  void parameter_unknownName_noSuchElement() throws IOException {
    Path file = dir.resolve("m.zip");
    ModelWriter.save(file, one("t", TagContents.builder().parameter("w", Samples.floats(1, 2)).build()));
    try (ModelFile m = ModelFile.open(file)) {
      assertThatThrownBy(() -> m.newest().parameter("nope"))
          .isInstanceOf(NoSuchElementException.class).hasMessageContaining("'nope'");
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "a b", "../x", "x/y", ".hidden", "con", "NUL.txt", "tags.txt", "end.", "é"})
  void save_invalidTag_rejected(String tag) {
    assertThatThrownBy(() -> ModelWriter.save(dir.resolve("x.zip"), one(tag, TagContents.builder().build())))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void save_standardZipReaderAndUnzipOrder_canListEverything() throws IOException {
    Path file = dir.resolve("std.zip");
    ModelWriter.save(file, one("t", TagContents.builder().parameter("w", Samples.floats(1, 4096)).build()));
    try (ZipFile zf = new ZipFile(file.toFile())) {
      ZipEntry e = zf.getEntry("t/params/0.fb");
      assertThat(e.getMethod()).isEqualTo(ZipEntry.STORED);
      assertThat(zf.getInputStream(e).readAllBytes()).hasSize((int) e.getSize());
    }
  }

  static TrainingConfig adam() {
    SequencedMap<String, Double> hp = new LinkedHashMap<>();
    hp.put("learning_rate", 1e-3);
    hp.put("beta1", 0.9);
    hp.put("beta2", 0.999);
    SequencedMap<String, String> props = new LinkedHashMap<>();
    props.put("schedule", "cosine");
    return TrainingConfig.of("adam", hp).withLossVariables(List.of("loss"))
        .withUpdaterStateNames(List.of("m", "v")).withProgress(1200, 3, 12).withProperties(props);
  }

  /** A minimal FlatBuffer: root offset, a vtable with one field, a table. */
  static ByteBuffer sampleGraph() {
    com.google.flatbuffers.FlatBufferBuilder b = new com.google.flatbuffers.FlatBufferBuilder(64);
    int s = b.createString("graph");
    b.startTable(1);
    b.addOffset(0, s, 0);
    b.finish(b.endTable());
    return ByteBuffer.wrap(b.sizedByteArray());
  }

  static List<String> entryNames(Path file) throws IOException {
    List<String> names = new ArrayList<>();
    try (ZipFile zf = new ZipFile(file.toFile())) {
      for (Enumeration<? extends ZipEntry> en = zf.entries(); en.hasMoreElements(); ) {
        names.add(en.nextElement().getName());
      }
    }
    return Collections.unmodifiableList(names);
  }

  static String text(Path file, String entry) throws IOException {
    try (ZipFile zf = new ZipFile(file.toFile())) {
      return new String(zf.getInputStream(zf.getEntry(entry)).readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  @Test
  void save_unorderedMaps_tagsAndParametersSortedByName() throws IOException {
    Path file = dir.resolve("sorted.zip");
    TagContents v1 = TagContents.of(Map.of("w", Samples.floats(1, 2, 2), "b", Samples.floats(2, 2)));
    TagContents v2 = TagContents.of(Map.of("w", Samples.floats(3, 2, 2), "b", Samples.floats(4, 2)));
    ModelWriter.save(file, Map.of("round-0002", v2, "round-0001", v1));
    try (ModelFile m = ModelFile.open(file)) {
      assertThat(m.tags()).containsExactly("round-0001", "round-0002");
      assertThat(m.newest().parameterNames()).containsExactly("b", "w");
    }
    assertThat(TrainingConfig.of("sgd", Map.of("momentum", 0.9, "learning_rate", 0.1))
        .hyperparameters().keySet()).containsExactly("learning_rate", "momentum");
  }
}
