package io.tributary.cli;

import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The library's names of the differential-privacy settings ({@code DpSettings}'s components:
 * {@code noiseMultiplier}, {@code clip}, ...) and the flags that set them, so that a value the
 * library refuses reaches the user with the flag they typed.
 */
final class DpFlags {
  private DpFlags() {}

  private static final Map<String, String> FLAGS = Map.ofEntries(
      Map.entry("mode", "--dp"), Map.entry("noiseMultiplier", "--noise-multiplier"),
      Map.entry("clip", "--clip"), Map.entry("targetQuantile", "--target-quantile"),
      Map.entry("clipLr", "--clip-lr"), Map.entry("clippedCountStddev", "--clipped-count-stddev"),
      Map.entry("localNoiseStddev", "--local-noise-stddev"), Map.entry("delta", "--delta"),
      Map.entry("secure", "--secure-aggregation"), Map.entry("neighbours", "--secagg-neighbours"),
      Map.entry("threshold", "--secagg-threshold"), Map.entry("bits", "--secagg-bits"));

  /** A whole word that is one of the names: not part of a longer word or of a flag. */
  private static final Pattern NAME = Pattern.compile("(?<![\\w-])("
      + String.join("|", FLAGS.keySet()) + ")(?![\\w-])");

  /** {@code message} of a refused DP setting, each library name replaced by its flag. */
  static String render(String message) {
    Matcher m = NAME.matcher(message);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      m.appendReplacement(out, Matcher.quoteReplacement(FLAGS.get(m.group(1))));
    }
    return m.appendTail(out).toString();
  }

  /** {@code e} with its message in flags, as the command line reports it. */
  static IllegalArgumentException rendered(IllegalArgumentException e) {
    return new IllegalArgumentException(render(e.getMessage()), e);
  }
}
