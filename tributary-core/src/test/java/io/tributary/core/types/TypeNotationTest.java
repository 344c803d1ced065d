package io.tributary.core.types;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.tensor.DType;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class TypeNotationTest {
  static Stream<Arguments> sourceDocumentExamples() {
    TensorType f32 = TensorType.of(DType.FLOAT32);
    return Stream.of(
        Arguments.of(TensorType.of(DType.INT32), "int32"),
        Arguments.of(TensorType.of(DType.FLOAT32, 10, 5), "float32[10,5]"),
        Arguments.of(TensorType.of(DType.INT32, -1), "int32[?]"),
        Arguments.of(TensorType.unknownRank(DType.FLOAT32), "float32[...]"),
        Arguments.of(TensorType.of(DType.INT32, 10), "int32[10]"),
        Arguments.of(
            StructType.named("a", TensorType.of(DType.INT32), "b", f32), "<a=int32,b=float32>"),
        Arguments.of(
            StructType.of(TensorType.of(DType.INT32), TensorType.of(DType.INT32)),
            "<int32,int32>"),
        Arguments.of(StructType.of(), "<>"),
        Arguments.of(new SequenceType(TensorType.of(DType.INT32)), "int32*"),
        Arguments.of(
            FunctionType.of(new SequenceType(TensorType.of(DType.INT32)),
                TensorType.of(DType.INT32)),
            "(int32* -> int32)"),
        Arguments.of(FunctionType.noParameter(f32), "( -> float32)"),
        Arguments.of(FederatedType.atClients(TensorType.of(DType.INT32)), "{int32}@CLIENTS"),
        Arguments.of(FederatedType.atClientsAllEqual(TensorType.of(DType.INT32)), "int32@CLIENTS"),
        Arguments.of(FederatedType.atServer(TensorType.of(DType.INT32)), "int32@SERVER"),
        Arguments.of(FederatedType.atEdges(TensorType.of(DType.INT32)), "{int32}@EDGES"),
        Arguments.of(FederatedType.atEdgesAllEqual(f32), "float32@EDGES"),
        Arguments.of(
            FunctionType.of(FederatedType.atEdges(new AbstractType("T")),
                FederatedType.atServer(new AbstractType("T"))),
            "({T}@EDGES -> T@SERVER)"),
        Arguments.of(
            FederatedType.atServer(
                StructType.named("weights", TensorType.of(DType.FLOAT32, 10, 5),
                    "bias", TensorType.of(DType.FLOAT32, 5))),
            "<weights=float32[10,5],bias=float32[5]>@SERVER"),
        Arguments.of(
            FederatedType.atClients(new SequenceType(StructType.named("X", f32, "Y", f32))),
            "{<X=float32,Y=float32>*}@CLIENTS"),
        Arguments.of(new SequenceType(StructType.named("X", f32, "Y", f32)),
            "<X=float32,Y=float32>*"),
        Arguments.of(new PlacementType(), "placement"),
        Arguments.of(
            FunctionType.of(FederatedType.atClients(new AbstractType("T")),
                FederatedType.atServer(new AbstractType("T"))),
            "({T}@CLIENTS -> T@SERVER)"),
        Arguments.of(
            FunctionType.noParameter(FunctionType.noParameter(f32)), "( -> ( -> float32))"));
  }

  @ParameterizedTest
  @MethodSource("sourceDocumentExamples")
  void print_sourceDocumentExample_matchesNotation(Type type, String text) {
    assertThat(Types.print(type)).isEqualTo(text);
    assertThat(type).hasToString(text);
  }

  @ParameterizedTest
  @MethodSource("sourceDocumentExamples")
  void parse_sourceDocumentExample_givesType(Type type, String text) {
    assertThat(Types.parse(text)).isEqualTo(type);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        " { int32 } @ CLIENTS ",
        "{ int32}@CLIENTS",
        "(int32*->int32)",
        "(   ->   float32  )",
        "< a = int32 , b = float32 >",
        "float32 [ 10 , 5 ]",
      })
  void parse_extraWhitespace_isAccepted(String text) {
    Type t = Types.parse(text);
    assertThat(Types.parse(Types.print(t))).isEqualTo(t);
  }

  @ParameterizedTest
  @ValueSource(strings = {"int32[]"})
  void parse_emptyShape_isScalar(String text) {
    assertThat(Types.parse(text)).isEqualTo(TensorType.of(DType.INT32));
  }

  @org.junit.jupiter.api.Test
  void parse_fourthTierRegistered_isAccepted() {
    Placement aggregators = new Placement("aggregators", "AGGREGATORS", 1, false);
    Placements three = Placements.standard().with(aggregators);
    Type t = Types.parse("{int32}@AGGREGATORS", three);
    assertThat(t).isEqualTo(new FederatedType(TensorType.of(DType.INT32), aggregators, false));
    assertThat(Types.print(t)).isEqualTo("{int32}@AGGREGATORS");
    assertThat(three.all()).containsExactly(Placement.CLIENTS, Placement.EDGES, aggregators,
        Placement.SERVER);
    assertThat(Placement.CLIENTS.isBelow(aggregators)).isTrue();
    assertThat(aggregators.isBelow(Placement.SERVER)).isTrue();
    assertThatThrownBy(() -> Types.parse("{int32}@AGGREGATORS"))
        .isInstanceOf(TypeParseException.class)
        .hasMessageContaining("unknown placement 'AGGREGATORS'");
  }

  @org.junit.jupiter.api.Test
  void parse_edges_isAStandardTierBetweenClientsAndServer() {
    assertThat(Placements.standard().all())
        .containsExactly(Placement.CLIENTS, Placement.EDGES, Placement.SERVER);
    assertThat(Placements.standard().byUri("edges")).contains(Placement.EDGES);
    assertThat(Placement.CLIENTS.isBelow(Placement.EDGES)).isTrue();
    assertThat(Placement.EDGES.isBelow(Placement.SERVER)).isTrue();
    assertThat(Placement.EDGES.singleton()).isFalse();
    assertThat(Types.parse("{<a=float32[2],n=int64>}@EDGES"))
        .isEqualTo(Types.atEdges(StructType.named("a", TensorType.of(DType.FLOAT32, 2), "n",
            TensorType.of(DType.INT64))));
  }
}
