package io.tributary.examples;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.core.compiler.BuildingBlock;
import io.tributary.core.compiler.JavaFunction;
import io.tributary.core.compiler.TypeChecker;
import io.tributary.core.computation.Computation;
import io.tributary.core.computation.Federated;
import io.tributary.core.computation.Intrinsics;
import io.tributary.core.computation.Param;
import io.tributary.core.computation.Value;
import io.tributary.core.proto.ComputationProtos;
import io.tributary.core.proto.LocalResolver;
import io.tributary.core.types.Type;
import io.tributary.core.types.Types;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Builds and checks exactly the computations shown in docs/federated-core.md.
 *
 * <p>Each Java snippet in the doc sits between {@code // doc:NAME} markers here and must match
 * the doc's code block for NAME; each printed form shown in the doc is asserted below.
 */
class FederatedCoreDocExamplesTest {
  /** Stands in for a real training step; these tests only define and check computations. */
  private static Object notRunHere(Object argument) {
    throw new UnsupportedOperationException("local bodies run in the runtime, not in this test");
  }

  static Computation averageTemperature() {
    // doc:average-temperature
    Computation getAverageTemperature = Federated.computation(
        Param.of("sensor_readings", "{float32}@CLIENTS"),
        sensorReadings -> Intrinsics.federatedMean(sensorReadings));
    // doc:end
    return getAverageTemperature;
  }

  static Computation fedAvgRound() {
    // doc:fedavg
    Type model = Types.parse("<weights=float32[10,5],bias=float32[5]>");
    Type examples = Types.parse("<x=float32[10],y=int32>*");

    Computation clientUpdate = Federated.local("client_update",
        "(<<weights=float32[10,5],bias=float32[5]>,<x=float32[10],y=int32>*>"
            + " -> <model=<weights=float32[10,5],bias=float32[5]>,"
            + "metrics=<loss=float32>,num_examples=float32>)",
        FederatedCoreDocExamplesTest::notRunHere);

    Computation round = Federated.computation(
        Types.atServer(model),
        Types.atClients(examples),
        (serverModel, clientData) -> {
          Value clientModel = Intrinsics.federatedBroadcast(serverModel);
          Value outputs = Intrinsics.federatedMap(
              clientUpdate, Federated.struct(clientModel, clientData));
          Value newModel = Intrinsics.federatedWeightedMean(
              outputs.get("model"), outputs.get("num_examples"));
          Value metrics = Intrinsics.federatedMean(outputs.get("metrics"));
          return Federated.struct(newModel, metrics);
        });
    // doc:end
    return round;
  }

  static Computation hierarchicalRound() {
    Type model = Types.parse("<weights=float32[10,5],bias=float32[5]>");
    Type examples = Types.parse("<x=float32[10],y=int32>*");
    Computation clientUpdate = Federated.local("client_update",
        "(<<weights=float32[10,5],bias=float32[5]>,<x=float32[10],y=int32>*>"
            + " -> <model=<weights=float32[10,5],bias=float32[5]>,"
            + "metrics=<loss=float32>,num_examples=float32>)",
        FederatedCoreDocExamplesTest::notRunHere);
    // doc:hierarchical
    Computation round = Federated.computation(
        Types.atServer(model),
        Types.atClients(examples),
        (serverModel, clientData) -> {
          Value edgeModel = Intrinsics.federatedBroadcastToEdges(serverModel);
          Value clientModel = Intrinsics.federatedBroadcastFromEdges(edgeModel);
          Value outputs = Intrinsics.federatedMap(
              clientUpdate, Federated.struct(clientModel, clientData));
          Value edgeModels = Intrinsics.federatedWeightedMeanToEdges(
              outputs.get("model"), outputs.get("num_examples"));
          Value edgeExamples = Intrinsics.federatedSumToEdges(outputs.get("num_examples"));
          return Intrinsics.federatedWeightedMeanFromEdges(edgeModels, edgeExamples);
        });
    // doc:end
    return round;
  }

  static Computation edgeRounds() {
    Type model = Types.parse("<weights=float32[10,5],bias=float32[5]>");
    Type examples = Types.parse("<x=float32[10],y=int32>*");
    Computation clientUpdate = Federated.local("client_update",
        "(<<weights=float32[10,5],bias=float32[5]>,<x=float32[10],y=int32>*>"
            + " -> <model=<weights=float32[10,5],bias=float32[5]>,"
            + "metrics=<loss=float32>,num_examples=float32>)",
        FederatedCoreDocExamplesTest::notRunHere);
    // doc:edge-rounds
    Computation cloudRound = Federated.computation(
        Types.atServer(model),
        Types.atClients(examples),
        (serverModel, clientData) -> {
          Value edgeModel = Intrinsics.federatedBroadcastToEdges(serverModel);  // T@EDGES
          Value edgeExamples = null;
          for (int k = 0; k < 2; k++) {                     // k2 = 2 edge rounds
            Value clientModel = Intrinsics.federatedBroadcastFromEdges(edgeModel);
            Value outputs = Intrinsics.federatedMap(
                clientUpdate, Federated.struct(clientModel, clientData));
            edgeModel = Intrinsics.federatedWeightedMeanToEdges(         // {T}@EDGES
                outputs.get("model"), outputs.get("num_examples"));
            edgeExamples = Intrinsics.federatedSumToEdges(outputs.get("num_examples"));
          }
          return Intrinsics.federatedWeightedMeanFromEdges(edgeModel, edgeExamples);
        });
    // doc:end
    return cloudRound;
  }

  @Test
  void edgeRounds_asInDoc_hasTheFlatTypeAndPrintedForm() throws Exception {
    Computation round = edgeRounds();
    String s = "<weights=float32[10,5],bias=float32[5]>";
    assertThat(round.type()).isEqualTo(Types.parse(
        "(<" + s + "@SERVER,{<x=float32[10],y=int32>*}@CLIENTS> -> " + s + "@SERVER)"));
    assertThat(docText()).contains(round.format());
    roundTrip(round);
  }

  @Test
  void hierarchicalRound_asInDoc_hasTypeAndPrintedForm() throws Exception {
    Computation round = hierarchicalRound();
    String s = "<weights=float32[10,5],bias=float32[5]>";
    assertThat(round.type()).isEqualTo(Types.parse(
        "(<" + s + "@SERVER,{<x=float32[10],y=int32>*}@CLIENTS> -> " + s + "@SERVER)"));
    assertThat(docText()).contains(round.type().compact()).contains(round.format());
    roundTrip(round);
  }

  @Test
  void averageTemperature_asInDoc_hasTypeAndPrintedForm() throws Exception {
    Computation avg = averageTemperature();
    assertThat(avg.type().compact()).isEqualTo("({float32}@CLIENTS -> float32@SERVER)");
    assertThat(avg.print())
        .isEqualTo("(sensor_readings -> federated_mean(sensor_readings))");
    assertThat(docText()).contains(avg.type().compact()).contains(avg.print());
    roundTrip(avg);
  }

  @Test
  void fedAvgRound_asInDoc_hasRoundTypeAndPrintedForm() throws Exception {
    Computation round = fedAvgRound();
    String s = "<weights=float32[10,5],bias=float32[5]>";
    String d = "<x=float32[10],y=int32>*";
    String m = "<loss=float32>";
    Type expected = Types.parse(
        "(<" + s + "@SERVER,{" + d + "}@CLIENTS> -> <" + s + "@SERVER," + m + "@SERVER>)");
    assertThat(round.type()).isEqualTo(expected);
    assertThat(docText()).contains(round.type().compact()).contains(round.format());
    roundTrip(round);
  }

  @Test
  void docSnippets_matchTheCodeInThisTest() throws IOException {
    String doc = docText();
    String source = Files.readString(projectRoot().resolve(
        "tributary-core/src/test/java/io/tributary/examples/FederatedCoreDocExamplesTest.java"));
    List<String> names = List.of("average-temperature", "fedavg", "hierarchical",
        "edge-rounds");
    for (String name : names) {
      String inTest = between(source, "// doc:" + name + "\n", "// doc:end");
      String inDoc = between(doc, "<!-- doc:" + name + " -->\n```java\n", "```");
      assertThat(normalize(inDoc)).as("doc snippet %s", name).isEqualTo(normalize(inTest));
    }
    // One more, from-federated-language, runs in tributary-runtime's
    // FederatedLanguageDocExampleTest: it needs the runtime and federated-language.
    assertThat(docJavaBlocks(doc)).as("every java block in the doc is backed by a test")
        .hasSize(names.size() + 1);
    assertThat(doc).contains("<!-- doc:from-federated-language -->\n```java\n");
  }

  private static void roundTrip(Computation c) throws Exception {
    BuildingBlock read = ComputationProtos.fromBytes(
        ComputationProtos.toBytes(c.block()), LocalResolver.of(javaFunctionsIn(c.block())));
    // Selections by name come back as indices, so compare the serialized forms.
    assertThat(ComputationProtos.toBytes(read)).isEqualTo(ComputationProtos.toBytes(c.block()));
    assertThat(Computation.of(read).type()).isEqualTo(c.type());
  }

  private static List<JavaFunction> javaFunctionsIn(BuildingBlock block) {
    List<JavaFunction> found = new ArrayList<>();
    TypeChecker.check(block, n -> {
      if (n.node() instanceof JavaFunction f) {
        found.add(f);
      }
    });
    return found;
  }

  private static String between(String text, String start, String end) {
    int a = text.indexOf(start);
    assertThat(a).as("marker %s", start.strip()).isGreaterThanOrEqualTo(0);
    int b = text.indexOf(end, a + start.length());
    return text.substring(a + start.length(), b);
  }

  private static String normalize(String code) {
    return code.strip().replaceAll("\\s+", " ");
  }

  private static List<String> docJavaBlocks(String doc) {
    List<String> blocks = new ArrayList<>();
    Matcher m = Pattern.compile("```java\n").matcher(doc);
    while (m.find()) {
      blocks.add(doc.substring(m.end()));
    }
    return blocks;
  }

  private static String docText() throws IOException {
    return Files.readString(projectRoot().resolve("docs/federated-core.md"));
  }

  private static Path projectRoot() {
    String root = System.getProperty("tributary.projectRoot");
    return root != null ? Path.of(root) : Path.of(System.getProperty("user.dir")).getParent();
  }
}
