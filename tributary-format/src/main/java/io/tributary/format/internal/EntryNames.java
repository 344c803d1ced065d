package io.tributary.format.internal;

import io.tributary.format.UnsafeEntryNameException;
import java.util.Locale;

/** Checks zip entry names before anything is done with them. */
public final class EntryNames {
  private EntryNames() {}

  /**
   * Rejects names that an extracting tool could turn into a path outside its target folder, or
   * that mean different things on different systems.
   *
   * @throws UnsafeEntryNameException naming the entry and what is wrong with it
   */
  public static void checkSafe(String name) throws UnsafeEntryNameException {
    if (name.isEmpty()) {
      throw new UnsafeEntryNameException(name, "empty entry name");
    }
    if (name.startsWith("/")) {
      throw new UnsafeEntryNameException(name, "absolute path");
    }
    if (name.indexOf('\\') >= 0) {
      // Windows tools treat a backslash as a separator, so "a\..\..\x" would climb out.
      throw new UnsafeEntryNameException(name, "backslash in entry name");
    }
    if (name.length() >= 2 && name.charAt(1) == ':' && Character.isLetter(name.charAt(0))) {
      throw new UnsafeEntryNameException(name, "absolute path (drive letter)");
    }
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (c < 0x20 || c == 0x7F) {
        throw new UnsafeEntryNameException(name, "control character U+%04X in entry name".formatted((int) c));
      }
    }
    String body = name.endsWith("/") ? name.substring(0, name.length() - 1) : name;
    for (String segment : body.split("/", -1)) {
      if (segment.equals("..")) {
        throw new UnsafeEntryNameException(name, "'..' path segment");
      }
      if (segment.equals(".") || segment.isEmpty()) {
        throw new UnsafeEntryNameException(name, "empty or '.' path segment");
      }
    }
  }

  /** The key under which names are compared: tags, and so the folders named after them, ignore case. */
  public static String key(String name) {
    return name.toLowerCase(Locale.ROOT);
  }
}
