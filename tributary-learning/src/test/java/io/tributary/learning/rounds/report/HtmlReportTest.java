package io.tributary.learning.rounds.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.learning.rounds.RoundRecord;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.SequencedMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class HtmlReportTest {
  static List<RoundRecord> rounds(int n) {
    List<RoundRecord> out = new ArrayList<>();
    for (int r = 1; r <= n; r++) {
      out.add(new RoundRecord(r, 2.0 / r, 1 - 0.5 / r, 2.2 / r, 0.9 - 0.4 / r, 2.5 / r, 5, 500,
          r == 2 ? 1 : 0, 0.25, 1000L * r, 1200L * r));
    }
    return out;
  }

  static SequencedMap<String, String> settings() {
    SequencedMap<String, String> s = new LinkedHashMap<>();
    s.put("algorithm", "fedavg");
    s.put("out", "runs/<x> & y");
    return s;
  }

  @Test
  void render_rounds_isSelfContainedWithTwoChartsAndNoScriptsOrFetches() {
    String html = HtmlReport.render("fedavg on digits", "completed", settings(), rounds(12));

    assertThat(html).startsWith("<!DOCTYPE html>");
    assertThat(count(html, "<svg ")).isEqualTo(2);
    assertThat(html.toLowerCase()).doesNotContain("<script").doesNotContain("<link")
        .doesNotContain("src=").doesNotContain("url(").doesNotContain("@import");
    // The only URL is the SVG namespace name, which browsers never fetch.
    Matcher urls = Pattern.compile("https?://[^\"]*").matcher(html);
    while (urls.find()) {
      assertThat(urls.group()).isEqualTo("http://www.w3.org/2000/svg");
    }
  }

  @Test
  void render_rounds_showsFinalAndBestFiguresAndEveryRound() {
    String html = HtmlReport.render("t", "completed", settings(), rounds(12));

    RoundRecord last = rounds(12).getLast();
    assertThat(html).contains(HtmlReport.percent(last.testAccuracy()) + "</div><div class=\"k\">"
        + "final test accuracy");
    assertThat(html).contains("lowest training loss (round 12)");
    assertThat(html).contains("client failures").contains(">1</div>");
    assertThat(count(html, "<tr><td class=\"n\">")).isEqualTo(12);
    assertThat(html).contains("runs/&lt;x&gt; &amp; y");
  }

  @Test
  void render_noRounds_stillRendersWithNoDataCharts() {
    String html = HtmlReport.render("t", "stopped before round 1", settings(), List.of());

    assertThat(html).contains("no data").contains("rounds completed").contains(
        "stopped before round 1");
  }

  @Test
  void bytes_sizes_useBinaryUnits() {
    assertThat(HtmlReport.bytes(512)).isEqualTo("512 B");
    assertThat(HtmlReport.bytes(1536)).isEqualTo("1.5 KiB");
    assertThat(HtmlReport.bytes(3L << 30)).isEqualTo("3.0 GiB");
    assertThat(HtmlReport.bytes(Long.MAX_VALUE)).isEqualTo("8.0 EiB");
  }

  private static int count(String s, String part) {
    int n = 0;
    for (int i = s.indexOf(part); i >= 0; i = s.indexOf(part, i + 1)) {
      n++;
    }
    return n;
  }
}
