package io.tributary.learning;

import java.util.Locale;
import java.util.Objects;

/**
 * One hyperparameter of an {@link AlgorithmSpec}: its name (Flower's spelling where Flower has
 * one, such as {@code server_learning_rate}), its default and the interval of values it takes,
 * written as in mathematics: {@code "[0, 1)"}, {@code "(0, inf)"}. Whole-number hyperparameters
 * ({@code num_malicious_clients}) are doubles holding integers, checked as such.
 *
 * @param name the name, as in {@code --hp NAME=VALUE} and in config.json's {@code
 *     algorithm_options}
 * @param defaultValue the value when none is given
 * @param range the values taken, such as {@code "[0, 0.5)"}; {@code inf} for no bound
 * @param integer whether only whole numbers are taken
 * @param description one line for the help
 */
public record Hyperparameter(String name, double defaultValue, String range, boolean integer,
    String description) {
  /**
   * Checks the declaration.
   *
   * @throws IllegalArgumentException when the name is not a lower-case identifier, the range is
   *     not an interval or the default lies outside it
   */
  public Hyperparameter {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(description, "description");
    if (!name.matches("[a-z][a-z0-9_]{0,63}")) {
      throw new IllegalArgumentException("a hyperparameter's name is a lower-case identifier "
          + "of at most 64 characters, got '" + name + "'");
    }
    range = Interval.parse(name, range).toString();
    new Interval(range).check(name, defaultValue, integer);
  }

  /** A real-valued hyperparameter taking the values of {@code range}, such as {@code "[0, 1)"}. */
  public static Hyperparameter real(String name, double defaultValue, String range,
      String description) {
    return new Hyperparameter(name, defaultValue, range, false, description);
  }

  /** A whole-number hyperparameter taking the values of {@code range}, such as {@code "[0, inf)"}. */
  public static Hyperparameter whole(String name, long defaultValue, String range,
      String description) {
    return new Hyperparameter(name, defaultValue, range, true, description);
  }

  /**
   * {@code value} if this hyperparameter takes it.
   *
   * @throws IllegalArgumentException naming the hyperparameter, the value and the range
   */
  public double check(double value) {
    return new Interval(range).check(name, value, integer);
  }

  /** An interval parsed from its notation. */
  private record Interval(double min, boolean minOpen, double max, boolean maxOpen) {
    Interval(String text) {
      this(parse("", text));
    }

    private Interval(Interval i) {
      this(i.min, i.minOpen, i.max, i.maxOpen);
    }

    static Interval parse(String name, String text) {
      Objects.requireNonNull(text, "range");
      String t = text.strip();
      int comma = t.indexOf(',');
      if (t.length() < 5 || comma < 0 || "[(".indexOf(t.charAt(0)) < 0
          || "])".indexOf(t.charAt(t.length() - 1)) < 0) {
        throw new IllegalArgumentException(name + ": range '" + text + "' is not an interval "
            + "such as [0, 1) or (0, inf)");
      }
      try {
        double lo = bound(t.substring(1, comma));
        double hi = bound(t.substring(comma + 1, t.length() - 1));
        Interval i = new Interval(lo, t.charAt(0) == '(', hi, t.charAt(t.length() - 1) == ')');
        if (!(lo <= hi)) {
          throw new IllegalArgumentException(name + ": range '" + text + "' is empty");
        }
        return i;
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(name + ": range '" + text + "' is not an interval "
            + "such as [0, 1) or (0, inf)", e);
      }
    }

    private static double bound(String s) {
      String b = s.strip().toLowerCase(Locale.ROOT);
      return switch (b) {
        case "inf", "+inf" -> Double.POSITIVE_INFINITY;
        case "-inf" -> Double.NEGATIVE_INFINITY;
        default -> Double.parseDouble(b);
      };
    }

    double check(String name, double v, boolean integer) {
      if (!Double.isFinite(v)) {
        throw new IllegalArgumentException(name + " must be finite, got " + v);
      }
      boolean inside = (minOpen ? v > min : v >= min) && (maxOpen ? v < max : v <= max);
      if (integer && v > Integer.MAX_VALUE) {
        throw new IllegalArgumentException(name + " must be a whole number at most "
            + Integer.MAX_VALUE + ", got " + v);
      }
      if (integer && (v != Math.rint(v) || !inside)) {
        throw new IllegalArgumentException(name + " must be a whole number "
            + (max == Double.POSITIVE_INFINITY && !minOpen ? ">= " + show(min) : "in " + this)
            + ", got " + v);
      }
      if (!inside) {
        throw new IllegalArgumentException(name + " must be in " + this + ", got " + v);
      }
      return v;
    }

    private static String show(double v) {
      if (Double.isInfinite(v)) {
        return v < 0 ? "-inf" : "inf";
      }
      return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v)
          : Double.toString(v);
    }

    @Override
    public String toString() {
      return (minOpen ? "(" : "[") + show(min) + ", " + show(max) + (maxOpen ? ")" : "]");
    }
  }
}
