package io.tributary.learning.rounds.report;

import java.util.List;
import java.util.Objects;

/**
 * A line chart as a standalone inline SVG element: axes with round-number ticks, one polyline per
 * series, point markers when there are few points, and a legend.
 *
 * <p>Non-finite y values (a metric that was not measured) leave a gap in their line rather than
 * failing or dragging the axis to infinity.
 */
public final class SvgLineChart {
  private static final int LEFT = 64;
  private static final int RIGHT = 16;
  private static final int TOP = 52;
  private static final int BOTTOM = 48;
  private static final int MARKER_LIMIT = 40;

  /**
   * One line of the chart.
   *
   * @param name the legend text
   * @param color a CSS colour such as {@code #1f77b4}
   * @param x the x values, finite
   * @param y the y values, one per x; NaN or infinite values are gaps
   */
  public record Series(String name, String color, double[] x, double[] y) {
    /** Checks the values and copies the arrays. */
    public Series {
      Objects.requireNonNull(name, "name");
      if (color == null || !color.matches("#[0-9a-fA-F]{3,8}|[a-z]{3,20}")) {
        throw new IllegalArgumentException("colour must be #hex or a CSS colour name, got " + color);
      }
      if (x.length != y.length) {
        throw new IllegalArgumentException("series '" + name + "' has " + x.length + " x values but "
            + y.length + " y values");
      }
      for (double v : x) {
        if (!Double.isFinite(v)) {
          throw new IllegalArgumentException("series '" + name + "' has a non-finite x value " + v);
        }
      }
      x = x.clone();
      y = y.clone();
    }
  }

  private final String title;
  private final String xLabel;
  private final String yLabel;
  private final int width;
  private final int height;
  private final double yFloor;
  private final double yCeiling;
  private final List<Series> series;

  private SvgLineChart(String title, String xLabel, String yLabel, int width, int height,
      double yFloor, double yCeiling, List<Series> series) {
    this.title = title;
    this.xLabel = xLabel;
    this.yLabel = yLabel;
    this.width = width;
    this.height = height;
    this.yFloor = yFloor;
    this.yCeiling = yCeiling;
    this.series = List.copyOf(series);
  }

  /**
   * A chart of {@code series}, sized {@code width x height} pixels.
   *
   * @param yFloor the y axis starts at or below this value (NaN: fit the data)
   * @param yCeiling the y axis ends at or above this value (NaN: fit the data)
   * @throws IllegalArgumentException for a size under 200 x 120 or over 4000 x 4000
   */
  public static SvgLineChart of(String title, String xLabel, String yLabel, int width, int height,
      double yFloor, double yCeiling, List<Series> series) {
    if (width < 200 || height < 120 || width > 4000 || height > 4000) {
      throw new IllegalArgumentException("chart size " + width + "x" + height
          + " is outside 200x120 .. 4000x4000");
    }
    return new SvgLineChart(Objects.requireNonNull(title, "title"),
        Objects.requireNonNull(xLabel, "xLabel"), Objects.requireNonNull(yLabel, "yLabel"),
        width, height, yFloor, yCeiling, series);
  }

