package io.tributary.learning.rounds.report;

/**
 * An axis range widened to round numbers, with its tick spacing: steps of 1, 2 or 5 times a power
 * of ten, about {@code maxTicks} ticks.
 *
 * @param min the lowest tick, at or below the data minimum
 * @param max the highest tick, at or above the data maximum
 * @param step the distance between ticks, {@code > 0}
 */
record NiceScale(double min, double max, double step) {
  NiceScale {
    if (!(step > 0) || !(max > min) || !Double.isFinite(min) || !Double.isFinite(max)) {
      throw new IllegalArgumentException("bad scale [" + min + ", " + max + "] step " + step);
    }
  }

  /**
   * The scale covering {@code [lo, hi]}, both finite; a single value gets a range around it, since
   * an axis of zero length cannot be drawn.
   */
  static NiceScale of(double lo, double hi, int maxTicks) {
    if (!Double.isFinite(lo) || !Double.isFinite(hi) || lo > hi) {
      throw new IllegalArgumentException("bad data range [" + lo + ", " + hi + "]");
    }
    if (maxTicks < 2) {
      throw new IllegalArgumentException("maxTicks must be >= 2, got " + maxTicks);
    }
    if (hi - lo < Math.max(Math.abs(lo), Math.abs(hi)) * 1e-9 || hi == lo) {
      double pad = lo == 0 ? 1 : Math.abs(lo) * 0.1;
      lo -= pad;
      hi += pad;
    }
    double step = niceStep((hi - lo) / (maxTicks - 1));
    // The slack keeps 0.45 / 0.05 = 9.000000000000002 from adding a tick below the data.
    double min = Math.floor(lo / step + 1e-9) * step;
    double max = Math.ceil(hi / step - 1e-9) * step;
    if (max <= min) {
      max = min + step;
    }
    return new NiceScale(min, max, step);
  }

  /** The number of ticks from {@link #min} to {@link #max} inclusive. */
  int ticks() {
    return (int) Math.round((max - min) / step) + 1;
  }

  /** The value of tick {@code i}, computed from the start so that errors do not accumulate. */
  double tick(int i) {
    double v = min + i * step;
    // Snap values like 0.30000000000000004 so that labels and positions agree.
    return Math.abs(v) < step * 1e-9 ? 0 : v;
  }

  private static double niceStep(double raw) {
    double exp = Math.floor(Math.log10(raw));
    double base = Math.pow(10, exp);
    double f = raw / base;
    double nice = f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10;
    return nice * base;
  }
}
