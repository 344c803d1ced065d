package io.tributary.core.types;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.tributary.tensor.DType;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class NestingTest {
  private static final Type I32 = TensorType.of(DType.INT32);

  static Stream<Arguments> violations() {
    Type fed = FederatedType.atServer(I32);
    Type fn = FunctionType.of(I32, I32);
    return Stream.of(
        Arguments.of((Runnable) () -> FederatedType.atClients(fed), "{int32@SERVER}@CLIENTS",
            "int32@SERVER"),
        Arguments.of((Runnable) () -> FederatedType.atServer(fn), "(int32 -> int32)@SERVER",
            "(int32 -> int32)"),
        Arguments.of((Runnable) () -> FederatedType.atServer(StructType.of(I32, fed)),
            "<int32,int32@SERVER>@SERVER", "int32@SERVER"),
        Arguments.of((Runnable) () -> FederatedType.atServer(new PlacementType()),
            "placement@SERVER", "placement"),
        Arguments.of((Runnable) () -> new SequenceType(new SequenceType(I32)), "int32**",
            "int32*"),
        Arguments.of((Runnable) () -> new SequenceType(StructType.of(new SequenceType(I32))),
            "<int32*>*", "int32*"),
        Arguments.of((Runnable) () -> new SequenceType(fed), "int32@SERVER*", "int32@SERVER"),
        Arguments.of((Runnable) () -> new SequenceType(fn), "(int32 -> int32)*",
            "(int32 -> int32)"));
  }

  @ParameterizedTest(name = "{1}")
  @MethodSource("violations")
  void construct_nestingViolation_throwsShowingType(
      Runnable construct, String offending, String part) {
    NestingException e = catchThrowableOfType(NestingException.class, construct::run);
    assertThat(e).isNotNull();
    assertThat(e.offendingType()).isEqualTo(offending);
    assertThat(e.forbiddenPart()).isEqualTo(part);
    assertThat(e.getMessage()).startsWith(offending + " is not a valid type").contains(part);
  }

  @Test
  void construct_allowedNestings_succeed() {
    assertThat(FederatedType.atClients(new SequenceType(I32))).hasToString("{int32*}@CLIENTS");
    assertThat(StructType.of(FederatedType.atServer(I32), FunctionType.of(I32, I32)))
        .hasToString("<int32@SERVER,(int32 -> int32)>");
    assertThat(FunctionType.of(FederatedType.atServer(I32), FederatedType.atServer(I32)))
        .hasToString("(int32@SERVER -> int32@SERVER)");
  }

  @Test
  void construct_notAllEqualAtServer_isItsOwnType() {
    // As in federated-language: {T}@SERVER exists, accepts T@SERVER, and is not accepted by it.
    FederatedType notAllEqual = new FederatedType(I32, Placement.SERVER, false);
    FederatedType allEqual = FederatedType.atServer(I32);
    assertThat(notAllEqual).hasToString("{int32}@SERVER");
    assertThat(Types.isAssignable(notAllEqual, allEqual)).isTrue();
    assertThat(Types.isAssignable(allEqual, notAllEqual)).isFalse();
  }

  @Test
  void construct_badNames_throw() {
    assertThatThrownBy(() -> StructType.named("a", I32, "a", I32))
        .hasMessageContaining("two elements named 'a'");
    assertThatThrownBy(() -> StructType.named("1a", I32)).hasMessageContaining("not a name");
    assertThatThrownBy(() -> new AbstractType("int32")).hasMessageContaining("upper-case");
    assertThatThrownBy(() -> TensorType.of(DType.INT32, -2))
        .hasMessageContaining("dimension 0");
  }
}
