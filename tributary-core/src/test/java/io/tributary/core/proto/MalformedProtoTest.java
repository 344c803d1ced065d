package io.tributary.core.proto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import com.google.protobuf.UnknownFieldSet;
import io.tributary.core.compiler.BuildingBlock;
import io.tributary.core.compiler.Lambda;
import io.tributary.core.compiler.Reference;
import io.tributary.core.proto.internal.Array;
import io.tributary.core.proto.internal.ArrayShape;
import io.tributary.core.proto.internal.Computation;
import io.tributary.core.proto.internal.DataType;
import io.tributary.core.proto.internal.FederatedType;
import io.tributary.core.proto.internal.JavaFunction;
import io.tributary.core.proto.internal.LocalComputation;
import io.tributary.core.proto.internal.PlacementLabel;
import io.tributary.core.proto.internal.PlacementSpec;
import io.tributary.core.proto.internal.TensorType;
import io.tributary.core.proto.internal.Type;
import io.tributary.core.types.Types;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every kind of broken message gives a MalformedComputationException naming path and problem. */
class MalformedProtoTest {
  private static Type type(String compact) {
    return TypeProtos.toProto(Types.parse(compact));
  }

  private static Computation ref(String name, String compact) {
    return Computation.newBuilder().setType(type(compact))
        .setReference(io.tributary.core.proto.internal.Reference.newBuilder().setName(name))
        .build();
  }

  private static Computation lambda(String param, String compact, Computation body) {
    return Computation.newBuilder().setType(type(compact))
        .setLambda(io.tributary.core.proto.internal.Lambda.newBuilder()
            .setParameterName(param).setResult(body))
        .build();
  }

  private static Computation literal(Array a) {
    return Computation.newBuilder().setType(type("int32[2]"))
        .setLiteral(io.tributary.core.proto.internal.Literal.newBuilder().setValue(a)).build();
  }

  @SuppressWarnings("deprecation") // Data.uri: deprecated upstream, still read
  private static Computation withType(Type t) {
    return Computation.newBuilder().setType(t)
        .setData(io.tributary.core.proto.internal.Data.newBuilder().setUri("mem://x")).build();
  }

  private static Computation call(Computation fn, Computation arg) {
    return Computation.newBuilder().setCall(io.tributary.core.proto.internal.Call.newBuilder()
        .setFunction(fn).setArgument(arg)).build();
  }

  private static Computation intrinsic(String uri, String compact) {
    return Computation.newBuilder().setType(type(compact))
        .setIntrinsic(io.tributary.core.proto.internal.Intrinsic.newBuilder().setUri(uri))
        .build();
  }

