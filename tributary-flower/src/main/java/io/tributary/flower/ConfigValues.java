package io.tributary.flower;

import java.util.Map;

/**
 * Reads typed settings out of a Flower config map, accepting the forms Python servers send: an
 * integer may arrive as {@code sint64}, {@code uint64} or an integral {@code double}.
 *
 * <p>Each reader takes several keys because Flower users spell the same setting differently
 * ({@code local_epochs} or {@code epochs}); the first key present wins.
 */
public final class ConfigValues {
  private ConfigValues() {}

  /**
   * The integer under the first of {@code keys} present, else {@code fallback}.
   *
   * @throws FlowerClientException if the value is not an integer in [{@code min}, {@code max}]
   */
  public static int integer(Map<String, Scalar> config, int fallback, int min, int max,
      String... keys) throws FlowerClientException {
    for (String k : keys) {
      Scalar s = config.get(k);
      if (s == null) {
        continue;
      }
      long v = switch (s) {
        case Scalar.Int i -> i.value();
        case Scalar.UInt u -> throw outOfRange(k, Long.toUnsignedString(u.bits()), min, max);
        case Scalar.Double d when d.value() == Math.rint(d.value())
            && Math.abs(d.value()) < 0x1p62 -> (long) d.value();
        default -> throw new FlowerClientException("config '" + k + "' should be an integer, got "
            + s);
      };
      if (v < min || v > max) {
        throw outOfRange(k, Long.toString(v), min, max);
      }
      return (int) v;
    }
    return fallback;
  }

  /**
   * The number under the first of {@code keys} present, else {@code fallback}.
   *
   * @throws FlowerClientException if the value is not a finite number of at least {@code min}
   */
  public static double real(Map<String, Scalar> config, double fallback, double min,
      String... keys) throws FlowerClientException {
    for (String k : keys) {
      Scalar s = config.get(k);
      if (s == null) {
        continue;
      }
      if (s instanceof Scalar.Bool || s instanceof Scalar.Str || s instanceof Scalar.Bytes) {
        throw new FlowerClientException("config '" + k + "' should be a number, got " + s);
      }
      double v = s.asDouble().orElseThrow();
      if (!Double.isFinite(v) || v < min) {
        throw new FlowerClientException("config '" + k + "' is " + v
            + "; it must be finite and at least " + min);
      }
      return v;
    }
    return fallback;
  }

  private static FlowerClientException outOfRange(String key, String value, int min, int max) {
    return new FlowerClientException("config '" + key + "' is " + value + ", outside [" + min
        + ", " + max + "]");
  }
}
