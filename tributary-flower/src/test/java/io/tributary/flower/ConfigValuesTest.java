package io.tributary.flower;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ConfigValuesTest {
  static Stream<Arguments> integers() {
    return Stream.of(
        Arguments.of(Map.of(), 7),
        Arguments.of(Map.of("local_epochs", Scalar.of(3L)), 3),
        Arguments.of(Map.of("epochs", Scalar.of(4L)), 4),
        Arguments.of(Map.of("local_epochs", Scalar.of(2L), "epochs", Scalar.of(9L)), 2),
        Arguments.of(Map.of("epochs", Scalar.of(5.0)), 5));
  }

  @ParameterizedTest
  @MethodSource("integers")
  void integer_acceptedForms_giveTheValue(Map<String, Scalar> config, int expected)
      throws Exception {
    assertThat(ConfigValues.integer(config, 7, 1, 100, "local_epochs", "epochs"))
        .isEqualTo(expected);
  }

  static Stream<Arguments> badIntegers() {
    return Stream.of(
        Arguments.of(Scalar.of(2.5), "integer"),
        Arguments.of(Scalar.of("3"), "integer"),
        Arguments.of(Scalar.of(true), "integer"),
        Arguments.of(Scalar.of(0L), "outside [1, 100]"),
        Arguments.of(new Scalar.UInt(-1L), "18446744073709551615"));
  }

  @ParameterizedTest
  @MethodSource("badIntegers")
  void integer_badValue_namesKeyAndProblem(Scalar value, String problem) {
    assertThatThrownBy(() -> ConfigValues.integer(Map.of("epochs", value), 7, 1, 100, "epochs"))
        .isInstanceOf(FlowerClientException.class).hasMessageContaining("'epochs'")
        .hasMessageContaining(problem);
  }

  @ParameterizedTest
  @MethodSource("reals")
  void real_forms_giveTheValueOrTheReason(Scalar value, Object expected) throws Exception {
    Map<String, Scalar> c = Map.of("lr", value);
    if (expected instanceof Double d) {
      assertThat(ConfigValues.real(c, 0.5, 0, "lr")).isEqualTo(d);
    } else {
      assertThatThrownBy(() -> ConfigValues.real(c, 0.5, 0, "lr"))
          .isInstanceOf(FlowerClientException.class).hasMessageContaining((String) expected);
    }
  }

  static Stream<Arguments> reals() {
    return Stream.of(
        Arguments.of(Scalar.of(0.01), 0.01),
        Arguments.of(Scalar.of(2L), 2.0),
        Arguments.of(Scalar.of(Double.NaN), "finite"),
        Arguments.of(Scalar.of(-1.0), "at least 0"),
        Arguments.of(Scalar.of("0.1"), "number"));
  }
}
