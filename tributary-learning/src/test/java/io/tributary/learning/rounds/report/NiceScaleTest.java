package io.tributary.learning.rounds.report;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class NiceScaleTest {
  @ParameterizedTest(name = "[{0}, {1}] -> [{3}, {4}] step {5}")
  @CsvSource({
      // lo, hi, maxTicks, min, max, step
      "0, 1, 6, 0, 1, 0.2",
      "0.13, 2.31, 6, 0, 2.5, 0.5",
      "1, 200, 8, 0, 200, 50",
      "1, 30, 6, 0, 30, 10",
      "0.5, 0.5, 5, 0.45, 0.55, 0.05",
      "0, 0, 5, -1, 1, 0.5",
      "-3, -1, 5, -3, -1, 0.5",
  })
  void of_range_coversItWithRoundTicks(double lo, double hi, int maxTicks, double min, double max,
      double step) {
    NiceScale s = NiceScale.of(lo, hi, maxTicks);

    assertThat(s.min()).isCloseTo(min, org.assertj.core.data.Offset.offset(1e-12));
    assertThat(s.max()).isCloseTo(max, org.assertj.core.data.Offset.offset(1e-12));
    assertThat(s.step()).isCloseTo(step, org.assertj.core.data.Offset.offset(1e-12));
    assertThat(s.min()).isLessThanOrEqualTo(lo);
    assertThat(s.max()).isGreaterThanOrEqualTo(hi);
    assertThat(s.ticks()).isLessThanOrEqualTo(maxTicks + 2);
  }

  @ParameterizedTest
  @CsvSource({"0.30000000000000004, 0.1, 0.3", "1, 1, 1", "0.05, 0.05, 0.05", "2.5, 0.5, 2.5",
      "0.12345, 0.01, 0.12"})
  void tick_value_printsCleanly(double v, double step, String expected) {
    assertThat(Markup.tick(v, step)).isEqualTo(expected);
  }
}
