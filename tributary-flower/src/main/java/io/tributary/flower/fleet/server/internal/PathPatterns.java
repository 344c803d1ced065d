package io.tributary.flower.fleet.server.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Git-style path patterns ({@code gitwildmatch}), as Flower's FAB build applies its include and
 * exclude lists and the App's {@code .gitignore}: a pattern without an inner slash matches at any
 * depth, one with a slash is anchored at the App's root, {@code **} spans directories, a trailing
 * slash matches a directory (and so every file under it), {@code !} re-includes, the last
 * matching pattern wins.
 */
public final class PathPatterns {
  private record Rule(Pattern regex, boolean negated) {}

  private final List<Rule> rules;

  private PathPatterns(List<Rule> rules) {
    this.rules = rules;
  }

  /** The patterns of {@code lines}; blank lines and {@code #} comments are skipped. */
  public static PathPatterns of(Iterable<String> lines) {
    List<Rule> rules = new ArrayList<>();
    for (String raw : lines) {
      String p = raw.stripTrailing();
      if (p.isEmpty() || p.startsWith("#")) {
        continue;
      }
      boolean negated = p.startsWith("!");
      if (negated) {
        p = p.substring(1);
      }
      if (p.startsWith("\\")) {
        p = p.substring(1);
      }
      boolean dir = p.endsWith("/");
      if (dir) {
        p = p.substring(0, p.length() - 1);
      }
      boolean anchored = p.contains("/");
      if (p.startsWith("/")) {
        p = p.substring(1);
      }
      if (p.isEmpty()) {
        continue;
      }
      String body = translate(p);
      String regex = (anchored ? "" : "(?:.*/)?") + body + (dir ? "/.*" : "(?:/.*)?");
      rules.add(new Rule(Pattern.compile(regex), negated));
    }
    return new PathPatterns(rules);
  }

  /** Whether {@code path} (relative, {@code /}-separated) is matched. */
  public boolean matches(String path) {
    boolean matched = false;
    for (Rule r : rules) {
      if (r.negated() == matched && r.regex().matcher(path).matches()) {
        matched = !r.negated();
      }
    }
    return matched;
  }

  private static String translate(String p) {
    StringBuilder b = new StringBuilder();
    int i = 0;
    while (i < p.length()) {
      char c = p.charAt(i);
      if (p.startsWith("**/", i)) {
        b.append("(?:.*/)?");
        i += 3;
      } else if (p.startsWith("/**", i) && i + 3 == p.length()) {
        b.append("/.*");
        i += 3;
      } else if (p.startsWith("**", i)) {
        b.append(".*");
        i += 2;
      } else if (c == '*') {
        b.append("[^/]*");
        i++;
      } else if (c == '?') {
        b.append("[^/]");
        i++;
      } else if (c == '[') {
        int end = p.indexOf(']', i + 1);
        if (end < 0) {
          b.append("\\[");
          i++;
        } else {
          String cls = p.substring(i + 1, end);
          if (cls.startsWith("!")) {
            cls = "^" + cls.substring(1);
          }
          b.append('[').append(cls.replace("\\", "\\\\")).append(']');
          i = end + 1;
        }
      } else if (c == '\\' && i + 1 < p.length()) {
        b.append(Pattern.quote(String.valueOf(p.charAt(i + 1))));
        i += 2;
      } else {
        b.append(Pattern.quote(String.valueOf(c)));
        i++;
      }
    }
    return b.toString();
  }
}
