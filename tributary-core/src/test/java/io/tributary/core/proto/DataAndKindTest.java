package io.tributary.core.proto;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.core.compiler.BuildingBlock;
import io.tributary.core.compiler.Data;
import io.tributary.core.compiler.Lambda;
import io.tributary.core.compiler.Literal;
import io.tributary.core.proto.internal.Computation;
import io.tributary.core.types.Types;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

/** Data payloads as federated-language writes them, and telling computations from Parameters. */
class DataAndKindTest {
  @Test
  void toBytes_data_isWrittenAsContentAndReadBack() throws Exception {
    BuildingBlock root = Lambda.noParameter(new Data("mem://train",
        Types.parse("{float32[4]*}@CLIENTS")));
    Computation proto = Computation.parseFrom(ComputationProtos.toBytes(root));
    var data = proto.getLambda().getResult().getData();
    assertThat(data.hasContent()).isTrue();
    assertThat(data.getContent().getTypeUrl())
        .isEqualTo("type.googleapis.com/tributary.core.DataReference");
    assertThat(ComputationProtos.fromBytes(proto.toByteArray(), LocalResolver.none()))
        .isEqualTo(root);
  }

  @Test
  @SuppressWarnings("deprecation") // Data.uri: deprecated upstream, still read
  void fromBytes_dataAsUri_isStillRead() throws Exception {
    Computation proto = Computation.parseFrom(ComputationProtos.toBytes(Lambda.noParameter(
        new Data("mem://x", Types.parse("int32")))));
    Computation.Builder b = proto.toBuilder();
    b.getLambdaBuilder().getResultBuilder().getDataBuilder().setUri("mem://x");
    assertThat(ComputationProtos.fromBytes(b.build().toByteArray(), LocalResolver.none()))
        .isEqualTo(Lambda.noParameter(new Data("mem://x", Types.parse("int32"))));
  }

  @Test
  void fromBytes_inlineArrayContent_isReadAsALiteral() throws Exception {
    Tensor t = Tensor.ofLongs(Shape.of(3), 7, 8, 9);
    Computation literal = Computation.parseFrom(ComputationProtos.toBytes(
        Lambda.noParameter(new Literal(t))));
    Computation.Builder b = literal.toBuilder();
    var body = b.getLambdaBuilder().getResultBuilder();
    var array = body.getLiteral().getValue();
    body.clearLiteral().setData(io.tributary.core.proto.internal.Data.newBuilder()
        .setContent(com.google.protobuf.Any.pack(array, "type.googleapis.com")));
    assertThat(ComputationProtos.fromBytes(b.build().toByteArray(), LocalResolver.none()))
        .isEqualTo(Lambda.noParameter(new Literal(t)));
  }

  static Stream<Arguments> messages() {
    byte[] tensorType = "numpy.ndarray".getBytes(StandardCharsets.US_ASCII);
    byte[] parameters = new byte[5 + 2 + tensorType.length];
    parameters[0] = 0x0a;
    parameters[1] = 3;
    parameters[5] = 0x12;
    parameters[6] = (byte) tensorType.length;
    System.arraycopy(tensorType, 0, parameters, 7, tensorType.length);
    byte[] computation = ComputationProtos.toBytes(Lambda.noParameter(
        new Literal(Tensor.ofInts(Shape.scalar(), 1))));
    return Stream.of(
        Arguments.of("Flower Parameters", parameters, false),
        Arguments.of("empty Parameters", new byte[0], false),
        Arguments.of("a computation", computation, true),
        Arguments.of("a TensorFlow computation", new byte[] {0x0a, 0x04, 0x22, 0x02, 0x08, 0x03,
            0x12, 0x02, 0x0a, 0x00}, true),
        Arguments.of("not a message", new byte[] {(byte) 0xff, (byte) 0xff}, false),
        Arguments.of("truncated", new byte[] {0x22, 0x40, 0x01}, true));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("messages")
  void looksLikeComputation_message_tellsComputationsFromParameters(
      String what, byte[] bytes, boolean computation) throws IOException {
    assertThat(ComputationProtos.looksLikeComputation(new ByteArrayInputStream(bytes)))
        .isEqualTo(computation);
  }
}
