package io.tributary.guide;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.simulation.RunFiles;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs each program of docs/using-tributary-from-java.md and checks that the guide quotes its
 * source file verbatim, less the package line, so that the guide and the programs cannot drift.
 */
class GuideProgramsTest {
  private static final String PACKAGE_LINE = "package io.tributary.guide;\n\n";
  private static final List<String> PROGRAMS = List.of("ComputeOnValues.java",
      "RunSimulation.java", "CustomModel.java", "CsvLog.java", "TextSerializer.java",
      "FlowerInProcess.java", "SaveLoadResume.java", "ResumeInMemory.java",
      "AlgorithmsFromParts.java", "OwnDataAndModel.java", "HierarchicalRounds.java");
  private static final String SERVICE_FILE =
      "META-INF/services/io.tributary.tensor.serialization.Serializer";

  @TempDir Path dir;

  /** A program's {@code main}. */
  private interface Program {
    void main(String[] args) throws Exception;
  }

  @Test
  void computeOnValues_threeReadings_printsTheTypeTheMeanAndTheCountAbove() throws Exception {
    String out = run(ComputeOnValues::main);

    assertThat(out).contains("type: (<float32@SERVER,{float32}@CLIENTS> -> "
        + "<above=int32@SERVER,mean=float32@SERVER>)\n");
    assertThat(out).contains("mean reading: 20.5\n").contains("clients above 20: 2\n");
    assertQuoted("ComputeOnValues.java");
  }

  @Test
  void runSimulation_fiveRounds_printsEachRoundAndWritesEveryFile() throws Exception {
    Path out = dir.resolve("simulation");

    String printed = run(RunSimulation::main, out.toString());

    assertThat(printed).contains("round 1: train loss ").contains("round 5: train loss ")
        .contains("best round: ").contains("parameters: [hidden1/kernel, ");
    for (String file : RunFiles.ALL) {
      assertThat(out.resolve(file)).isNotEmptyFile();
      assertThat(printed).contains(file + ": ");
    }
    assertThat(Files.readAllLines(out.resolve(RunFiles.METRICS))).hasSize(5);
    assertQuoted("RunSimulation.java");
  }

  @Test
  void customModel_fiveFedAvgRounds_learnsTheDigits() throws Exception {
    String out = run(CustomModel::main);

    assertThat(out).contains("tanh-net: 2410 parameters [hidden/kernel, hidden/bias, "
        + "output/kernel, output/bias]\n");
    List<Double> accuracies = figures(out, "test accuracy ([0-9.]+)");
    assertThat(accuracies).hasSize(5);
    assertThat(accuracies.getLast()).isGreaterThan(0.8).isGreaterThan(accuracies.getFirst());
    assertQuoted("CustomModel.java");
  }

  @Test
  void csvLog_fourRounds_writesAHeaderAndOneLinePerRound() throws Exception {
    Path csv = dir.resolve("rounds.csv");

    String out = run(CsvLog::main, csv.toString());

    List<String> lines = Files.readAllLines(csv);
    assertThat(lines).hasSize(5);
    assertThat(lines.getFirst())
        .isEqualTo("round,train_loss,test_loss,test_accuracy,clients,seconds");
    for (int round = 1; round <= 4; round++) {
      assertThat(lines.get(round)).startsWith(round + ",").matches("[0-9.,]+")
          .contains(",3,");
    }
    assertThat(out).isEqualTo(String.join("\n", lines) + "\n");
    assertQuoted("CsvLog.java");
  }

  @Test
  void textSerializer_listedForServiceLoader_isFoundAndReadsBackWhatItWrote() throws Exception {
    String out = run(TextSerializer::main);

    assertThat(out).contains("tensor types: [").contains(TextSerializer.TENSOR_TYPE)
        .contains("numpy.ndarray").contains("proto.ndarray");
    assertThat(out).contains("first tensor: 2,2|1.0 2.5 -3.0 0.125\n")
        .contains("read back equal: true\n");
    assertQuoted("TextSerializer.java");
    String service = Files.readString(testResources().resolve(SERVICE_FILE));
    assertThat(guide()).contains("```\n" + service + "```\n");
  }

  @Test
  void flowerInProcess_twoClientsThreeRounds_trainsAndDisconnectsBoth() throws Exception {
    String out = run(FlowerInProcess::main);

    assertThat(out).contains("round 1: 2 clients, client loss ").contains("round 3: 2 clients, ");
    List<Double> evalLosses = figures(out, "eval loss ([0-9.]+)");
    assertThat(evalLosses).hasSize(3);
    assertThat(evalLosses.getLast()).isLessThan(evalLosses.getFirst());
    assertThat(out).contains("parameters: [arr_0, arr_1]\n");
    assertThat(out.split("client: DISCONNECTED_BY_SERVER\n", -1)).hasSize(3);
    assertQuoted("FlowerInProcess.java");
  }

  @Test
  void algorithmsFromParts_fedAdamTwoWaysAndACustomAggregator_agreeAndLearn() throws Exception {
    String out = run(AlgorithmsFromParts::main);

    assertThat(out).contains("server state: ( -> <model=<dense=<kernel=float32[60,10],"
        + "bias=float32[10]>>,optimizer=<round=int64,m=<dense=<kernel=float32[60,10],"
        + "bias=float32[10]>>,v=<dense=<kernel=float32[60,10],bias=float32[10]>>>>@SERVER)\n");
    assertThat(out).contains("parts and name agree bit for bit: true\n");
    Matcher m = Pattern.compile("(fedadam|fedavg_norm_filtered): test accuracy (\\d\\.\\d+) "
        + "after 10 rounds").matcher(out);
    int found = 0;
    while (m.find()) {
      assertThat(Double.parseDouble(m.group(2))).as(m.group(1)).isGreaterThan(0.8);
      found++;
    }
    assertThat(found).isEqualTo(2);
    assertQuoted("AlgorithmsFromParts.java");
  }

