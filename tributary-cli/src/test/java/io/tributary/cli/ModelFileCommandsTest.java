package io.tributary.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.format.ModelFile;
import io.tributary.format.ModelWriter;
import io.tributary.format.TagContents;
import io.tributary.format.TrainingConfig;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.npy.Npz;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SequencedMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code inspect} and {@code convert} on .zip model files. */
class ModelFileCommandsTest {
  @TempDir Path dir;

  private final Tensor w1 = Tensor.ofFloats(Shape.of(2, 3), 1, 2, 3, 4, 5, 6);
  private final Tensor b1 = Tensor.ofFloats(Shape.of(3), 0.5f, -1, 2);
  private final Tensor w2 = Tensor.ofFloats(Shape.of(2, 3), 6, 5, 4, 3, 2, 1);

  private Path model() throws IOException {
    Path file = dir.resolve("model.zip");
    SequencedMap<String, Double> hp = new LinkedHashMap<>();
    hp.put("learning_rate", 0.01);
    SequencedMap<String, TagContents> tags = new LinkedHashMap<>();
    tags.put("round1", TagContents.builder().parameter("dense/w", w1).parameter("dense/b", b1)
        .updaterState("dense/w", List.of(Tensor.ofFloats(Shape.of(2, 3), new float[6]), w1))
        .trainingConfig(TrainingConfig.of("adam", hp).withUpdaterStateNames(List.of("m", "v"))
            .withLossVariables(List.of("loss")).withProgress(50, 1, 1))
        .build());
    tags.put("round2", TagContents.builder().parameter("dense/w", w2).sharedParameter("dense/b", "round1").build());
    ModelWriter.save(file, tags);
    return file;
  }

  @Test
  void inspect_model_printsTagsParametersUpdaterAndConfig() throws IOException {
    CliRun r = CliRun.of("inspect", model().toString());
    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.out()).contains("tags (oldest first): round1, round2 (newest)")
        .contains("tag round2 (newest)")
        .contains("adam, learning_rate=0.01; loss loss; round 1, iteration 50, epoch 1; updater state m, v")
        .containsPattern("dense/b\\s+float32\\s+\\(3,\\)\\s+round1")
        .containsPattern("dense/w\\s+float32\\s+\\(2, 3\\)\\s+-")
        .containsPattern("dense/w\\s+v\\s+float32\\s+\\(2, 3\\)");
  }

  @Test
  void inspect_modelJson_isValidJsonWithSharing() throws IOException {
    CliRun r = CliRun.of("inspect", "--json", model().toString());
    assertThat(r.exitCode()).as(r.err()).isZero();
    @SuppressWarnings("unchecked")
    Map<String, Object> root = (Map<String, Object>) StrictJson.parse(r.out());
    @SuppressWarnings("unchecked")
    List<Map<String, Object>> tags = (List<Map<String, Object>>) root.get("tags");
    assertThat(tags).extracting(t -> t.get("name")).containsExactly("round1", "round2");
    assertThat(tags).extracting(t -> t.get("newest")).containsExactly(false, true);
    @SuppressWarnings("unchecked")
    List<Map<String, Object>> params = (List<Map<String, Object>>) tags.get(1).get("parameters");
    assertThat(params.get(1)).containsEntry("name", "dense/b").containsEntry("sharedFrom", "round1")
        .containsEntry("dtype", "float32");
    assertThat(r.out()).contains("\"updaterStateNames\": [\"m\", \"v\"]").contains("\"state\": \"v\"");
  }

  @Test
  void convert_modelToNpz_newestByDefaultOrTheTagAsked() throws IOException {
    Path m = model();
    Path out = dir.resolve("out.npz");
    CliRun r = CliRun.of("convert", m.toString(), out.toString());
    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(Npz.read(out)).containsExactly(Map.entry("dense/w", w2), Map.entry("dense/b", b1));
    r = CliRun.of("convert", m.toString(), out.toString(), "--tag", "ROUND1");
    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(Npz.read(out)).containsExactly(Map.entry("dense/w", w1), Map.entry("dense/b", b1));
  }

  @Test
  void convert_npzToModel_createsThenAddsTags() throws IOException {
    SequencedMap<String, Tensor> t = new LinkedHashMap<>();
    t.put("w", w1);
    Path npz = TestFiles.npz(dir, "in.npz", t);
    Path m = dir.resolve("new.zip");
    CliRun r = CliRun.of("convert", npz.toString(), m.toString(), "--tag", "first");
    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.out()).contains("as tag first");
    r = CliRun.of("convert", npz.toString(), m.toString(), "--tag", "second");
    assertThat(r.exitCode()).as(r.err()).isZero();
    try (ModelFile f = ModelFile.open(m)) {
      assertThat(f.tags()).containsExactly("first", "second");
      assertThat(f.newest().parameter("w")).isEqualTo(w1);
    }
    r = CliRun.of("convert", npz.toString(), m.toString(), "--tag", "FIRST");
    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.errLines()).hasSize(1);
    assertThat(r.err()).contains("already has tag 'first'");
  }

  @Test
  void convert_toModelWithoutTagOrWithBadTag_exit2OneLine() throws IOException {
    SequencedMap<String, Tensor> t = new LinkedHashMap<>();
    t.put("w", w1);
    Path npz = TestFiles.npz(dir, "in.npz", t);
    for (String[] args : List.of(
        new String[] {"convert", npz.toString(), dir.resolve("m.zip").toString()},
        new String[] {"convert", npz.toString(), dir.resolve("m.zip").toString(), "--tag", "../evil"},
        new String[] {"convert", npz.toString(), dir.resolve("o.npz").toString(), "--tag", "x"})) {
      CliRun r = CliRun.of(args);
      assertThat(r.exitCode()).as(String.join(" ", args)).isEqualTo(2);
      assertThat(r.errLines()).as(r.err()).hasSize(1);
    }
    assertThat(Files.exists(dir.resolve("m.zip"))).isFalse();
  }

  @Test
  void inspectAndConvert_malformedModel_exit2OneLineNamingTheEntry() throws IOException {
    Path m = model();
    byte[] bytes = Files.readAllBytes(m);
    Path junk = dir.resolve("junk.zip");
    Files.write(junk, "not a zip".getBytes(java.nio.charset.StandardCharsets.UTF_8));
    Path cut = dir.resolve("cut.zip");
    Files.write(cut, java.util.Arrays.copyOf(bytes, bytes.length - 10));
    for (Path bad : List.of(junk, cut)) {
      CliRun r = CliRun.of("inspect", bad.toString());
      assertThat(r.exitCode()).isEqualTo(2);
      assertThat(r.errLines()).hasSize(1);
      assertThat(r.err()).startsWith("tributary inspect: " + bad + ": ");
      r = CliRun.of("convert", bad.toString(), dir.resolve("o.npz").toString());
      assertThat(r.exitCode()).isEqualTo(2);
      assertThat(r.errLines()).hasSize(1);
    }
    CliRun r = CliRun.of("convert", m.toString(), dir.resolve("o.npz").toString(), "--tag", "round9");
    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.errLines()).containsExactly("tributary convert: " + m + ": no tag 'round9' (tags, oldest first: round1, round2)");
  }
}
