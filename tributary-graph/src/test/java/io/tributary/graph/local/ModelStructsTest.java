package io.tributary.graph.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.core.types.StructType;
import io.tributary.core.values.StructValue;
import io.tributary.graph.PartialShape;
import io.tributary.graph.Variable;
import io.tributary.graph.VariableKind;
import io.tributary.graph.models.Model;
import io.tributary.graph.models.Models;
import io.tributary.tensor.DType;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

class ModelStructsTest {
  static Stream<Arguments> models() {
    return Stream.of(
        Arguments.of(Models.mclr(), "<dense=<kernel=float32[60,10],bias=float32[10]>>"),
        Arguments.of(Models.mlp("mlp", 64, 32, 10, DType.FLOAT32),
            "<hidden1=<kernel=float32[64,32],bias=float32[32]>,"
                + "hidden2=<kernel=float32[32,32],bias=float32[32]>,"
                + "output=<kernel=float32[32,10],bias=float32[10]>>"),
        Arguments.of(Models.fedAvgCnn(),
            "<conv1=<kernel=float32[5,5,1,32],bias=float32[32]>,"
                + "conv2=<kernel=float32[5,5,32,64],bias=float32[64]>,"
                + "fc1=<kernel=float32[3136,512],bias=float32[512]>,"
                + "output=<kernel=float32[512,10],bias=float32[10]>>"));
  }

  @ParameterizedTest
  @MethodSource("models")
  void structType_builtInModel_nestsByScope(Model model, String expected) {
    StructType t = LocalTraining.modelType(model);
    assertThat(t.toString()).isEqualTo(expected);
    assertThat(ModelStructs.parameterNames(t)).containsExactlyElementsOf(model.trainableNames());
  }

  @Test
  void toValue_fromValue_roundTrip() {
    Model mclr = Models.mclr();
    StructType t = LocalTraining.modelType(mclr);
    Map<String, Tensor> params = mclr.initialParameters(3);
    StructValue v = ModelStructs.toValue(t, params);
    assertThat(((StructValue) v.get("dense")).get("kernel")).isEqualTo(params.get("dense/kernel"));
    assertThat(ModelStructs.fromValue(t, v, "test")).isEqualTo(params);
  }

  static Stream<Arguments> badValues() {
    Tensor kernel = Tensor.zeros(DType.FLOAT32, Shape.of(60, 10));
    Tensor bias = Tensor.zeros(DType.FLOAT32, Shape.of(10));
    return Stream.of(
        Arguments.of("not a struct", kernel, "the model should be a StructValue"),
        Arguments.of("wrong name", StructValue.named("dense2",
            StructValue.named("kernel", kernel, "bias", bias)), "should be named 'dense'"),
        Arguments.of("too few", StructValue.named("dense", StructValue.named("kernel", kernel)),
            "'dense' has 1 elements"),
        Arguments.of("wrong shape", StructValue.named("dense",
            StructValue.named("kernel", bias, "bias", bias)),
            "parameter 'dense/kernel' should be a tensor float32[60,10] but is a tensor float32[10]"),
        Arguments.of("wrong dtype", StructValue.named("dense", StructValue.named("kernel",
            Tensor.zeros(DType.FLOAT64, Shape.of(60, 10)), "bias", bias)),
            "but is a tensor float64[60,10]"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("badValues")
  void fromValue_badValue_throwsNamingThePlace(String what, Object value, String message) {
    StructType t = LocalTraining.modelType(Models.mclr());
    assertThatThrownBy(() -> ModelStructs.fromValue(t, value, "graph:cu: model"))
        .isInstanceOf(LocalRunException.class)
        .hasMessageStartingWith("graph:cu: model: ")
        .hasMessageContaining(message);
  }

  private static Variable param(String name) {
    return new Variable(name, DType.FLOAT32, PartialShape.of(2), VariableKind.TRAINABLE);
  }

  @Test
  void structType_badNames_throw() {
    assertThatThrownBy(() -> ModelStructs.structType(List.of(param("a/b-c"))))
        .hasMessageContaining("path segment 'b-c'");
    assertThatThrownBy(() -> ModelStructs.structType(List.of(param("a"), param("a/b"))))
        .hasMessageContaining("'a/b' lies under 'a', which is a parameter");
    assertThatThrownBy(() -> ModelStructs.structType(List.of(param("a/b"), param("a"))))
        .hasMessageContaining("'a' is declared twice or is also a scope");
    assertThatThrownBy(() -> ModelStructs.structType(List.of(param("a//b"))))
        .hasMessageContaining("path segment ''");
  }
}
