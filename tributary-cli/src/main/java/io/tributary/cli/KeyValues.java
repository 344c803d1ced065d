package io.tributary.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The values of a repeatable {@code KEY=VALUE} option ({@code --set}, {@code --hp}, {@code --spark-conf}). */
final class KeyValues {
  private KeyValues() {}

  /**
   * Each word split at its first {@code =}, key and value stripped, in the order given.
   *
   * @param flag the option, for the message
   * @param form how the message spells a word, such as {@code KEY=VALUE}
   * @throws IllegalArgumentException naming the option and the word (cut to 60 characters) that
   *     has no {@code =} or nothing before it
   */
  static List<Map.Entry<String, String>> split(String flag, String form, List<String> words) {
    List<Map.Entry<String, String>> out = new ArrayList<>();
    for (String w : words) {
      int eq = w.indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException(flag + " must be " + form + ", got '" + clip(w) + "'");
      }
      out.add(Map.entry(w.substring(0, eq).strip(), w.substring(eq + 1).strip()));
    }
    return out;
  }

  /** {@code s} cut to 60 characters, so that a mistyped value cannot flood the error line. */
  static String clip(String s) {
    return s.length() <= 60 ? s : s.substring(0, 57) + "...";
  }
}
