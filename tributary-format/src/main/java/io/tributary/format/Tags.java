package io.tributary.format;

import java.util.Locale;
import java.util.Set;

/**
 * The rules for tag names: each is a folder in the zip, so it must be a portable file name.
 *
 * <p>A tag is 1 to {@value #MAX_LENGTH} characters from {@code A-Z a-z 0-9 . _ + -}, starts with a
 * letter, digit or underscore, does not end with a dot, is not a Windows device name
 * ({@code CON}, {@code NUL}, {@code COM1}, ...) and is not {@code tags.txt}. Tags are compared
 * ignoring case: {@code Round1} and {@code round1} are the same tag.
 */
public final class Tags {
  /** The longest tag. */
  public static final int MAX_LENGTH = 128;

  private static final Set<String> DEVICE_NAMES = Set.of("con", "prn", "aux", "nul",
      "com0", "com1", "com2", "com3", "com4", "com5", "com6", "com7", "com8", "com9",
      "lpt0", "lpt1", "lpt2", "lpt3", "lpt4", "lpt5", "lpt6", "lpt7", "lpt8", "lpt9");

  private Tags() {}

  /** What is wrong with {@code tag} as a tag, or null when it is valid. */
  public static String problem(String tag) {
    if (tag.isEmpty()) {
      return "empty tag";
    }
    String shown = tag.length() > 40 ? tag.substring(0, 40) + "..." : tag;
    if (tag.length() > MAX_LENGTH) {
      return "tag '" + shown + "' is longer than " + MAX_LENGTH + " characters";
    }
    for (int i = 0; i < tag.length(); i++) {
      char c = tag.charAt(i);
      boolean alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
      if (!alnum && c != '_' && (i == 0 || (c != '.' && c != '-' && c != '+'))) {
        return "tag '" + shown.replaceAll("\\p{Cntrl}", "?") + "' is not a portable file name: character '"
            + (Character.isISOControl(c) ? "?" : String.valueOf(c)) + "' at " + i
            + " (use letters, digits, '.', '_', '+', '-'; start with a letter, digit or '_')";
      }
    }
    if (tag.endsWith(".")) {
      return "tag '" + shown + "' ends with a dot, which Windows drops from file names";
    }
    String lower = tag.toLowerCase(Locale.ROOT);
    int dot = lower.indexOf('.');
    if (DEVICE_NAMES.contains(dot < 0 ? lower : lower.substring(0, dot))) {
      return "tag '" + shown + "' is a Windows device name";
    }
    if (lower.equals("tags.txt")) {
      return "tag 'tags.txt' would clash with the tag list";
    }
    return null;
  }

  /**
   * Checks {@code tag}.
   *
   * @throws IllegalArgumentException saying what is wrong with it
   */
  public static String check(String tag) {
    String problem = problem(tag);
    if (problem != null) {
      throw new IllegalArgumentException(problem);
    }
    return tag;
  }

  /** True when both name the same tag: equal ignoring case. */
  public static boolean same(String a, String b) {
    return a.equalsIgnoreCase(b);
  }
}