  static Stream<Arguments> broken() {
    Array.Builder ints = Array.newBuilder().setDtype(DataType.DT_INT32)
        .setShape(ArrayShape.newBuilder().addDim(2));
    return Stream.of(
        Arguments.of("no kind set", Computation.getDefaultInstance(), "$",
            "no computation kind is set"),
        Arguments.of("unknown kind", Computation.newBuilder().setUnknownFields(
            UnknownFieldSet.newBuilder().addField(77, UnknownFieldSet.Field.newBuilder()
                .addVarint(1).build()).build()).build(), "$", "unknown field numbers [77]"),
        Arguments.of("lambda without type", Computation.newBuilder().setLambda(
            io.tributary.core.proto.internal.Lambda.newBuilder().setParameterName("x")
                .setResult(ref("x", "int32"))).build(), "$.type", "missing"),
        Arguments.of("lambda typed as a tensor", lambda("x", "int32", ref("x", "int32")),
            "$.type", "needs a function type"),
        Arguments.of("call without function", Computation.newBuilder().setType(type("int32"))
            .setCall(io.tributary.core.proto.internal.Call.getDefaultInstance()).build(),
            "$.function", "missing"),
        Arguments.of("unbound reference", lambda("x", "(int32 -> int32)", ref("y", "int32")),
            "$.result", "'y', which is not bound"),
        Arguments.of("declared type disagrees",
            lambda("x", "(int32 -> float32)", ref("x", "float32")), "$.result",
            "declared type does not match"),
        Arguments.of("bad reference name", ref("", "int32"), "$", "reference name is empty"),
        Arguments.of("unknown intrinsic", intrinsic("federated_teleport", "(int32 -> int32)"),
            "$", "unknown intrinsic 'federated_teleport'"),
        Arguments.of("ill-typed intrinsic use",
            lambda("x", "({int32}@CLIENTS -> int32@SERVER)",
                call(intrinsic("federated_mean", "({int32}@CLIENTS -> int32@SERVER)"),
                    ref("x", "{int32}@CLIENTS"))),
            "$.result.function", "T is made of floating tensors"),
        Arguments.of("literal count", literal(ints.setInt32List(
            Array.IntList.newBuilder().addValue(1)).build()), "$.value",
            "needs 2 values but the int32 list has 1"),
        Arguments.of("literal list kind", literal(ints.clone().setFloat32List(
            Array.FloatList.newBuilder().addValue(1).addValue(2)).build()), "$.value",
            "needs its values in int32_list but has float32_list"),
        Arguments.of("literal content length", literal(ints.clone()
            .setContent(ByteString.copyFrom(new byte[7])).build()), "$.value",
            "content has 7 bytes"),
        Arguments.of("literal of unknown shape", literal(Array.newBuilder()
            .setDtype(DataType.DT_INT32).setShape(ArrayShape.newBuilder().addDim(-1)).build()),
            "$.value.shape", "known dimensions"),
        Arguments.of("unknown placement uri", withType(Type.newBuilder().setFederated(
            FederatedType.newBuilder().setMember(type("int32")).setPlacement(
                PlacementSpec.newBuilder().setValue(io.tributary.core.proto.internal.Placement
                    .newBuilder().setUri("mars")))).build()),
            "$.type.federated.placement", "unknown placement uri 'mars'"),
        Arguments.of("placement label", withType(Type.newBuilder().setFederated(
            FederatedType.newBuilder().setMember(type("int32")).setPlacement(
                PlacementSpec.newBuilder().setLabel(PlacementLabel.newBuilder().setLabel("p"))))
            .build()), "$.type.federated.placement", "placement labels ('p')"),
        Arguments.of("invalid dtype", withType(Type.newBuilder().setTensor(
            TensorType.newBuilder().setDtypeValue(11)).build()), "$.type.tensor.dtype",
            "dtype is missing or unknown"),
        Arguments.of("negative dimension", withType(Type.newBuilder().setTensor(
            TensorType.newBuilder().setDtype(DataType.DT_FLOAT).addDims(-5)).build()),
            "$.type", "dimension 0 of a float32 tensor type is -5"),
        Arguments.of("nesting rule", withType(Type.newBuilder().setSequence(
            io.tributary.core.proto.internal.SequenceType.newBuilder()
                .setElement(type("int32*"))).build()), "$.type", "int32** is not a valid type"),
        Arguments.of("type without kind", withType(Type.getDefaultInstance()), "$.type",
            "type has no kind set"),
        Arguments.of("tensorflow", Computation.newBuilder().setType(type("(int32 -> int32)"))
            .setTensorflow(io.tributary.core.proto.internal.TensorFlow.getDefaultInstance())
            .build(), "$", "TensorFlow computations are not supported"),
        Arguments.of("unknown local function", Computation.newBuilder()
            .setType(type("(float32 -> float32)"))
            .setLocalComputation(LocalComputation.newBuilder().setJavaFunction(
                JavaFunction.newBuilder().setName("rm_rf"))).build(), "$",
            "unknown local function 'rm_rf'"),
        Arguments.of("local function type disagrees", Computation.newBuilder()
            .setType(type("(int32 -> int32)"))
            .setLocalComputation(LocalComputation.newBuilder().setJavaFunction(
                JavaFunction.newBuilder().setName("square"))).build(), "$",
            "resolved function has type (float32 -> float32)"),
        Arguments.of("graph computation with a bad name", Computation.newBuilder()
            .setType(type("(float32 -> float32)"))
            .setLocalComputation(LocalComputation.newBuilder().setGraphComputation(
                io.tributary.core.proto.internal.GraphComputation.newBuilder().setName("a b")
                    .setProcedure("evaluate").setGraph(com.google.protobuf.ByteString.copyFrom(
                        new byte[] {1})))).build(),
            "$.local_computation.graph_computation", "'a b' is not a name"),
        Arguments.of("graph computation without a graph", Computation.newBuilder()
            .setType(type("(float32 -> float32)"))
            .setLocalComputation(LocalComputation.newBuilder().setGraphComputation(
                io.tributary.core.proto.internal.GraphComputation.newBuilder().setName("g")
                    .setProcedure("evaluate"))).build(),
            "$.local_computation.graph_computation", "has an empty graph"),
        Arguments.of("graph computation with a repeated setting", Computation.newBuilder()
            .setType(type("(float32 -> float32)"))
            .setLocalComputation(LocalComputation.newBuilder().setGraphComputation(
                io.tributary.core.proto.internal.GraphComputation.newBuilder().setName("g")
                    .setProcedure("evaluate").setGraph(com.google.protobuf.ByteString.copyFrom(
                        new byte[] {1}))
                    .addSetting(io.tributary.core.proto.internal.Setting.newBuilder()
                        .setName("lr").setValue("1"))
                    .addSetting(io.tributary.core.proto.internal.Setting.newBuilder()
                        .setName("lr").setValue("2")))).build(),
            "$.local_computation.graph_computation.setting[1]", "a second setting named 'lr'"),
        Arguments.of("graph computation declared federated", Computation.newBuilder()
            .setType(type("(float32@SERVER -> float32@SERVER)"))
            .setLocalComputation(LocalComputation.newBuilder().setGraphComputation(
                io.tributary.core.proto.internal.GraphComputation.newBuilder().setName("g")
                    .setProcedure("evaluate").setGraph(com.google.protobuf.ByteString.copyFrom(
                        new byte[] {1})))).build(),
            "$.local_computation.graph_computation", "mentions a federated or placement type"),
        Arguments.of("data as an unknown Any", Computation.newBuilder().setType(type("int32"))
            .setData(io.tributary.core.proto.internal.Data.newBuilder()
                .setContent(Any.newBuilder().setTypeUrl("type.googleapis.com/x.Unknown")))
                .build(), "$", "data content of type 'type.googleapis.com/x.Unknown' cannot be"
                + " resolved"),
        Arguments.of("data as an empty Any", Computation.newBuilder().setType(type("int32"))
            .setData(io.tributary.core.proto.internal.Data.newBuilder()
                .setContent(Any.getDefaultInstance())).build(), "$", "cannot be resolved"),
        Arguments.of("data reference without a uri", Computation.newBuilder()
            .setType(type("int32"))
            .setData(io.tributary.core.proto.internal.Data.newBuilder()
                .setContent(Any.newBuilder()
                    .setTypeUrl("type.googleapis.com/tributary.core.DataReference")))
            .build(), "$", "the data reference has an empty uri"),
        Arguments.of("data content that does not parse", Computation.newBuilder()
            .setType(type("int32"))
            .setData(io.tributary.core.proto.internal.Data.newBuilder()
                .setContent(Any.newBuilder()
                    .setTypeUrl("type.googleapis.com/federated_language.Array")
                    .setValue(com.google.protobuf.ByteString.copyFrom(new byte[] {(byte) 0xff}))))
            .build(), "$", "cannot be parsed"),
        Arguments.of("inline array of another type", Computation.newBuilder()
            .setType(type("float32"))
            .setData(io.tributary.core.proto.internal.Data.newBuilder()
                .setContent(Any.pack(Array.newBuilder().setDtype(DataType.DT_INT32)
                    .setShape(ArrayShape.getDefaultInstance())
                    .setInt32List(Array.IntList.newBuilder().addValue(1)).build(),
                    "type.googleapis.com")))
            .build(), "$", "expected float32"),
        Arguments.of("selection out of range",
            lambda("x", "(<int32> -> int32)", Computation.newBuilder().setType(type("int32"))
                .setSelection(io.tributary.core.proto.internal.Selection.newBuilder()
                    .setSource(ref("x", "<int32>")).setIndex(3)).build()),
            "$.result", "index 3 is out of range"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("broken")
  void fromProto_broken_throwsNamingPathAndProblem(
      String what, Computation proto, String path, String problem) {
    MalformedComputationException e = catchThrowableOfType(MalformedComputationException.class,
        () -> ComputationProtos.fromProto(proto, RandomComputations.LOCALS));
    assertThat(e).as(what).isNotNull();
    assertThat(e.path()).isEqualTo(path);
    assertThat(e.getMessage()).contains(problem);
    MalformedComputationException again = catchThrowableOfType(
        MalformedComputationException.class,
        () -> ComputationProtos.fromBytes(proto.toByteArray(), RandomComputations.LOCALS));
    assertThat(again).isNotNull();
    assertThat(again.getMessage()).contains(problem);
  }

  @Test
  void fromBytes_hostileNesting_isRejectedWithoutStackOverflow() {
    Computation c = ref("x", "int32");
    for (int i = 0; i < 500; i++) {
      c = Computation.newBuilder().setType(type("<int32>"))
          .setStruct(io.tributary.core.proto.internal.Struct.newBuilder().addElement(
              io.tributary.core.proto.internal.Struct.Element.newBuilder().setValue(c)))
          .build();
    }
    byte[] bytes = c.toByteArray();
    MalformedComputationException e = catchThrowableOfType(MalformedComputationException.class,
        () -> ComputationProtos.fromBytes(bytes, LocalResolver.none()));
    assertThat(e).isNotNull();
    Computation deep = c;
    MalformedComputationException direct = catchThrowableOfType(
        MalformedComputationException.class,
        () -> ComputationProtos.fromProto(deep, LocalResolver.none()));
    assertThat(direct).isNotNull();
    assertThat(direct.getMessage()).contains("nested deeper than");
  }

  @Test
  void fromProto_wellTypedLambda_reads() throws Exception {
    BuildingBlock b = ComputationProtos.fromProto(
        lambda("x", "(int32 -> int32)", ref("x", "int32")), LocalResolver.none());
    assertThat(b).isEqualTo(Lambda.of("x", Types.parse("int32"), new Reference("x")));
  }

  /** Found by ComputationProtosFuzzTest: the checker built a struct type from the name "00". */
  @Test
  void fromBytes_structElementNameNotAnIdentifier_throwsMalformed() {
    Computation c = Computation.newBuilder()
        .setStruct(io.tributary.core.proto.internal.Struct.newBuilder().addElement(
            io.tributary.core.proto.internal.Struct.Element.newBuilder().setName("00")
                .setValue(lambda("x", "(int32 -> int32)", ref("x", "int32")))))
        .build();
    MalformedComputationException e = catchThrowableOfType(MalformedComputationException.class,
        () -> ComputationProtos.fromBytes(c.toByteArray(), LocalResolver.none()));
    assertThat(e).isNotNull();
    assertThat(e.getMessage()).contains("$[0]").contains("'00' is not a name");
  }
}