  @Test
  void saveLoadResume_runStoppedAfterRound3_resumesFromItsRound3Checkpoint() throws Exception {
    String out = run(SaveLoadResume::main, dir.toString());

    assertThat(out).contains("initial: [dense/kernel, dense/bias], same graph: true, "
        + "same values: true\n");
    assertThat(out).contains("first run: Stopped after round 3: enough for now.\n")
        .contains("checkpoints: [round-0002, round-0003]\n")
        .contains("resumed after round 3, 4 rounds in the history\n")
        .contains("checkpoints: [round-0002, round-0003, round-0004], newest is the final model:"
            + " true\n");
    assertThat(Files.readAllLines(dir.resolve("run").resolve(RunFiles.METRICS))).hasSize(4);
    assertQuoted("SaveLoadResume.java");
  }

  @Test
  void ownDataAndModel_csvModelFileAndTargetEpsilon_staysWithinItAndWritesTheModelBack()
      throws Exception {
    String out = run(OwnDataAndModel::main, dir.resolve("own").toString());

    assertThat(out).contains("clients: 12, split: natural\n")
        .contains("noise multiplier for epsilon 8: ")
        .contains("trained model: [hidden1/kernel, hidden1/bias, hidden2/kernel, hidden2/bias, "
            + "output/kernel, output/bias], same graph: true\n");
    assertThat(figures(out, "epsilon spent: ([0-9.]+)")).singleElement()
        .satisfies(e -> assertThat(e).isLessThanOrEqualTo(8));
    assertQuoted("OwnDataAndModel.java");
  }

  @Test
  void hierarchicalRounds_fourEdges_sendsAFifthOfTheBytesAndAccountsTheEdgeNoise()
      throws Exception {
    String out = run(HierarchicalRounds::main);

    assertThat(out).contains("cloud round 1: fedavg ").contains("cloud round 4: fedavg ");
    // 35,880 bytes of mlp parameters: 20 clients' models flat, 4 edges' through the edges.
    assertThat(out).contains("bytes reaching the server per round: fedavg 717600, hierfavg "
        + "143520\n");
    List<Double> flat = figures(out, "cloud round \\d+: fedavg ([0-9.]+)");
    List<Double> hier = figures(out, "hierfavg k2=2 ([0-9.]+)");
    assertThat(hier.getLast()).isGreaterThan(flat.getLast());
    // Two edge rounds at the edges are accounted as one round at z / sqrt(2).
    assertThat(out).contains("(noise multiplier 0.354 per cloud round)");
    assertThat(figures(out, "epsilon ([0-9.]+)")).singleElement()
        .satisfies(e -> assertThat(e).isPositive().isFinite());
    assertQuoted("HierarchicalRounds.java");
  }

  @Test
  void resumeInMemory_pausedAfterRound3_resumesToTheUninterruptedRunsModel() throws Exception {
    String out = run(ResumeInMemory::main);

    assertThat(out).contains("Stopped after round 3: paused. complete: false\n")
        .contains("resumed after round 3, 8 rounds; same model as an uninterrupted run: true\n");
    assertQuoted("ResumeInMemory.java");
  }

  @Test
  void guide_javaBlocks_areExactlyThePrograms() throws IOException {
    List<String> blocks = new ArrayList<>();
    Matcher m = Pattern.compile("```java\n(.*?)```\n", Pattern.DOTALL).matcher(guide());
    while (m.find()) {
      blocks.add(m.group(1));
    }
    List<String> programs = new ArrayList<>();
    for (String program : PROGRAMS) {
      programs.add(quotedForm(program));
    }

    assertThat(blocks).containsExactlyElementsOf(programs);
  }

  /** Runs {@code program} with {@code args} and returns what it printed on System.out. */
  private static String run(Program program, String... args) throws Exception {
    PrintStream original = System.out;
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    System.setOut(new PrintStream(bytes, true, StandardCharsets.UTF_8));
    try {
      program.main(args);
    } finally {
      System.setOut(original);
    }
    String out = bytes.toString(StandardCharsets.UTF_8);
    original.print(out);
    return out;
  }

  /** Every number that {@code regex}'s first group matches in {@code text}, in order. */
  private static List<Double> figures(String text, String regex) {
    List<Double> out = new ArrayList<>();
    Matcher m = Pattern.compile(regex).matcher(text);
    while (m.find()) {
      out.add(Double.parseDouble(m.group(1)));
    }
    return out;
  }

  private static void assertQuoted(String program) throws IOException {
    assertThat(guide()).as("docs/using-tributary-from-java.md quotes %s verbatim", program)
        .contains("```java\n" + quotedForm(program) + "```\n");
  }

  /** The program's source as the guide shows it: the file without its package line. */
  private static String quotedForm(String program) throws IOException {
    String source = Files.readString(sources().resolve(program), StandardCharsets.UTF_8);
    assertThat(source).startsWith(PACKAGE_LINE);
    return source.substring(PACKAGE_LINE.length());
  }

  private static String guide() throws IOException {
    return Files.readString(root().resolve("docs/using-tributary-from-java.md"),
        StandardCharsets.UTF_8);
  }

  private static Path sources() {
    return root().resolve("tributary-it/src/test/java/io/tributary/guide");
  }

  private static Path testResources() {
    return root().resolve("tributary-it/src/test/resources");
  }

  /** The project's root: surefire's {@code tributary.projectRoot}, else the module's parent. */
  private static Path root() {
    String root = System.getProperty("tributary.projectRoot");
    return root != null && !root.isBlank() ? Path.of(root) : Path.of("..");
  }
}