  /** The {@code <svg>} element. */
  public String render() {
    StringBuilder out = new StringBuilder(4096);
    out.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"").append(width)
        .append("\" height=\"").append(height).append("\" viewBox=\"0 0 ").append(width).append(' ')
        .append(height).append("\" role=\"img\" aria-label=\"").append(Markup.escape(title))
        .append("\" font-family=\"sans-serif\" font-size=\"12\">\n");
    out.append("<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n");
    out.append("<text x=\"").append(width / 2).append("\" y=\"20\" text-anchor=\"middle\" "
        + "font-size=\"14\" font-weight=\"bold\">").append(Markup.escape(title)).append("</text>\n");
    double[] xr = range(true);
    double[] yr = range(false);
    if (xr == null || yr == null) {
      out.append("<text x=\"").append(width / 2).append("\" y=\"").append(height / 2)
          .append("\" text-anchor=\"middle\" fill=\"#666\">no data</text>\n</svg>");
      return out.toString();
    }
    NiceScale xs = NiceScale.of(xr[0], xr[1], Math.max(2, (width - LEFT - RIGHT) / 70));
    if (xs.step() < 1 && integralX()) {
      // Rounds are whole numbers: a run's first rounds get ticks 1, 2, not 1.2, 1.4.
      xs = new NiceScale(Math.floor(xs.min()), Math.max(Math.ceil(xs.max()),
          Math.floor(xs.min()) + 1), 1);
    }
    NiceScale ys = NiceScale.of(Double.isNaN(yFloor) ? yr[0] : Math.min(yFloor, yr[0]),
        Double.isNaN(yCeiling) ? yr[1] : Math.max(yCeiling, yr[1]),
        Math.max(2, (height - TOP - BOTTOM) / 40));
    Plot plot = new Plot(LEFT, TOP, width - LEFT - RIGHT, height - TOP - BOTTOM, xs, ys);
    axes(out, plot);
    for (Series s : series) {
      line(out, plot, s);
    }
    legend(out, plot);
    return out.append("</svg>").toString();
  }

  /** The plotting area in pixels and the scales mapped onto it. */
  private record Plot(double left, double top, double w, double h, NiceScale xs, NiceScale ys) {
    double px(double x) {
      return left + (x - xs.min()) / (xs.max() - xs.min()) * w;
    }

    double py(double y) {
      return top + h - (y - ys.min()) / (ys.max() - ys.min()) * h;
    }
  }

  /** Whether every x value of every series is a whole number. */
  private boolean integralX() {
    for (Series s : series) {
      for (double x : s.x()) {
        if (x != Math.rint(x)) {
          return false;
        }
      }
    }
    return true;
  }

  /** {min, max} over the finite points of all series, or null when there are none. */
  private double[] range(boolean ofX) {
    double lo = Double.POSITIVE_INFINITY;
    double hi = Double.NEGATIVE_INFINITY;
    for (Series s : series) {
      for (int i = 0; i < s.x().length; i++) {
        if (!Double.isFinite(s.y()[i])) {
          continue;
        }
        double v = ofX ? s.x()[i] : s.y()[i];
        lo = Math.min(lo, v);
        hi = Math.max(hi, v);
      }
    }
    return lo <= hi ? new double[] {lo, hi} : null;
  }

  private void axes(StringBuilder out, Plot p) {
    out.append("<g stroke=\"#e3e3e3\" stroke-width=\"1\">\n");
    for (int i = 0; i < p.ys().ticks(); i++) {
      String y = Markup.coord(p.py(p.ys().tick(i)));
      out.append("<line x1=\"").append(Markup.coord(p.left())).append("\" y1=\"").append(y)
          .append("\" x2=\"").append(Markup.coord(p.left() + p.w())).append("\" y2=\"").append(y)
          .append("\"/>\n");
    }
    out.append("</g>\n<g fill=\"#333\">\n");
    for (int i = 0; i < p.ys().ticks(); i++) {
      double v = p.ys().tick(i);
      out.append("<text x=\"").append(Markup.coord(p.left() - 6)).append("\" y=\"")
          .append(Markup.coord(p.py(v) + 4)).append("\" text-anchor=\"end\">")
          .append(Markup.tick(v, p.ys().step())).append("</text>\n");
    }
    for (int i = 0; i < p.xs().ticks(); i++) {
      double v = p.xs().tick(i);
      out.append("<text x=\"").append(Markup.coord(p.px(v))).append("\" y=\"")
          .append(Markup.coord(p.top() + p.h() + 16)).append("\" text-anchor=\"middle\">")
          .append(Markup.tick(v, p.xs().step())).append("</text>\n");
    }
    out.append("<text x=\"").append(Markup.coord(p.left() + p.w() / 2)).append("\" y=\"")
        .append(height - 10).append("\" text-anchor=\"middle\">").append(Markup.escape(xLabel))
        .append("</text>\n");
    String cy = Markup.coord(p.top() + p.h() / 2);
    out.append("<text x=\"16\" y=\"").append(cy).append("\" text-anchor=\"middle\" "
        + "transform=\"rotate(-90 16 ").append(cy).append(")\">").append(Markup.escape(yLabel))
        .append("</text>\n</g>\n");
    out.append("<rect x=\"").append(Markup.coord(p.left())).append("\" y=\"")
        .append(Markup.coord(p.top())).append("\" width=\"").append(Markup.coord(p.w()))
        .append("\" height=\"").append(Markup.coord(p.h()))
        .append("\" fill=\"none\" stroke=\"#999\"/>\n");
  }

  private static void line(StringBuilder out, Plot p, Series s) {
    StringBuilder d = new StringBuilder();
    boolean pen = false;
    int finite = 0;
    for (int i = 0; i < s.x().length; i++) {
      double y = s.y()[i];
      if (!Double.isFinite(y)) {
        pen = false;
        continue;
      }
      finite++;
      d.append(pen ? " L" : (d.isEmpty() ? "M" : " M")).append(Markup.coord(p.px(s.x()[i])))
          .append(' ').append(Markup.coord(p.py(y)));
      pen = true;
    }
    out.append("<g class=\"series\" data-name=\"").append(Markup.escape(s.name())).append("\">");
    out.append("<title>").append(Markup.escape(s.name())).append("</title>\n");
    if (!d.isEmpty()) {
      out.append("<path d=\"").append(d).append("\" fill=\"none\" stroke=\"").append(s.color())
          .append("\" stroke-width=\"2\" stroke-linejoin=\"round\"/>\n");
    }
    if (finite <= MARKER_LIMIT) {
      for (int i = 0; i < s.x().length; i++) {
        if (Double.isFinite(s.y()[i])) {
          out.append("<circle cx=\"").append(Markup.coord(p.px(s.x()[i]))).append("\" cy=\"")
              .append(Markup.coord(p.py(s.y()[i]))).append("\" r=\"2.5\" fill=\"")
              .append(s.color()).append("\"/>\n");
        }
      }
    }
    out.append("</g>\n");
  }

  /** One row of entries between the title and the plot, so that it never hides a line. */
  private void legend(StringBuilder out, Plot p) {
    double x = p.left();
    double y = TOP - 8;
    out.append("<g class=\"legend\">\n");
    for (Series s : series) {
      out.append("<line x1=\"").append(Markup.coord(x)).append("\" y1=\"")
          .append(Markup.coord(y - 4)).append("\" x2=\"").append(Markup.coord(x + 20))
          .append("\" y2=\"").append(Markup.coord(y - 4)).append("\" stroke=\"")
          .append(s.color()).append("\" stroke-width=\"2\"/><text x=\"")
          .append(Markup.coord(x + 24)).append("\" y=\"").append(Markup.coord(y)).append("\">")
          .append(Markup.escape(s.name())).append("</text>\n");
      // About 6.5 px per character at 12 px sans-serif, plus the swatch and a gap.
      x += 24 + 6.5 * s.name().length() + 16;
    }
    out.append("</g>\n");
  }
}
