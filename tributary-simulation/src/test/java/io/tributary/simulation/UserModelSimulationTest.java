package io.tributary.simulation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.data.Dataset;
import io.tributary.data.FederatedSource;
import io.tributary.format.ModelWriter;
import io.tributary.format.TagContents;
import io.tributary.graph.models.Model;
import io.tributary.graph.models.Models;
import io.tributary.learning.SettingException;
import io.tributary.tensor.DType;
import io.tributary.tensor.Tensor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Simulations of the user's model: a model.zip (graph and parameters) or a graph in code. */
class UserModelSimulationTest {
  @TempDir Path dir;

  /** 4 clients of 4-feature examples in 3 classes, labelled by a linear teacher. */
  private static FederatedSource data() {
    SplittableRandom r = new SplittableRandom(9);
    List<Dataset> clients = new ArrayList<>();
    for (int k = 0; k < 4; k++) {
      clients.add(examples(r, 40));
    }
    return FederatedSource.of("mine", clients, examples(r, 60));
  }

  private static Dataset examples(SplittableRandom r, int n) {
    float[] x = new float[n * 4];
    int[] y = new int[n];
    for (int i = 0; i < n; i++) {
      double a = r.nextGaussian();
      double b = r.nextGaussian();
      x[4 * i] = (float) a;
      x[4 * i + 1] = (float) b;
      x[4 * i + 2] = (float) r.nextGaussian();
      x[4 * i + 3] = (float) r.nextGaussian();
      y[i] = a > 0.3 ? 0 : b > 0 ? 1 : 2;
    }
    return Dataset.fromArrays("d", x, new long[] {4}, y, 3);
  }

  private static SimulationSettings.Builder common(FederatedSource data) {
    return SimulationSettings.builder().data(data).clientsPerRound(2).rounds(4).localEpochs(1)
        .batchSize(10).learningRate(0.3).threads(1).seed(2);
  }

  private Path modelFile(Model model, long seed) throws Exception {
    Path file = dir.resolve(model.name() + ".zip");
    UserModel.write(file, "initial", model, model.initialParameters(seed));
    return file;
  }

  @Test
  void run_modelFile_trainsItsGraphFromItsParametersAndWritesItBack() throws Exception {
    Model mine = Models.mlp("mine", 4, 6, 3, DType.FLOAT32);
    Path file = modelFile(mine, 77);
    Path out = dir.resolve("run");
    FederatedSource data = data();
    SimulationSettings s = common(data).model(file).out(out).build();
    SimulationResult r = Simulation.builder(s).writeFiles().build().run();

    String config = Files.readString(out.resolve(RunFiles.CONFIG));
    assertThat(config).contains("\"model_file\": \"" + file + "\"").doesNotContain("\"model\":");
    assertThat(s.shellCommand()).contains("--model " + file);
    assertThat(r.finalParameters().keySet()).containsExactlyElementsOf(mine.trainableNames());
    // The run's checkpoints are model files too: the trained model reads back.
    UserModel trained = UserModel.read(out.resolve(RunFiles.MODEL));
    assertThat(trained.parameters()).isEqualTo(r.finalParameters());
    assertThat(trained.model().graph()).isEqualTo(mine.graph());

    // Another file with the same graph but other starting parameters gives other bits.
    Path other = dir.resolve("other.zip");
    UserModel.write(other, "initial", mine, mine.initialParameters(78));
    SimulationResult fromOther = Simulation.builder(common(data).model(other).build()).build()
        .run();
    assertThat(fromOther.finalParameters()).isNotEqualTo(r.finalParameters());
    // And the same file, the same bits.
    SimulationResult again = Simulation.builder(common(data).model(file).build()).build().run();
    assertThat(again.finalParameters()).isEqualTo(r.finalParameters());
  }

  @Test
  void run_modelFileForOtherExamples_oneLineBeforeTraining() throws Exception {
    Path file = modelFile(Models.mlp("wide", 5, 6, 3, DType.FLOAT32), 1);
    Path out = dir.resolve("run");
    SimulationSettings s = common(data()).model(file).out(out).build();
    assertThatThrownBy(() -> Simulation.builder(s).writeFiles().build().run())
        .isInstanceOf(SettingException.class)
        .hasMessage("model " + file + " takes examples of shape [5], but code:mine has [4]");
    assertThat(out.resolve(RunFiles.METRICS)).doesNotExist();
  }

  @Test
  void run_modelFileForFewerClasses_refused() throws Exception {
    Path file = modelFile(Models.softmaxRegression("two", 4, 2, DType.FLOAT32), 1);
    SimulationSettings s = common(data()).model(file).build();
    assertThatThrownBy(() -> Simulation.builder(s).build().run())
        .isInstanceOf(SettingException.class)
        .hasMessage("model " + file + " scores 2 classes, but code:mine has labels up to 2");
  }

  @Test
  void run_modelFileWithoutGraph_namesTheFile() throws Exception {
    Path file = dir.resolve("bare.zip");
    Model m = Models.softmaxRegression("bare", 4, 3, DType.FLOAT32);
    Map<String, TagContents> tags = new LinkedHashMap<>();
    tags.put("t", TagContents.of(m.initialParameters(1)));
    ModelWriter.save(file, tags);
    SimulationSettings s = common(data()).model(file).build();
    assertThatThrownBy(() -> Simulation.builder(s).build().run())
        .isInstanceOf(SimulationDataException.class)
        .hasMessageContaining(file + ": tag t holds no graph");
  }

  @Test
  void run_modelFileWhoseParametersDoNotFitItsGraph_namesTheParameter() throws Exception {
    Model m = Models.softmaxRegression("odd", 4, 3, DType.FLOAT32);
    Map<String, Tensor> params = new LinkedHashMap<>(
        Models.softmaxRegression("odd", 5, 3, DType.FLOAT32).initialParameters(1));
    Path file = dir.resolve("odd.zip");
    assertThatThrownBy(() -> {
      UserModel.write(file, "t", m, params);
      UserModel.read(file);
    }).hasMessageContaining("odd.zip: tag t: model odd: parameter");
  }

  @Test
  void run_graphInCode_trains_andIsRecordedByNameOnly() throws Exception {
    Model mine = Models.mlp("coded", 4, 6, 3, DType.FLOAT32);
    SimulationSettings s = common(data()).model(mine).rounds(6).build();
    assertThat(s.modelName()).isEqualTo("code:coded");
    SimulationResult r = Simulation.builder(s).build().run();
    assertThat(r.history().last().testAccuracy()).isGreaterThan(0.6);
    assertThatThrownBy(() -> SettingsCodec.encode(SimulationSettings.builder().model(mine)
        .build())).hasMessageContaining("a model built in "
        + "code (code:coded) cannot run on a cluster engine");
  }

  @Test
  void fromJson_modelFileRecorded_readsBackTheSameSettings() throws Exception {
    Path file = modelFile(Models.mlp("mine", 4, 6, 3, DType.FLOAT32), 1);
    SimulationSettings s = SimulationSettings.builder().model(file).build();
    assertThat(SimulationSettings.fromJson(s.toJson())).isEqualTo(s);
    assertThat(SimulationSettings.builder().model(file).model(ModelKind.MCLR).build()
        .userModel()).isFalse();
  }
}
