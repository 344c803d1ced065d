package io.tributary.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.learning.json.Json;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.stream.Stream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class JsonTest {

  static Stream<Arguments> numbers() {
    return Stream.of(
        Arguments.of(null, "null"),
        Arguments.of(-42L, "-42"),
        Arguments.of(new BigInteger("18446744073709551615"), "18446744073709551615"),
        Arguments.of(0.5, "0.5"),
        Arguments.of(1e-300, "1.0E-300"),
        Arguments.of(Double.NaN, "\"NaN\""),
        Arguments.of(Double.POSITIVE_INFINITY, "\"Infinity\""),
        Arguments.of(Double.NEGATIVE_INFINITY, "\"-Infinity\""));
  }

  @ParameterizedTest(name = "{1}")
  @MethodSource("numbers")
  void number_eachKind_isValidJson(Number n, String expected) {
    String json = Json.number(n);

    assertThat(json).isEqualTo(expected);
    StrictJson.parse(json);
  }

  @Property
  void number_anyFiniteDouble_parsesBackToTheSameValue(@ForAll double d) {
    Object parsed = StrictJson.parse(Json.number(d));

    if (Double.isFinite(d)) {
      assertThat(((BigDecimal) parsed).doubleValue()).isEqualTo(d);
    } else {
      assertThat(parsed).isInstanceOf(String.class);
    }
  }

  @Property
  void string_anyText_parsesBackUnchanged(@ForAll String s) {
    // Lone surrogates are escaped so the output stays valid UTF-16 text; they read back as themselves.
    assertThat(StrictJson.parse(Json.string(s))).isEqualTo(s);
  }

  static Stream<Arguments> strings() {
    return Stream.of(
        Arguments.of("plain", "\"plain\""),
        Arguments.of("a\"b\\c", "\"a\\\"b\\\\c\""),
        Arguments.of("line\nbreak\ttab", "\"line\\nbreak\\ttab\""),
        Arguments.of("\u0001", "\"\\u0001\""),
        Arguments.of("\ud800", "\"\\ud800\""),
        Arguments.of("ü😀", "\"ü😀\""));
  }

  @ParameterizedTest(name = "{1}")
  @MethodSource("strings")
  void string_specialCharacters_areEscaped(String s, String expected) {
    assertThat(Json.string(s)).isEqualTo(expected);
  }
}
