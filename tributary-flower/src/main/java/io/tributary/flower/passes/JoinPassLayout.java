package io.tributary.flower.passes;

import io.tributary.flower.Scalar;
import io.tributary.flower.records.ConfigRecord;
import io.tributary.flower.records.Record;
import io.tributary.flower.records.RecordDict;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A secure pass's stages over the legacy {@code Join} transport, whose only messages are the
 * server's instructions: each stage message ({@link SecurePassMessages}) travels as a {@code
 * FitIns} without parameters, and the node's reply as a {@code FitRes} without parameters and
 * with 0 examples, as Flower's own compat code maps a Message's records onto FitIns/FitRes. The
 * FitIns config holds {@value #MESSAGE_TYPE_KEY} = {@value SecurePassMessages#MESSAGE_TYPE}, and
 * every entry {@code k} of the message's config record {@code r} under the key {@code r/k} (the
 * record names hold no {@code '/'}); the FitRes metrics hold the reply's records the same way. A
 * pass's records hold Flower scalars only, which the legacy protocol's {@code Scalar} carries
 * as they are (the int, the string, the bytes), so the node reads what a Fleet node reads.
 *
 * <p>Reading is strict, as a hostile peer may send anything: at most {@value #MAX_ENTRIES}
 * entries, each under a record the direction carries (the pass's four records to the node; the
 * stage and the part back), else a {@link MalformedException} naming the key.
 */
public final class JoinPassLayout {
  /** The FitIns config key that marks a secure pass's stage. */
  public static final String MESSAGE_TYPE_KEY = "tributary.message_type";
  /** The most entries one stage's FitIns config or FitRes metrics may hold. */
  public static final int MAX_ENTRIES = 4096;
  /** The records a stage message carries to the node. */
  static final Set<String> TO_NODE = Set.of(SecurePassMessages.STAGE_RECORD,
      SecurePassMessages.SPEC_RECORD, SecurePassMessages.PASS_RECORD,
      SecurePassMessages.FIT_CONFIG_RECORD);
  /** The records a node's reply carries back. */
  static final Set<String> FROM_NODE = Set.of(SecurePassMessages.STAGE_RECORD,
      SecurePassMessages.PART_RECORD);
  private static final char SEPARATOR = '/';

  private JoinPassLayout() {}

  /** A FitIns config, FitRes metrics or their records that do not read as a secure pass's. */
  public static final class MalformedException extends Exception {
    private static final long serialVersionUID = 1L;

    /** For {@code problem}. */
    public MalformedException(String problem) {
      super(problem);
    }
  }

  /** Whether the FitIns config {@code config} carries a secure pass's stage. */
  public static boolean isStage(Map<String, Scalar> config) {
    return config.get(MESSAGE_TYPE_KEY) instanceof Scalar.Str s
        && s.value().equals(SecurePassMessages.MESSAGE_TYPE);
  }

  /**
   * The FitIns config carrying the stage message {@code content}.
   *
   * @throws IllegalArgumentException when a record is not a config record or holds a list,
   *     which a FitIns config cannot carry (a protocol that sends one cannot run over Join)
   */
  public static Map<String, Scalar> fitInsConfig(RecordDict content) {
    Map<String, Scalar> out = flatten(content);
    out.put(MESSAGE_TYPE_KEY, Scalar.of(SecurePassMessages.MESSAGE_TYPE));
    return out;
  }

  /** The FitRes metrics carrying the node's reply {@code content}; as {@link #fitInsConfig}. */
  public static Map<String, Scalar> fitResMetrics(RecordDict content) {
    return flatten(content);
  }

  /**
   * The stage message a FitIns config carries, its records those of {@link
   * SecurePassMessages} a stage sends a node.
   *
   * @throws MalformedException naming the key that is not of a stage
   */
  public static RecordDict stage(Map<String, Scalar> config) throws MalformedException {
    Map<String, Scalar> entries = new LinkedHashMap<>(config);
    if (!isStage(entries)) {
      throw new MalformedException(MESSAGE_TYPE_KEY + " is not '"
          + SecurePassMessages.MESSAGE_TYPE + "'");
    }
    entries.remove(MESSAGE_TYPE_KEY);
    return records(entries, TO_NODE, "the FitIns config");
  }

  /**
   * The node's reply a FitRes's metrics carry, its records a stage's and a pass part's.
   *
   * @throws MalformedException naming the key that is not of a reply
   */
  public static RecordDict reply(Map<String, Scalar> metrics) throws MalformedException {
    return records(metrics, FROM_NODE, "the FitRes metrics");
  }

  private static Map<String, Scalar> flatten(RecordDict content) {
    Map<String, Scalar> out = new LinkedHashMap<>();
    for (Map.Entry<String, Record> e : content.records().entrySet()) {
      String name = e.getKey();
      if (name.indexOf(SEPARATOR) >= 0) {
        throw new IllegalArgumentException("record '" + name + "' has a '" + SEPARATOR
            + "' in its name");
      }
      if (!(e.getValue() instanceof ConfigRecord r)) {
        throw new IllegalArgumentException("record '" + name + "' is not a config record, "
            + "which a FitIns config cannot carry");
      }
      r.values().forEach((k, v) -> {
        if (v instanceof List<?>) {
          throw new IllegalArgumentException("'" + name + SEPARATOR + k + "' is a list, "
              + "which a FitIns config cannot carry");
        }
      });
      SecurePassMessages.scalars(r.values()).forEach((k, v) -> out.put(name + SEPARATOR + k,
          v));
    }
    return out;
  }

  private static RecordDict records(Map<String, Scalar> entries, Set<String> allowed,
      String where) throws MalformedException {
    if (entries.size() > MAX_ENTRIES) {
      throw new MalformedException(where + " holds " + entries.size() + " entries, over "
          + MAX_ENTRIES);
    }
    Map<String, Map<String, Object>> records = new LinkedHashMap<>();
    for (Map.Entry<String, Scalar> e : entries.entrySet()) {
      String key = e.getKey();
      int cut = key.indexOf(SEPARATOR);
      String name = cut < 0 ? key : key.substring(0, cut);
      if (cut < 0 || !allowed.contains(name)) {
        throw new MalformedException(where + " holds '" + clip(key) + "', not an entry of "
            + String.join(", ", new java.util.TreeSet<>(allowed)));
      }
      records.computeIfAbsent(name, n -> new LinkedHashMap<>()).put(key.substring(cut + 1),
          e.getValue().recordValue());
    }
    Map<String, Record> out = new LinkedHashMap<>();
    for (Map.Entry<String, Map<String, Object>> r : records.entrySet()) {
      try {
        out.put(r.getKey(), new ConfigRecord(r.getValue()));
      } catch (IllegalArgumentException e) {
        throw new MalformedException(where + ": record '" + r.getKey() + "': "
            + e.getMessage());
      }
    }
    return new RecordDict(out);
  }

  private static String clip(String s) {
    String t = s.replaceAll("\\p{Cntrl}", "?");
    return t.length() > 60 ? t.substring(0, 60) + "..." : t;
  }
}
