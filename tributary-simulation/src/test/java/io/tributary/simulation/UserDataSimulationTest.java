package io.tributary.simulation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.data.CsvClients;
import io.tributary.data.Dataset;
import io.tributary.data.FederatedSource;
import io.tributary.learning.SettingException;
import io.tributary.tensor.DType;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.TensorBuilder;
import io.tributary.tensor.npy.Npz;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Simulations over the user's own data: a CSV file, a directory of npz files, data in code. */
class UserDataSimulationTest {
  private static final int CLIENTS = 6;
  private static final int ROWS = 60;
  private static final int FEATURES = 4;

  @TempDir Path dir;

  /** Label = argmax over 3 classes of a fixed linear teacher: a linear model can learn it. */
  private static int teacher(double[] x) {
    double[][] w = {{1, -1, 0.5}, {-0.5, 1, 1}, {1, 0.5, -1}, {0, -1, 1}};
    int best = 0;
    double bestScore = Double.NEGATIVE_INFINITY;
    for (int c = 0; c < 3; c++) {
      double s = 0;
      for (int j = 0; j < FEATURES; j++) {
        s += x[j] * w[j][c];
      }
      if (s > bestScore) {
        bestScore = s;
        best = c;
      }
    }
    return best;
  }

  private Path csv() throws IOException {
    SplittableRandom r = new SplittableRandom(11);
    StringBuilder s = new StringBuilder("user,a,b,y,c,d\n");
    for (int k = 0; k < CLIENTS; k++) {
      for (int i = 0; i < ROWS; i++) {
        double[] x = new double[FEATURES];
        for (int j = 0; j < FEATURES; j++) {
          x[j] = Math.round(r.nextGaussian() * 1000) / 1000.0 + (k % 2 == 0 ? 0.3 : -0.3);
        }
        s.append("u").append(k).append(',').append(x[0]).append(',').append(x[1]).append(',')
            .append(teacher(x)).append(',').append(x[2]).append(',').append(x[3]).append('\n');
      }
    }
    Path p = dir.resolve("mine.csv");
    Files.writeString(p, s);
    return p;
  }

  private static SimulationSettings.Builder common() {
    return SimulationSettings.builder().clientsPerRound(3).rounds(6).localEpochs(1)
        .batchSize(10).learningRate(0.5).threads(2).seed(5);
  }

  private DatasetSpec.Csv csvSpec() throws IOException {
    return new DatasetSpec.Csv(csv()).withColumns("user", "y", List.of());
  }

  @Test
  void run_csvFile_learnsAndRecordsTheFileAndColumnsInConfig() throws Exception {
    Path out = dir.resolve("run");
    SimulationSettings s = common().dataset(csvSpec()).out(out).build();
    assertThat(s.clients()).isEqualTo(CLIENTS);
    assertThat(s.partition()).isEqualTo("natural");
    SimulationResult r = Simulation.builder(s).writeFiles().build().run();

    assertThat(r.history().last().testAccuracy()).isGreaterThan(0.8);
    String config = Files.readString(out.resolve(RunFiles.CONFIG));
    assertThat(config).contains("\"dataset\": \"csv:" + dir.resolve("mine.csv") + "\"")
        .contains("\"dataset_options\": {\"client_column\": \"user\", \"label_column\": \"y\", "
            + "\"test_fraction\": 0.2}");
    assertThat(SimulationSettings.read(out)).isEqualTo(s);
    assertThat(s.shellCommand()).contains("--dataset csv:").contains("--client-column user "
        + "--label-column y --test-fraction 0.2");
  }

