package io.tributary.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The test reader must refuse what a strict JSON library refuses, or CLI tests prove little. */
class StrictJsonTest {
  @ParameterizedTest
  @ValueSource(strings = {"NaN", "[1,]", "{\"a\":1,\"a\":2}", "{} {}", "[01]", "'a'",
      "{\"a\":1 // c\n}", "\"\\x\"", "[Infinity]", ""})
  void parse_nonStrictJson_isRefused(String text) {
    assertThatThrownBy(() -> StrictJson.parse(text))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not strict JSON");
  }

  @Test
  void parse_eachKind_becomesTheDocumentedJavaValue() {
    Object v = StrictJson.parse("{\"n\":0.50,\"i\":18446744073709551615,\"s\":\"x\","
        + "\"b\":true,\"z\":null,\"l\":[1]}");

    assertThat(v).isEqualTo(Map.of("n", new BigDecimal("0.50"),
        "i", new BigDecimal("18446744073709551615"), "s", "x", "b", true, "z", StrictJson.NULL,
        "l", List.of(BigDecimal.ONE)));
  }
}
