package io.tributary.simulation;

import java.io.IOException;
import java.util.Optional;

/**
 * A {@code config.json} that does not hold settings this Tributary can run: not JSON, from a newer
 * version, or with a key whose value is missing, unknown or wrong; the message names the key.
 */
public final class SettingsFileException extends IOException {
  private static final long serialVersionUID = 1L;

  /** The key at fault, or null for the file as a whole. */
  private final String key;

  /**
   * A problem with {@code key} (null for the whole file), described by {@code problem}.
   *
   * @param key the key at fault, or null
   * @param problem what is wrong, such as {@code "must be a 32-bit integer, got 1.5"}
   */
  public SettingsFileException(String key, String problem) {
    super(RunFiles.CONFIG + (key == null ? " " : ": " + key + " ") + problem);
    this.key = key;
  }

  /** The key at fault; empty when the file as a whole is. */
  public Optional<String> key() {
    return Optional.ofNullable(key);
  }
}
