package io.tributary.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.core.types.FederatedType;
import io.tributary.core.types.SequenceType;
import io.tributary.core.types.StructType;
import io.tributary.core.types.TensorType;
import io.tributary.core.types.Type;
import io.tributary.core.values.StructValue;
import io.tributary.tensor.DType;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

class ValueCheckerTest {
  private static final TensorType X = TensorType.of(DType.FLOAT32, TensorType.UNKNOWN_DIM, 3);
  private static final TensorType Y = TensorType.of(DType.INT64, TensorType.UNKNOWN_DIM);
  private static final StructType BATCH = StructType.named("x", X, "y", Y);

  private static StructValue batch(int rows, int cols) {
    return StructValue.named("x", Tensor.zeros(DType.FLOAT32, Shape.of(rows, cols)),
        "y", Tensor.zeros(DType.INT64, Shape.of(rows)));
  }

  /** Type, value, and the message's expected fragment (null when the value fits). */
  static Stream<Arguments> cases() {
    return Stream.of(
        Arguments.of(X, Tensor.zeros(DType.FLOAT32, Shape.of(2, 3)), null),
        Arguments.of(X, Tensor.zeros(DType.FLOAT32, Shape.of(2, 4)),
            "expected shape float32[?,3] but the tensor is float32[2,4]"),
        Arguments.of(X, Tensor.zeros(DType.FLOAT32, Shape.of(3)), "expected shape"),
        Arguments.of(X, Tensor.zeros(DType.FLOAT64, Shape.of(2, 3)), "expected dtype float32"),
        Arguments.of(TensorType.unknownRank(DType.INT64), Tensor.zeros(DType.INT64, Shape.of(1, 2, 3)),
            null),
        Arguments.of(X, "text", "expected a Tensor of type float32[?,3] but found a String"),
        Arguments.of(X, null, "null where a value of type float32[?,3] is expected"),
        Arguments.of(BATCH, batch(4, 3), null),
        Arguments.of(BATCH, StructValue.named("x", Tensor.zeros(DType.FLOAT32, Shape.of(4, 3)),
            "z", Tensor.zeros(DType.INT64, Shape.of(4))), "element 1 should be named 'y'"),
        Arguments.of(BATCH, StructValue.of(Tensor.zeros(DType.FLOAT32, Shape.of(4, 3))),
            "expected a struct of 2 elements"),
        Arguments.of(StructType.of(X, Y), batch(2, 3), null),
        Arguments.of(new SequenceType(BATCH), List.of(batch(2, 3), batch(1, 3)), null),
        Arguments.of(new SequenceType(BATCH), List.of(), null),
        Arguments.of(new SequenceType(BATCH), List.of(batch(2, 3), batch(1, 5)),
            "at {1}[x]"),
        Arguments.of(new SequenceType(BATCH), batch(2, 3), "expected an Iterable"),
        Arguments.of(FederatedType.atServer(X), Tensor.zeros(DType.FLOAT32, Shape.of(2, 3)),
            "cannot be checked as a local value"));
  }

  @ParameterizedTest
  @MethodSource("cases")
  void problem_table_namesTheFirstMisfitOrNothing(Type type, Object value, String expected) {
    Optional<String> problem = ValueChecker.problem(type, value, "");
    if (expected == null) {
      assertThat(problem).isEmpty();
    } else {
      assertThat(problem).hasValueSatisfying(m -> assertThat(m).contains(expected));
    }
    assertThat(ValueChecker.fits(type, value)).isEqualTo(expected == null);
  }

  @Test
  void check_misfit_throwsWithTheLocation() {
    assertThatThrownBy(() -> ValueChecker.check(new SequenceType(BATCH),
        List.of(batch(2, 3), batch(2, 4)), "argument 1"))
        .isInstanceOf(ValueMismatchException.class)
        .hasMessageStartingWith("argument 1: ")
        .hasMessageContaining("at {1}[x]");
  }
}
