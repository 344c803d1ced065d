package io.tributary.format;

import io.tributary.format.internal.ArrayReader;
import io.tributary.format.internal.TextEntries;
import io.tributary.format.internal.TextEntries.Line;
import io.tributary.format.internal.TextEntries.Ref;
import io.tributary.format.internal.TrainingConfigCodec;
import io.tributary.format.internal.ZipArchive;
import io.tributary.format.internal.ZipEntryRecord;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SequencedMap;
import java.util.Set;

/**
 * A model file opened for reading: a zip of tags (ADR 0001), each with parameters, updater
 * state, a training configuration and optionally a graph.
 *
 * <p>{@link #open} checks the zip's structure, reads {@code tags.txt} and every tag's
 * {@code params.txt}, {@code updater.txt} and {@code trainingConfig.fb}, and resolves every
 * reference; it reads no array data. Arrays are read on demand through {@link ModelTag}, each
 * touching only its own entry, so one parameter of a 10 GB file costs one parameter's reads.
 * Close the file when done; tensors from {@link ModelTag#mapParameter} stay valid after closing.
 * An open file may be read from several threads.
 */
public final class ModelFile implements Closeable {
  /** The format version this code writes, and the newest it reads. */
  public static final int FORMAT_VERSION = 1;

  /** The tag list's entry name. */
  public static final String TAGS_ENTRY = "tags.txt";

  /** The most bytes a text entry or training configuration may hold. */
  static final long MAX_METADATA_BYTES = 256L << 20;

  private final Path path;
  private final ZipArchive zip;
  private final ReadOptions options;
  private final List<String> tags;
  private final SequencedMap<String, ModelTag> byKey = new LinkedHashMap<>();

  private ModelFile(Path path, ZipArchive zip, ReadOptions options) throws IOException {
    this.path = path;
    this.zip = zip;
    this.options = options;
    ZipEntryRecord tagsEntry = required(TAGS_ENTRY, "not a Tributary model file");
    this.tags = List.copyOf(TextEntries.parseTags(TAGS_ENTRY, zip.read(tagsEntry, MAX_METADATA_BYTES)));
    ArrayReader arrays = new ArrayReader(zip, options.maxInflatedBytes());
    for (String tag : tags) {
      byKey.put(key(tag), readTag(tag, arrays));
    }
  }

  /** Opens {@code file} with {@link ReadOptions#defaults()}. */
  public static ModelFile open(Path file) throws IOException {
    return open(file, ReadOptions.defaults());
  }

  /**
   * Opens {@code file} and checks its structure and references.
   *
   * @throws ModelFormatException (a subclass naming the entry) when the file is malformed or unsafe;
   *     when an unfinished addition's journal ({@link ModelAppender}) lies beside it, one that
   *     says so and names the journal
   * @throws IOException when it cannot be read
   */
  public static ModelFile open(Path file, ReadOptions options) throws IOException {
    try {
      return read(file, options);
    } catch (ModelFormatException e) {
      Path journal = ModelAppender.journalOf(file);
      if (!java.nio.file.Files.exists(journal)) {
        throw e;
      }
      // A file read while an addition is unfinished (killed, or still being written) has its
      // tail overwritten; say so and how to undo it, not just that the zip is malformed.
      throw new ModelFormatException("", "an added tag was not finished: " + journal.getFileName()
          + " holds the part of the file it overwrote; ModelAppender.recover (which resuming the"
          + " run calls) restores the tags the file held before (" + e.getMessage() + ")", e);
    }
  }

  private static ModelFile read(Path file, ReadOptions options) throws IOException {
    ZipArchive zip = ZipArchive.open(file, options);
    boolean ok = false;
    try {
      ModelFile m = new ModelFile(file, zip, options);
      ok = true;
      return m;
    } finally {
      if (!ok) {
        zip.close();
      }
    }
  }

  private static String key(String tag) {
    return tag.toLowerCase(java.util.Locale.ROOT);
  }

  private ZipEntryRecord required(String entry, String why) throws ModelFormatException {
    return zip.find(entry).orElseThrow(() -> new ModelFormatException(entry, "missing (" + why + ")"));
  }

