package io.tributary.learning.rounds.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

class SvgLineChartTest {
  private static final Pattern POINT = Pattern.compile("([ML])(-?[0-9.]+) (-?[0-9.]+)");

  static Document parse(String svg) throws Exception {
    DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
    f.setNamespaceAware(true);
    f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
    return f.newDocumentBuilder().parse(new ByteArrayInputStream(
        svg.getBytes(StandardCharsets.UTF_8)));
  }

  static SvgLineChart chart(List<SvgLineChart.Series> series) {
    return SvgLineChart.of("Loss <&>", "round", "loss", 400, 300, Double.NaN, Double.NaN, series);
  }

  static List<double[]> points(String d) {
    List<double[]> out = new ArrayList<>();
    Matcher m = POINT.matcher(d);
    while (m.find()) {
      out.add(new double[] {m.group(1).equals("M") ? 0 : 1, Double.parseDouble(m.group(2)),
          Double.parseDouble(m.group(3))});
    }
    return out;
  }

  @Test
  void render_twoSeries_isWellFormedSvgWithOnePathPerSeriesAndEscapedText() throws Exception {
    double[] x = {1, 2, 3, 4};
    String svg = chart(List.of(
        new SvgLineChart.Series("train", "#1f77b4", x, new double[] {2.0, 1.5, 1.2, 1.0}),
        new SvgLineChart.Series("test \"held out\"", "#d62728", x, new double[] {2.1, 1.7, 1.4,
            1.3}))).render();

    Document doc = parse(svg);
    Element root = doc.getDocumentElement();
    assertThat(root.getLocalName()).isEqualTo("svg");
    assertThat(root.getAttribute("width")).isEqualTo("400");
    assertThat(doc.getElementsByTagNameNS("*", "path").getLength()).isEqualTo(2);
    assertThat(doc.getElementsByTagNameNS("*", "circle").getLength()).isEqualTo(8);
    assertThat(svg).contains("Loss &lt;&amp;&gt;").contains("test &quot;held out&quot;");
    assertThat(root.getTextContent()).contains("Loss <&>").contains("test \"held out\"");
  }

  @Test
  void render_decreasingSeries_pointsGoRightAndDownOnScreen() throws Exception {
    double[] x = {1, 2, 3, 4, 5};
    String svg = chart(List.of(new SvgLineChart.Series("loss", "#000", x,
        new double[] {5, 4, 3, 2, 1}))).render();
    NodeList paths = parse(svg).getElementsByTagNameNS("*", "path");
    List<double[]> pts = points(((Element) paths.item(0)).getAttribute("d"));

    assertThat(pts).hasSize(5);
    for (int i = 1; i < pts.size(); i++) {
      assertThat(pts.get(i)[1]).isGreaterThan(pts.get(i - 1)[1]);
      // SVG y grows downwards: a falling value is drawn lower, with a larger y.
      assertThat(pts.get(i)[2]).isGreaterThan(pts.get(i - 1)[2]);
    }
    for (double[] p : pts) {
      assertThat(p[1]).isBetween(0.0, 400.0);
      assertThat(p[2]).isBetween(0.0, 300.0);
    }
  }

  @Test
  void render_nanInTheMiddle_breaksTheLineIntoTwoSegments() throws Exception {
    double[] x = {1, 2, 3, 4, 5};
    String svg = chart(List.of(new SvgLineChart.Series("acc", "#000", x,
        new double[] {0.1, 0.2, Double.NaN, 0.4, 0.5}))).render();
    String d = ((Element) parse(svg).getElementsByTagNameNS("*", "path").item(0)).getAttribute("d");
    List<double[]> pts = points(d);

    assertThat(pts).hasSize(4);
    assertThat(pts.stream().filter(p -> p[0] == 0)).hasSize(2);
    assertThat(svg).doesNotContain("NaN").doesNotContain("Infinity");
  }

  @Test
  void render_noFinitePoints_saysNoDataInsteadOfFailing() throws Exception {
    String svg = chart(List.of(new SvgLineChart.Series("x", "#000", new double[] {1},
        new double[] {Double.POSITIVE_INFINITY}))).render();

    assertThat(parse(svg).getDocumentElement().getTextContent()).contains("no data");
  }

  @Test
  void render_singleConstantPoint_drawsItInsideThePlot() throws Exception {
    String svg = chart(List.of(new SvgLineChart.Series("x", "#000", new double[] {1},
        new double[] {0.5}))).render();
    Element c = (Element) parse(svg).getElementsByTagNameNS("*", "circle").item(0);

    assertThat(Double.parseDouble(c.getAttribute("cy"))).isBetween(36.0, 300.0 - 48);
  }

  @Test
  void render_fewWholeRounds_xTicksAreWholeNumbers() {
    String two = SvgLineChart.of("Loss", "round", "loss", 520, 320, 0, Double.NaN, List.of(
        new SvgLineChart.Series("a", "#000", new double[] {1, 2}, new double[] {10, 30})))
        .render();
    String one = SvgLineChart.of("Loss", "round", "loss", 520, 320, 0, Double.NaN, List.of(
        new SvgLineChart.Series("a", "#000", new double[] {1}, new double[] {10}))).render();

    assertThat(two).contains("text-anchor=\"middle\">1</text>")
        .contains("text-anchor=\"middle\">2</text>").doesNotContain(">1.2</text>")
        .doesNotContain(">1.5</text>");
    assertThat(one).contains("text-anchor=\"middle\">1</text>")
        .doesNotContain(">0.9</text>").doesNotContain(">1.1</text>");
  }

  @Test
  void render_fixedAxisFloorAndCeiling_axisCoversThemEvenIfDataDoNot() throws Exception {
    String svg = SvgLineChart.of("Accuracy", "round", "accuracy", 400, 300, 0, 1, List.of(
        new SvgLineChart.Series("a", "#000", new double[] {1, 2}, new double[] {0.5, 0.6})))
        .render();
    String text = parse(svg).getDocumentElement().getTextContent();

    assertThat(text).contains("0\n").contains("1\n");
  }

  @Test
  void series_mismatchedLengthsOrBadColour_areRejected() {
    assertThatThrownBy(() -> new SvgLineChart.Series("s", "#000", new double[] {1, 2},
        new double[] {1})).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("s");
    assertThatThrownBy(() -> new SvgLineChart.Series("s", "red\" onload=\"x", new double[] {1},
        new double[] {1})).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new SvgLineChart.Series("s", "#000", new double[] {Double.NaN},
        new double[] {1})).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void of_absurdSize_isRejected() {
    assertThatThrownBy(() -> SvgLineChart.of("t", "x", "y", 10, 10, Double.NaN, Double.NaN,
        List.of())).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("10x10");
  }
}
