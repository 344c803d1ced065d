package io.tributary.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.core.computation.Computation;
import io.tributary.core.computation.Federated;
import io.tributary.core.computation.Intrinsics;
import io.tributary.core.proto.ComputationProtos;
import io.tributary.core.types.Types;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code tributary inspect} on serialized federated_language.Computation messages. */
class InspectComputationTest {
  @TempDir Path dir;

  private Path meanOfBroadcast() throws IOException {
    Computation c = Federated.computation(Types.parse("float32@SERVER"),
        x -> Intrinsics.federatedMean(Intrinsics.federatedBroadcast(x)));
    return Files.write(dir.resolve("computation.pb"), ComputationProtos.toBytes(c.block()));
  }

  @Test
  void inspect_computation_printsTypeAndBody() throws IOException {
    CliRun run = CliRun.of("inspect", meanOfBroadcast().toString());

    assertThat(run.exitCode()).isZero();
    assertThat(run.err()).isEmpty();
    assertThat(run.out()).isEqualToNormalizingNewlines("""
        type: (float32@SERVER -> float32@SERVER)
        body:
        (arg -> federated_mean(federated_broadcast(arg)))
        """);
  }

  @Test
  void inspectJson_computation_printsTypeAndBodyAsStrings() throws IOException {
    CliRun run = CliRun.of("inspect", "--json", meanOfBroadcast().toString());

    assertThat(run.exitCode()).isZero();
    JsonNode json = new ObjectMapper().readTree(run.out());
    assertThat(json.get("type").asText()).isEqualTo("(float32@SERVER -> float32@SERVER)");
    assertThat(json.get("body").asText())
        .isEqualTo("(arg -> federated_mean(federated_broadcast(arg)))");
  }

  @Test
  void inspect_tensorFlowComputation_exitsTwoNamingThePath() throws IOException {
    // Computation{type: Type{tensor: {dtype: DT_INT32}}, tensorflow: {graph_def: ""}}: a body
    // Tributary cannot run is refused at load time, not taken for Flower Parameters.
    byte[] tf = {0x0a, 0x04, 0x22, 0x02, 0x08, 0x03, 0x12, 0x02, 0x0a, 0x00};
    Path file = Files.write(dir.resolve("tf.pb"), tf);

    CliRun run = CliRun.of("inspect", file.toString());

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).startsWith("tributary inspect: " + file + ": not a computation")
        .contains("$").contains("TensorFlow").doesNotContain("Exception");
    assertThat(run.err().lines()).hasSize(1);
  }

  @Test
  void inspect_valueComputation_printsItsTypeNotAnInternalError() throws IOException {
    // A well-typed computation that is a value, not a function: a struct of one literal.
    io.tributary.core.compiler.BuildingBlock value = new io.tributary.core.compiler.Struct(
        java.util.List.of(new io.tributary.core.compiler.Struct.Element(
            java.util.Optional.of("x"), new io.tributary.core.compiler.Literal(
                io.tributary.tensor.Tensor.ofInts(io.tributary.tensor.Shape.scalar(), 7)))));
    Path file = Files.write(dir.resolve("value.pb"), ComputationProtos.toBytes(value));

    CliRun run = CliRun.of("inspect", file.toString());

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out()).startsWith("type: <x=int32>");
  }

  @Test
  void inspect_parametersWithAnUnknownFieldBeforeTensorType_readAsParameters()
      throws IOException {
    java.util.SequencedMap<String, io.tributary.tensor.Tensor> t = new java.util.LinkedHashMap<>();
    t.put("w", io.tributary.tensor.Tensor.ofFloats(io.tributary.tensor.Shape.of(2), 1, 2));
    Path pb = TestFiles.pb(dir, "p.pb", "numpy.ndarray", t);
    // Field 3 (length-delimited, empty) first: legal protobuf, unknown to Parameters.
    byte[] plain = Files.readAllBytes(pb);
    byte[] bytes = new byte[plain.length + 2];
    bytes[0] = 0x1a;
    System.arraycopy(plain, 0, bytes, 2, plain.length);
    Files.write(pb, bytes);

    CliRun run = CliRun.of("inspect", pb.toString());

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out()).contains("float32").contains("(2,)");
  }
}
