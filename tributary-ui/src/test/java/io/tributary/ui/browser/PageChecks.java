package io.tributary.ui.browser;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Predicate;

/** What every live page must do in a real browser: accessibility, and waiting for what it shows. */
final class PageChecks {
  /** Where the screenshots go: kept as the build's test artifacts. */
  static final Path SCREENSHOTS = Path.of("target", "ui-screenshots");

  private PageChecks() {}

  /** The text of the figure labelled {@code key} ({@code ""} while there is none). */
  static String figure(Chromium c, String key) throws IOException {
    return c.eval("document.querySelector('[data-key=\"' + " + MiniJson.quote(key)
        + " + '\"] .v')?.textContent");
  }

  /**
   * Evaluates {@code expression} until its value passes {@code test}; returns how long that took.
   *
   * @throws AssertionError with the last value when {@code within} passes first
   */
  static Duration await(Chromium c, String expression, Predicate<String> test, Duration within)
      throws IOException {
    long start = System.nanoTime();
    String last = c.eval(expression);
    while (!test.test(last)) {
      if (System.nanoTime() - start > within.toNanos()) {
        throw new AssertionError("after " + within + " the page's " + expression + " is '" + last
            + "'; console: " + c.console());
      }
      Chromium.pause(10);
      last = c.eval(expression);
    }
    return Duration.ofNanos(System.nanoTime() - start);
  }

  /**
   * Labels, contrast and keyboard: every chart and control is named, all text has a contrast of
   * 4.5:1 against its background (3:1 for large text), and the keyboard reaches the round table's
   * toggle, shows where focus is, and opens and closes the table.
   */
  static void accessible(Chromium c) throws IOException {
    labelledAndLegible(c);
    keyboard(c);
  }

  /**
   * Labels and contrast: the page has a language and a title, every chart and progress bar is
   * named, every table has a caption, and all text has WCAG AA contrast.
   */
  static void labelledAndLegible(Chromium c) throws IOException {
    assertThat(c.eval("document.documentElement.lang")).isEqualTo("en");
    assertThat(c.eval("document.title")).isNotBlank();
    assertThat(c.eval("[...document.querySelectorAll('svg')].filter(s => "
        + "s.getAttribute('role') !== 'img' || !s.getAttribute('aria-label')).length"))
        .as("charts without role=img and a label").isEqualTo("0");
    assertThat(c.eval("[...document.querySelectorAll('progress')].filter(p => "
        + "p.labels.length === 0).length")).as("progress bars without a label").isEqualTo("0");
    assertThat(c.eval("[...document.querySelectorAll('table')].filter(t => !t.caption).length"))
        .as("tables without a caption").isEqualTo("0");
    assertThat(c.eval(CONTRAST)).as("text below the contrast minimum").isEqualTo("[]");
  }

  /** The keyboard reaches the round table's toggle, shows focus, and opens and closes it. */
  private static void keyboard(Chromium c) throws IOException {

    c.eval("document.activeElement.blur() || 'ok'");
    String reached = "";
    for (int i = 0; i < 10 && !reached.equals("rounds-summary"); i++) {
      c.press("Tab", "Tab", 9);
      reached = c.eval("document.activeElement.id");
    }
    assertThat(reached).as("Tab reaches the round table's toggle").isEqualTo("rounds-summary");
    assertThat(c.eval("getComputedStyle(document.activeElement).outlineStyle"))
        .as("focus is visible").isNotEqualTo("none");
    String open = c.eval("document.getElementById('rounds').open");
    c.press("Enter", "Enter", 13);
    await(c, "document.getElementById('rounds').open", v -> !v.equals(open),
        Duration.ofSeconds(2));
    c.press("Enter", "Enter", 13);
    await(c, "document.getElementById('rounds').open", v -> v.equals(open),
        Duration.ofSeconds(2));
  }

  /**
   * The elements whose own text has less contrast than WCAG 2's AA minimum against the first
   * opaque background behind them (SVG text against the chart's white).
   */
  private static final String CONTRAST = """
      JSON.stringify((() => {
        const rgb = s => { const m = s.match(/[0-9.]+/g); return m ? m.map(Number) : null; };
        const lum = c => { const f = v => { v /= 255;
            return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
          return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]); };
        const ratio = (a, b) => { const x = lum(a), y = lum(b);
          return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05); };
        const background = el => {
          for (let e = el; e; e = e.parentElement) {
            const b = rgb(getComputedStyle(e).backgroundColor);
            if (b && (b.length < 4 || b[3] > 0)) return b;
          }
          return [255, 255, 255];
        };
        const bad = [];
        for (const el of document.querySelectorAll('body *')) {
          const own = [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
          if (!own || el.closest('title, style, script')) continue;
          const cs = getComputedStyle(el);
          if (cs.visibility === 'hidden' || cs.display === 'none') continue;
          const inSvg = el instanceof SVGElement;
          const fg = rgb(inSvg ? cs.fill : cs.color);
          if (!fg) continue;
          const bg = inSvg ? [255, 255, 255] : background(el);
          const size = parseFloat(cs.fontSize), bold = parseInt(cs.fontWeight) >= 700;
          const min = size >= 24 || (bold && size >= 18.66) ? 3 : 4.5;
          const r = ratio(fg, bg);
          if (r < min) bad.push(el.tagName + ' "' + el.textContent.trim().slice(0, 30) + '" '
              + r.toFixed(2));
        }
        return bad;
      })())""";
}
