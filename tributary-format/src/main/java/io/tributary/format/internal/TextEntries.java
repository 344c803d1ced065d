package io.tributary.format.internal;

import io.tributary.format.ModelFormatException;
import io.tributary.format.Tags;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The text entries: {@code tags.txt}, {@code <tag>/params.txt} and {@code <tag>/updater.txt}.
 *
 * <p>All are UTF-8 with one record per line ({@code \n}; a {@code \r} before it is tolerated) and
 * blank lines ignored. A mapping line is a name, a space and one or more space-separated
 * references ({@code 7} for this tag's file 7, {@code other/7} for tag other's). Names are
 * percent-encoded where needed ({@code %}, space and control characters as {@code %XX} of their
 * UTF-8 bytes), so every name, however odd, is one token; other characters, Unicode included,
 * are written as they are.
 */
public final class TextEntries {
  /** A reference to array file {@code index} of {@code tag}, or of the own tag when tag is null. */
  public record Ref(String tag, int index) {
    /** The reference as written in a text entry of {@code ownTag}. */
    public String text(String ownTag) {
      return tag == null || Tags.same(tag, ownTag) ? Integer.toString(index) : tag + "/" + index;
    }
  }

  /** One mapping line: a name and its references. */
  public record Line(String name, List<Ref> refs) {
    public Line {
      refs = List.copyOf(refs);
    }
  }

  private TextEntries() {}

  /** Decodes strict UTF-8. */
  public static String utf8(String entry, byte[] bytes) throws ModelFormatException {
    try {
      return StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes))
          .toString();
    } catch (CharacterCodingException e) {
      throw new ModelFormatException(entry, "not valid UTF-8 text", e);
    }
  }

  private static List<String> lines(String text) {
    List<String> out = new ArrayList<>();
    for (String line : text.split("\n", -1)) {
      String l = line.endsWith("\r") ? line.substring(0, line.length() - 1) : line;
      out.add(l);
    }
    return out;
  }

  /** {@code tags.txt}'s bytes. */
  public static byte[] formatTags(List<String> tags) {
    StringBuilder sb = new StringBuilder();
    for (String t : tags) {
      sb.append(t).append('\n');
    }
    return sb.toString().getBytes(StandardCharsets.UTF_8);
  }

  /** Parses {@code tags.txt}: valid, distinct (ignoring case) tags, at least one, oldest first. */
  public static List<String> parseTags(String entry, byte[] bytes) throws ModelFormatException {
    List<String> tags = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    List<String> lines = lines(utf8(entry, bytes));
    for (int i = 0; i < lines.size(); i++) {
      String t = lines.get(i);
      if (t.isBlank()) {
        continue;
      }
      String problem = Tags.problem(t);
      if (problem != null) {
        throw new ModelFormatException(entry, "line " + (i + 1) + ": " + problem);
      }
      if (!seen.add(EntryNames.key(t))) {
        throw new ModelFormatException(entry, "line " + (i + 1) + ": tag '" + t + "' is listed twice (tags ignore case)");
      }
      tags.add(t);
    }
    if (tags.isEmpty()) {
      throw new ModelFormatException(entry, "lists no tags");
    }
    return tags;
  }

  /** A mapping entry's bytes. */
  public static byte[] formatLines(List<Line> lines, String ownTag) {
    StringBuilder sb = new StringBuilder();
    for (Line l : lines) {
      sb.append(escape(l.name()));
      for (Ref r : l.refs()) {
        sb.append(' ').append(r.text(ownTag));
      }
      sb.append('\n');
    }
    return sb.toString().getBytes(StandardCharsets.UTF_8);
  }

  /**
   * Parses a mapping entry. Tags in references are checked for form only; whether they and
   * their files exist is the caller's check.
   *
   * @param multi whether a line may hold more than one reference ({@code updater.txt})
   */
  public static List<Line> parseLines(String entry, byte[] bytes, boolean multi) throws ModelFormatException {
    List<Line> out = new ArrayList<>();
    Set<String> names = new HashSet<>();
    List<String> lines = lines(utf8(entry, bytes));
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      if (line.isBlank()) {
        continue;
      }
      String where = "line " + (i + 1) + ": ";
      String[] tokens = line.split(" ", -1);
      if (tokens.length < 2 || (!multi && tokens.length != 2)) {
        throw new ModelFormatException(entry, where + "expected a name and " + (multi ? "references" : "one reference")
            + " separated by single spaces");
      }
      String name = unescape(entry, where, tokens[0]);
      if (!names.add(name)) {
        throw new ModelFormatException(entry, where + "'" + name + "' is listed twice");
      }
      List<Ref> refs = new ArrayList<>();
      for (int t = 1; t < tokens.length; t++) {
        refs.add(parseRef(entry, where, tokens[t]));
      }
      out.add(new Line(name, refs));
    }
    return out;
  }

  private static Ref parseRef(String entry, String where, String token) throws ModelFormatException {
    int slash = token.lastIndexOf('/');
    String tag = slash < 0 ? null : token.substring(0, slash);
    String number = token.substring(slash + 1);
    if (tag != null && Tags.problem(tag) != null) {
      throw new ModelFormatException(entry, where + "reference '" + token + "': " + Tags.problem(tag));
    }
    if (number.isEmpty() || number.length() > 9 || !number.chars().allMatch(c -> c >= '0' && c <= '9')
        || (number.length() > 1 && number.charAt(0) == '0')) {
      throw new ModelFormatException(entry, where + "reference '" + token + "' is not [tag/]index");
    }
    return new Ref(tag, Integer.parseInt(number));
  }

  /** Percent-encodes {@code %}, space and control characters so a name is one token. */
  public static String escape(String name) {
    StringBuilder sb = new StringBuilder(name.length());
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (c == '%' || c == ' ' || c < 0x20 || c == 0x7F) {
        sb.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
            .append(Character.toUpperCase(Character.forDigit(c & 15, 16)));
      } else {
        sb.append(c);
      }
    }
    return sb.toString();
  }

  private static String unescape(String entry, String where, String token) throws ModelFormatException {
    if (token.isEmpty()) {
      throw new ModelFormatException(entry, where + "empty name");
    }
    if (token.indexOf('%') < 0) {
      return token;
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(token.length());
    byte[] raw = token.getBytes(StandardCharsets.UTF_8);
    for (int i = 0; i < raw.length; i++) {
      if (raw[i] != '%') {
        bytes.write(raw[i]);
        continue;
      }
      int hi = i + 2 < raw.length ? Character.digit(raw[i + 1], 16) : -1;
      int lo = i + 2 < raw.length ? Character.digit(raw[i + 2], 16) : -1;
      if (hi < 0 || lo < 0) {
        throw new ModelFormatException(entry, where + "bad percent escape in name '" + token + "'");
      }
      bytes.write(hi * 16 + lo);
      i += 2;
    }
    return utf8(entry, bytes.toByteArray());
  }
}