  private ModelTag readTag(String tag, ArrayReader arrays) throws IOException {
    String paramsEntry = tag + "/params.txt";
    String updaterEntry = tag + "/updater.txt";
    String configEntry = tag + "/trainingConfig.fb";
    List<Line> params = TextEntries.parseLines(paramsEntry,
        zip.read(required(paramsEntry, "every tag has one"), MAX_METADATA_BYTES), false);
    List<Line> updater = TextEntries.parseLines(updaterEntry,
        zip.read(required(updaterEntry, "every tag has one"), MAX_METADATA_BYTES), true);
    TrainingConfig config = TrainingConfigCodec.decode(configEntry,
        zip.read(required(configEntry, "every tag has one"), MAX_METADATA_BYTES));

    SequencedMap<String, Resolved> resolvedParams = new LinkedHashMap<>();
    for (Line l : params) {
      resolvedParams.put(l.name(), resolve(tag, paramsEntry, "params", l.name(), l.refs().get(0)));
    }
    SequencedMap<String, List<Resolved>> resolvedUpdater = new LinkedHashMap<>();
    int states = config.updaterStateNames().size();
    for (Line l : updater) {
      if (!resolvedParams.containsKey(l.name())) {
        throw new DanglingReferenceException(updaterEntry, "holds state for '" + l.name()
            + "', which is not a parameter in " + paramsEntry);
      }
      if (states > 0 && l.refs().size() != states) {
        throw new ModelFormatException(updaterEntry, "'" + l.name() + "' has " + l.refs().size()
            + " state arrays, the training configuration names " + states + " " + config.updaterStateNames());
      }
      List<Resolved> refs = new ArrayList<>();
      for (Ref r : l.refs()) {
        refs.add(resolve(tag, updaterEntry, "updater", l.name(), r));
      }
      resolvedUpdater.put(l.name(), List.copyOf(refs));
    }
    Optional<ZipEntryRecord> graph = zip.find(tag + "/graph.fb");
    return new ModelTag(this, tag, params, updater, resolvedParams, resolvedUpdater, config, graph, arrays);
  }

  /**
   * Resolves a reference to the entry it names. A reference names an array file directly, so
   * resolution is one step: there is no chain to follow and so no cycle to loop in; what would be
   * a cycle in a name-based scheme (a refers to b's file, b to a's, neither exists) is a dangling
   * reference here, and is rejected as one.
   */
  private Resolved resolve(String ownTag, String textEntry, String kind, String name, Ref r)
      throws ModelFormatException {
    String owner = ownTag;
    if (r.tag() != null) {
      owner = null;
      for (String t : tags) {
        if (Tags.same(t, r.tag())) {
          owner = t;
        }
      }
      if (owner == null) {
        throw new DanglingReferenceException(textEntry, "'" + name + "' refers to tag '" + r.tag()
            + "', which is not in " + TAGS_ENTRY);
      }
    }
    String target = owner + "/" + kind + "/" + r.index() + ".fb";
    ZipEntryRecord e = zip.find(target).orElseThrow(() -> new DanglingReferenceException(textEntry,
        "'" + name + "' refers to '" + target + "', which is not in the file"));
    return new Resolved(owner, r.index(), e);
  }

  /** Where a name's array lives: the tag that owns the file, the file's index and its entry. */
  record Resolved(String owner, int index, ZipEntryRecord entry) {}

  /** The file this was opened from. */
  public Path path() {
    return path;
  }

  /** The tags, oldest first, as written in {@code tags.txt}. */
  public List<String> tags() {
    return tags;
  }

  /** The newest tag: the last in {@code tags.txt}. */
  public String newestTag() {
    return tags.get(tags.size() - 1);
  }

  /** True when the file holds {@code tag} (ignoring case). */
  public boolean hasTag(String tag) {
    return byKey.containsKey(key(tag));
  }

  /** The newest tag's contents. */
  public ModelTag newest() {
    return byKey.lastEntry().getValue();
  }

  /**
   * The contents of {@code tag}, matched ignoring case.
   *
   * @throws NoSuchTagException naming the tags there are
   */
  public ModelTag tag(String tag) throws NoSuchTagException {
    ModelTag t = byKey.get(key(tag));
    if (t == null) {
      throw new NoSuchTagException(tag, tags);
    }
    return t;
  }

  /** Every tag's contents, oldest first. */
  public List<ModelTag> allTags() {
    return List.copyOf(byKey.values());
  }

  ZipArchive zip() {
    return zip;
  }

  ReadOptions options() {
    return options;
  }

  /** The tags that refer to array files of {@code owner} other than {@code owner} itself. */
  Set<String> sharers(String owner) {
    Set<String> out = new HashSet<>();
    for (ModelTag t : byKey.values()) {
      if (!Tags.same(t.name(), owner) && t.refersTo(owner)) {
        out.add(t.name());
      }
    }
    return Collections.unmodifiableSet(out);
  }

  static Map<String, ModelTag> index(List<ModelTag> tags) {
    Map<String, ModelTag> m = new LinkedHashMap<>();
    for (ModelTag t : tags) {
      m.put(key(t.name()), t);
    }
    return m;
  }

  @Override
  public void close() throws IOException {
    zip.close();
  }
}