  @Test
  void run_parquetFileOfTheSameRows_sameBitsAsTheCsvRunAndResumes() throws Exception {
    Path csv = csv();
    Path parquet = dir.resolve("mine.parquet");
    io.tributary.tensor.testing.PythonEnv.require("pyarrow").run(dir,
        java.time.Duration.ofMinutes(2), "-c", "import sys, pyarrow.csv as c, pyarrow.parquet "
            + "as q; q.write_table(c.read_csv(sys.argv[1]), sys.argv[2])", csv.toString(),
        parquet.toString()).assertOk();
    SimulationResult fromCsv = Simulation.builder(common().dataset(csvSpec()).build()).build()
        .run();
    Path out = dir.resolve("run");
    SimulationSettings s = common().dataset(new DatasetSpec.Parquet(parquet)
        .withColumns("user", "y", List.of())).out(out).build();
    assertThat(s.clients()).isEqualTo(CLIENTS);

    Simulation.builder(s).writeFiles().listener(stopAfterRound(3)).build().run();
    SimulationResult resumed = Simulation.builder(SimulationSettings.read(out)).writeFiles()
        .resume().build().run();

    assertThat(resumed.finalParameters()).isEqualTo(fromCsv.finalParameters());
    assertThat(Files.readString(out.resolve(RunFiles.CONFIG)))
        .contains("\"dataset\": \"parquet:" + parquet + "\"")
        .contains("\"client_column\": \"user\", \"label_column\": \"y\"");
    assertThat(s.shellCommand()).contains("--dataset parquet:").contains("--client-column user");
  }

  private static SimulationListener stopAfterRound(int last) {
    return new SimulationListener() {
      @Override
      public java.util.Optional<String> stopAfter(
          io.tributary.learning.rounds.RoundRecord round) {
        return round.round() == last ? java.util.Optional.of("paused")
            : java.util.Optional.empty();
      }
    };
  }

  @Test
  void run_sameRowsGivenInCode_sameBitsAsTheCsvRun() throws Exception {
    SimulationSettings fromFile = common().dataset(csvSpec()).build();
    SimulationResult file = Simulation.builder(fromFile).build().run();
    try (CsvClients opened = CsvClients.builder(dir.resolve("mine.csv")).clientColumn("user")
        .labelColumn("y").seed(5).open()) {
      SimulationSettings inCode = common().data(opened).build();
      assertThat(inCode.dataset().toString()).isEqualTo("code:mine.csv");
      SimulationResult code = Simulation.builder(inCode).build().run();
      assertThat(code.finalParameters()).isEqualTo(file.finalParameters());
    }
  }

  @Test
  void run_heldTensorsInCode_trains() throws Exception {
    SplittableRandom r = new SplittableRandom(3);
    List<Tensor> xs = new java.util.ArrayList<>();
    List<Tensor> ys = new java.util.ArrayList<>();
    for (int k = 0; k < 4; k++) {
      Dataset d = examples(r, 30);
      xs.add(d.features());
      ys.add(d.labels());
    }
    Dataset test = examples(r, 50);
    FederatedSource source = FederatedSource.ofTensors("mine", xs, ys, 3, test.features(),
        test.labels());
    SimulationResult result = Simulation.builder(common().data(source).build()).build().run();
    assertThat(result.history().last().testAccuracy()).isGreaterThan(0.7);
  }

  private static Dataset examples(SplittableRandom r, int n) {
    float[] x = new float[n * FEATURES];
    int[] y = new int[n];
    for (int i = 0; i < n; i++) {
      double[] v = new double[FEATURES];
      for (int j = 0; j < FEATURES; j++) {
        v[j] = r.nextGaussian();
        x[i * FEATURES + j] = (float) v[j];
      }
      y[i] = teacher(v);
    }
    return Dataset.fromArrays("d", x, new long[] {FEATURES}, y, 3);
  }

  @Test
  void run_npzDirectory_oneClientPerFile() throws Exception {
    Path data = Files.createDirectory(dir.resolve("npz"));
    SplittableRandom r = new SplittableRandom(4);
    for (int k = 0; k < 3; k++) {
      Dataset d = examples(r, 40);
      Map<String, Tensor> m = new LinkedHashMap<>();
      m.put("x", d.features());
      m.put("y", d.labels());
      Npz.write(data.resolve("client" + k + ".npz"), m, true);
    }
    SimulationSettings s = common().dataset(DatasetSpec.parse("npz-dir:" + data)).build();
    assertThat(s.clients()).isEqualTo(3);
    SimulationResult result = Simulation.builder(s).build().run();
    assertThat(result.history().last().testAccuracy()).isGreaterThan(0.6);
  }

  @Test
  void build_csvFileMissing_namesTheDataset() {
    assertThatThrownBy(() -> common().dataset(DatasetSpec.parse("csv:" + dir.resolve("no.csv")))
        .build()).isInstanceOf(SettingException.class)
        .hasMessageContaining("dataset csv:" + dir.resolve("no.csv"))
        .hasMessageContaining("no such file");
  }

