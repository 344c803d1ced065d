package io.tributary.learning.rounds.output;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.learning.rounds.RoundRecord;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ProgressListenerTest {
  static RoundRecord round(int r, double seconds) {
    return new RoundRecord(r, 0.5, 0.8, 0.6, 0.875, 0.7, 5, 100, 0, seconds, 10, 10);
  }

  @Test
  void round_lines_oneLinePerRoundWithFiguresAndTimeLeft() {
    StringWriter s = new StringWriter();
    ProgressListener p = new ProgressListener(new PrintWriter(s), ProgressListener.Style.LINES, 4, 1);

    p.round(round(1, 2.0));
    p.round(round(2, 2.0));
    p.finish();

    String[] lines = s.toString().split("\n");
    assertThat(lines).hasSize(2);
    assertThat(lines[0]).startsWith("round 1/4").contains("loss 0.5000").contains("87.5%")
        .endsWith("eta 6s");
    assertThat(lines[1]).startsWith("round 2/4").endsWith("eta 4s");
    assertThat(s.toString()).doesNotContain("\r");
  }

  @Test
  void round_bar_redrawsInPlaceAndEndsWithANewline() {
    StringWriter s = new StringWriter();
    ProgressListener p = new ProgressListener(new PrintWriter(s), ProgressListener.Style.BAR, 4, 1);

    p.round(round(1, 1.0));
    p.round(round(4, 1.0));
    p.finish();

    String text = s.toString();
    assertThat(text).startsWith("\r[######------------------] round 1/4");
    assertThat(text).contains("\r[########################] round 4/4").endsWith("\n");
    assertThat(text.chars().filter(c -> c == '\n').count()).isEqualTo(1);
  }

  @Test
  void round_none_printsNothing() {
    StringWriter s = new StringWriter();
    ProgressListener p = new ProgressListener(new PrintWriter(s), ProgressListener.Style.NONE, 4, 1);

    p.round(round(1, 1.0));
    p.finish();

    assertThat(s.toString()).isEmpty();
  }

  @ParameterizedTest
  @CsvSource({"0, 0s", "7.4, 7s", "59.6, 1:00", "125, 2:05", "3725, 1:02:05", "NaN, ?", "-1, ?"})
  void duration_seconds_formatsCompactly(double seconds, String expected) {
    assertThat(ProgressListener.duration(seconds)).isEqualTo(expected);
  }
}
