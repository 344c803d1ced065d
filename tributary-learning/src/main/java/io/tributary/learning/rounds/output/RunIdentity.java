package io.tributary.learning.rounds.output;

import io.tributary.format.TrainingConfig;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SequencedMap;

/**
 * Which run a checkpoint belongs to: the kind of run ({@code simulate}, {@code server}), the
 * settings that change its results and its seed, recorded in every checkpoint tag's training
 * configuration so that a resume can refuse another run's checkpoint and name what differs.
 *
 * <p>The tag holds the properties {@code run_kind}, {@code run_seed}, {@code run_settings} (one
 * {@code name=value} line per setting, in order) and {@code run_settings_sha256} (the SHA-256 of
 * those lines, in hex), which is checked on reading so that an edited tag is refused too.
 *
 * @param kind the kind of run
 * @param settings the settings that change the run's results, by name, in a fixed order (names
 *     without {@code =} or line breaks, values without line breaks)
 * @param seed the run's seed
 */
public record RunIdentity(String kind, SequencedMap<String, String> settings, long seed) {
  /** The property holding the kind of run. */
  public static final String KIND = "run_kind";
  /** The property holding the seed. */
  public static final String SEED = "run_seed";
  /** The property holding the settings, one {@code name=value} line each. */
  public static final String SETTINGS = "run_settings";
  /** The property holding the SHA-256 of {@link #SETTINGS}, in hex. */
  public static final String HASH = "run_settings_sha256";
  /** The longest value a setting shows with in a refusal; longer ones are cut. */
  private static final int SHOWN = 120;

  public RunIdentity {
    Objects.requireNonNull(kind, "kind");
    settings = new LinkedHashMap<>(settings);
    for (Map.Entry<String, String> e : settings.entrySet()) {
      if (e.getKey().isEmpty() || e.getKey().contains("=") || e.getKey().contains("\n")
          || e.getValue().contains("\n")) {
        throw new IllegalArgumentException("a setting's name must be a word and its value one "
            + "line: " + e.getKey());
      }
    }
  }

  /** The settings as the tag holds them: one {@code name=value} line each. */
  public String settingsText() {
    StringBuilder b = new StringBuilder();
    settings.forEach((k, v) -> b.append(k).append('=').append(v).append('\n'));
    return b.toString();
  }

  /** The SHA-256 of {@link #settingsText}, in hex. */
  public String settingsHash() {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
          .digest(settingsText().getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has SHA-256", e);
    }
  }

  /** The properties a checkpoint tag records this identity in. */
  public SequencedMap<String, String> properties() {
    SequencedMap<String, String> p = new LinkedHashMap<>();
    p.put(KIND, kind);
    p.put(SEED, Long.toString(seed));
    p.put(SETTINGS, settingsText());
    p.put(HASH, settingsHash());
    return p;
  }

  /**
   * The identity a checkpoint tag records.
   *
   * @throws RunFileException when the tag records none (a checkpoint of another program, or of
   *     a Tributary from before run identities), or one that does not hold together (its hash is
   *     not that of its settings: an edited file)
   */
  public static RunIdentity of(String tag, TrainingConfig training) throws RunFileException {
    Map<String, String> p = training.properties();
    String kind = p.get(KIND);
    String seed = p.get(SEED);
    String text = p.get(SETTINGS);
    String hash = p.get(HASH);
    if (kind == null || seed == null || text == null || hash == null) {
      throw new RunFileException(RoundCheckpoints.FILE + " tag " + tag + " records no run "
          + "identity (" + KIND + ", " + SEED + ", " + SETTINGS + ", " + HASH + "): it is not a "
          + "checkpoint of this Tributary's runs; start a new run");
    }
    SequencedMap<String, String> settings = new LinkedHashMap<>();
    for (String line : text.isEmpty() ? new String[0] : text.split("\n")) {
      int eq = line.indexOf('=');
      if (line.isEmpty() || eq <= 0) {
        throw new RunFileException(RoundCheckpoints.FILE + " tag " + tag + "'s " + SETTINGS
            + " has a line that is not name=value: " + cut(line));
      }
      settings.put(line.substring(0, eq), line.substring(eq + 1));
    }
    long s;
    try {
      s = Long.parseLong(seed);
    } catch (NumberFormatException e) {
      throw new RunFileException(RoundCheckpoints.FILE + " tag " + tag + "'s " + SEED
          + " is not a whole number: " + cut(seed));
    }
    RunIdentity id = new RunIdentity(kind, settings, s);
    if (!id.settingsHash().equals(hash)) {
      throw new RunFileException(RoundCheckpoints.FILE + " tag " + tag + "'s " + HASH
          + " is not the hash of its settings: the file was changed after it was written");
    }
    return id;
  }

  /**
   * Refuses a checkpoint tag of another run than this one, naming what differs: the kind of run,
   * the seed, or each setting with both values.
   *
   * @throws RunFileException when the tag records no identity or another one
   */
  public void requireSame(String tag, TrainingConfig training) throws RunFileException {
    RunIdentity theirs = of(tag, training);
    if (!theirs.kind.equals(kind)) {
      throw new RunFileException(RoundCheckpoints.FILE + " tag " + tag + " is a checkpoint of a "
          + "tributary " + cut(theirs.kind) + " run, not of a tributary " + kind + " run");
    }
    List<String> differ = new ArrayList<>();
    if (theirs.seed != seed) {
      differ.add("seed " + seed + " here, " + theirs.seed + " in the checkpoint");
    }
    for (Map.Entry<String, String> e : settings.entrySet()) {
      String other = theirs.settings.get(e.getKey());
      if (!e.getValue().equals(other)) {
        differ.add(e.getKey() + " " + cut(e.getValue()) + " here, "
            + (other == null ? "(not set)" : cut(other)) + " in the checkpoint");
      }
    }
    for (String name : theirs.settings.keySet()) {
      if (!settings.containsKey(name)) {
        differ.add(cut(name) + " (not set) here, " + cut(theirs.settings.get(name))
            + " in the checkpoint");
      }
    }
    if (!differ.isEmpty()) {
      throw new RunFileException(RoundCheckpoints.FILE + " tag " + tag + " is a checkpoint of "
          + "another run: " + String.join("; ", differ.subList(0, Math.min(5, differ.size())))
          + (differ.size() > 5 ? "; and " + (differ.size() - 5) + " more" : "")
          + " (resume with that run's folder, or start a new run)");
    }
  }

  private static String cut(String s) {
    return s.length() <= SHOWN ? s : s.substring(0, SHOWN) + "... (" + s.length() + " chars)";
  }
}