  @Test
  void run_badRowInCsv_failsBeforeTrainingNamingFileAndLine() throws Exception {
    Path p = csv();
    Files.writeString(p, Files.readString(p) + "u1,1,2,0,NaN,4\n");
    SimulationSettings s = common().dataset(new DatasetSpec.Csv(p).withColumns("user", "y",
        List.of())).build();
    assertThatThrownBy(() -> Simulation.builder(s).build().run())
        .isInstanceOf(SimulationDataException.class)
        .hasMessage(p + ":" + (CLIENTS * ROWS + 2) + ": column 'c': 'NaN' is not a finite "
            + "number");
  }

  @Test
  void run_clientsOtherThanTheFiles_refused() throws Exception {
    SimulationSettings s = common().dataset(csvSpec()).clients(4).build();
    assertThatThrownBy(() -> Simulation.builder(s).build().run())
        .isInstanceOf(SettingException.class)
        .hasMessage("clients must be the 6 clients of mine.csv, got 4");
  }

  @Test
  void build_dataInCode_clientsMustBeTheSources_andNoClusterNorFile() throws Exception {
    SplittableRandom r = new SplittableRandom(3);
    FederatedSource source = FederatedSource.of("mine", List.of(examples(r, 5),
        examples(r, 5)), examples(r, 5));
    assertThatThrownBy(() -> common().clientsPerRound(1).data(source).clients(3).build())
        .isInstanceOf(SettingException.class)
        .hasMessage("clients must be the 2 clients of the data given in code (mine), got 3");
    SimulationSettings s = common().clientsPerRound(1).data(source).build();
    assertThatThrownBy(() -> SettingsCodec.encode(s))
        .hasMessageContaining("data given in code (code:mine) cannot run on a cluster engine");
    assertThatThrownBy(() -> SimulationSettings.fromJson(s.toJson()))
        .isInstanceOf(SettingsFileException.class)
        .hasMessageContaining("dataset").hasMessageContaining("give the data again");
  }

  @Test
  void fromJson_optionsForAnotherDataset_refusedNamingTheKey() throws Exception {
    SimulationSettings s = common().dataset(csvSpec()).build();
    String json = s.toJson().replace("\"client_column\": \"user\"", "\"colour\": \"red\"");
    assertThatThrownBy(() -> SimulationSettings.fromJson(json))
        .isInstanceOf(SettingsFileException.class)
        .hasMessageContaining("dataset_options.colour does not apply");
  }

  @Test
  void source_ofTensorsWithAMismatchedClient_namesIt() {
    TensorBuilder x = TensorBuilder.allocate(DType.FLOAT32, Shape.of(2, 3));
    Tensor y = TensorBuilder.allocate(DType.INT64, Shape.of(2)).build();
    TensorBuilder tx = TensorBuilder.allocate(DType.FLOAT32, Shape.of(2, 4));
    assertThatThrownBy(() -> FederatedSource.ofTensors("mine", List.of(x.build()),
        List.of(y), 2, tx.build(), y))
        .hasMessage("mine: client 0's examples have shape [3], the test set's [4]");
  }

  @Test
  void resume_csvRun_rebuildsTheDataFromTheFileAndEndsAsTheUninterruptedRun() throws Exception {
    Path whole = dir.resolve("whole");
    SimulationSettings s = common().dataset(csvSpec()).checkpointEvery(2).out(whole).build();
    SimulationResult uninterrupted = Simulation.builder(s).writeFiles().build().run();

    // The same run as if stopped after round 4: its newest checkpoint dropped, no final model.
    Path cut = dir.resolve("cut");
    Files.createDirectories(cut);
    try (var files = Files.list(whole)) {
      for (Path f : files.toList()) {
        Files.copy(f, cut.resolve(f.getFileName()));
      }
    }
    io.tributary.format.ModelWriter.deleteTag(cut.resolve(RunFiles.MODEL), "round-0006");
    Files.delete(cut.resolve(RunFiles.FINAL));
    SimulationSettings again = SimulationSettings.read(cut).withOut(cut);
    SimulationResult resumed = Simulation.builder(again).writeFiles().resume().build().run();

    assertThat(resumed.history().rounds()).hasSize(6);
    assertThat(resumed.finalParameters()).isEqualTo(uninterrupted.finalParameters());
  }
}
