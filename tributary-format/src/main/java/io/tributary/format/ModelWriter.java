package io.tributary.format;

import io.tributary.format.ModelFile.Resolved;
import io.tributary.format.TagContents.Own;
import io.tributary.format.TagContents.Shared;
import io.tributary.format.TagContents.Source;
import io.tributary.format.internal.ArrayEntries;
import io.tributary.format.internal.ArrayReader;
import io.tributary.format.internal.EntryNames;
import io.tributary.format.internal.TextEntries;
import io.tributary.format.internal.TextEntries.Line;
import io.tributary.format.internal.TextEntries.Ref;
import io.tributary.format.internal.TrainingConfigCodec;
import io.tributary.format.internal.ZipArchive;
import io.tributary.format.internal.ZipEntryRecord;
import io.tributary.format.internal.ZipWriter;
import io.tributary.format.internal.ZipWriter.EntryOutput;
import io.tributary.tensor.DType;
import io.tributary.tensor.Tensor;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.SequencedMap;

/**
 * Writes model files: a whole new file, one more tag in an existing file, or one tag fewer.
 *
 * <p>Every operation replaces the file atomically (temporary file, fsync, rename, fsync of the
 * folder), so a crash leaves the previous file intact. Adding a tag copies the existing file's
 * entries byte for byte to the same offsets (with one in-kernel copy, {@code transferTo}),
 * appends the new tag's entries and a new {@code tags.txt}, and writes a new central directory
 * that lists the old entries unchanged, minus the superseded {@code tags.txt}; no existing tag is
 * re-encoded, but the whole file is copied and synced: to add tags one after another, as a
 * run's checkpoints are, {@link ModelAppender} writes each in place at the cost of that tag.
 * Deleting a tag rewrites the file, moving any of its arrays that other tags still
 * share into the oldest such tag. Only one writer may work on a file at a time.
 *
 * <p>Arrays are stored uncompressed; one of 4 KiB or more starts on a 4096-byte boundary of the
 * file, smaller ones on a 64-byte boundary, so they can be memory-mapped and read in place.
 */
public final class ModelWriter {
  private static final int PAGE = 4096;
  private static final int SMALL_ALIGNMENT = 8;

  private ModelWriter() {}

  /** {@link #save(Path, Map, SaveListener)} without a listener. */
  public static void save(Path file, Map<String, TagContents> tags) throws IOException {
    save(file, tags, SaveListener.none());
  }

  /**
   * Writes a new model file holding {@code tags}, oldest first, replacing any file there.
   * A tag may share parameters of a tag before it. The tags come in the map's order when it is a
   * {@link SequencedMap} (a {@code LinkedHashMap}, say), and sorted by name for any other map
   * (such as {@code Map.of(...)}).
   *
   * @throws IllegalArgumentException for an invalid tag, no tags, or two tags equal but for case
   */
  public static void save(Path file, Map<String, TagContents> unordered, SaveListener listener)
      throws IOException {
    SequencedMap<String, TagContents> tags = Ordered.of(unordered);
    if (tags.isEmpty()) {
      throw new IllegalArgumentException("a model file needs at least one tag");
    }
    checkDistinct(List.copyOf(tags.keySet()));
    AtomicFile.write(file, ch -> {
      ZipWriter z = new ZipWriter(ch, 0);
      Map<String, Layout> layouts = new HashMap<>();
      for (Map.Entry<String, TagContents> e : tags.entrySet()) {
        layouts.put(EntryNames.key(e.getKey()), writeTag(z, e.getKey(), e.getValue(), layouts, null, listener));
      }
      finish(z, List.copyOf(tags.keySet()), listener);
    }, null);
  }

  /** {@link #addTag(Path, String, TagContents, SaveListener)} without a listener. */
  public static void addTag(Path file, String tag, TagContents contents) throws IOException {
    addTag(file, tag, contents, SaveListener.none());
  }

  /**
   * Adds {@code tag}, as the newest, to the existing model {@code file}. The entries already in
   * the file keep their bytes and offsets; only the central directory and {@code tags.txt} are
   * written anew.
   *
   * @throws IllegalArgumentException when the tag is invalid or already in the file (ignoring case)
   * @throws ModelFormatException when the existing file is malformed
   */
  public static void addTag(Path file, String tag, TagContents contents, SaveListener listener)
      throws IOException {
    Tags.check(tag);
    ModelFile existing = ModelFile.open(file);
    try {
      if (existing.hasTag(tag)) {
        throw new IllegalArgumentException("the file already has tag '" + existing.tag(tag).name() + "'");
      }
      List<String> tags = new ArrayList<>(existing.tags());
      tags.add(tag);
      ZipArchive old = existing.zip();
      AtomicFile.write(file, ch -> {
        ZipWriter z = new ZipWriter(ch, 0);
        z.transfer(old.channel(), 0, old.centralDirectoryOffset());
        for (ZipEntryRecord e : old.entries()) {
          if (!e.name().equals(ModelFile.TAGS_ENTRY)) {
            z.keep(e);
          }
        }
        listener.entryWritten("(existing entries)", z.position());
        writeTag(z, tag, contents, new HashMap<>(), existing, listener);
        finish(z, tags, listener);
      }, existing);
    } finally {
      existing.close();
    }
  }

  /** {@link #deleteTag(Path, String, SaveListener)} without a listener. */
  public static void deleteTag(Path file, String tag) throws IOException {
    deleteTag(file, tag, SaveListener.none());
  }

  /**
   * Removes {@code tag} from {@code file}. Arrays of the tag that other tags share are kept: each
   * moves into the oldest tag that refers to it, and every reference to it is rewritten.
   *
   * @throws NoSuchTagException when the file has no such tag
   * @throws IllegalArgumentException when it is the file's only tag
   */
  public static void deleteTag(Path file, String tag, SaveListener listener) throws IOException {
    ModelFile existing = ModelFile.open(file);
    try {
      ModelTag gone = existing.tag(tag);
      if (existing.tags().size() == 1) {
        throw new IllegalArgumentException("'" + gone.name() + "' is the file's only tag; delete the file instead");
      }
      new Deletion(existing, gone, listener).run(file);
    } finally {
      existing.close();
    }
  }

  private static void checkDistinct(List<String> tags) {
    Map<String, String> seen = new HashMap<>();
    for (String t : tags) {
      Tags.check(t);
      String before = seen.put(EntryNames.key(t), t);
      if (before != null) {
        throw new IllegalArgumentException("tags '" + before + "' and '" + t + "' are the same tag (tags ignore case)");
      }
    }
  }

  static void finish(ZipWriter z, List<String> tags, SaveListener listener) throws IOException {
    z.addSmall(ModelFile.TAGS_ENTRY, TextEntries.formatTags(tags), SMALL_ALIGNMENT);
    z.finish();
    listener.entryWritten(ModelFile.TAGS_ENTRY, z.position());
  }

  /** Where a tag's names point: the owning tag and file index of each array. */
  record Layout(String tag, Map<String, Ref> params, Map<String, List<Ref>> updater) {}

  static Layout writeTag(ZipWriter z, String tag, TagContents c, Map<String, Layout> earlier,
      ModelFile existing, SaveListener listener) throws IOException {
    List<Line> paramLines = new ArrayList<>();
    List<Line> updaterLines = new ArrayList<>();
    Map<String, Ref> params = new LinkedHashMap<>();
    Map<String, List<Ref>> updater = new LinkedHashMap<>();
    List<Map.Entry<String, Tensor>> paramArrays = new ArrayList<>();
    List<Map.Entry<String, Tensor>> stateArrays = new ArrayList<>();
    for (Map.Entry<String, Source> e : c.params().entrySet()) {
      Ref ref = switch (e.getValue()) {
        case Own own -> {
          Ref r = new Ref(tag, paramArrays.size());
          paramArrays.add(Map.entry(tag + "/params/" + r.index() + ".fb", own.tensors().get(0)));
          yield r;
        }
        case Shared s -> resolve(s, false, earlier, existing).get(0);
      };
      params.put(e.getKey(), ref);
      paramLines.add(new Line(e.getKey(), List.of(ref)));
    }
    for (Map.Entry<String, Source> e : c.updater().entrySet()) {
      List<Ref> refs = switch (e.getValue()) {
        case Own own -> {
          List<Ref> rs = new ArrayList<>();
          for (Tensor t : own.tensors()) {
            Ref r = new Ref(tag, stateArrays.size());
            stateArrays.add(Map.entry(tag + "/updater/" + r.index() + ".fb", t));
            rs.add(r);
          }
          yield rs;
        }
        case Shared s -> resolve(s, true, earlier, existing);
      };
      updater.put(e.getKey(), refs);
      updaterLines.add(new Line(e.getKey(), refs));
    }
    small(z, tag + "/params.txt", TextEntries.formatLines(paramLines, tag), listener);
    small(z, tag + "/updater.txt", TextEntries.formatLines(updaterLines, tag), listener);
    small(z, tag + "/trainingConfig.fb", TrainingConfigCodec.encode(c.config()), listener);
    if (c.graph().isPresent()) {
      ByteBuffer g = c.graph().get();
      byte[] bytes = new byte[g.remaining()];
      g.get(bytes);
      small(z, tag + "/graph.fb", bytes, listener);
    }
    for (Map.Entry<String, Tensor> a : paramArrays) {
      writeArray(z, a.getKey(), a.getValue(), listener);
    }
    for (Map.Entry<String, Tensor> a : stateArrays) {
      writeArray(z, a.getKey(), a.getValue(), listener);
    }
    return new Layout(tag, params, updater);
  }

  private static void small(ZipWriter z, String entry, byte[] bytes, SaveListener listener) throws IOException {
    z.addSmall(entry, bytes, SMALL_ALIGNMENT);
    listener.entryWritten(entry, z.position());
  }

  /** The arrays a share points to, following the source tag's own shares to the files themselves. */
  private static List<Ref> resolve(Shared s, boolean state, Map<String, Layout> earlier, ModelFile existing)
      throws IOException {
    String what = state ? "updater state for '" : "parameter '";
    Layout l = earlier.get(EntryNames.key(s.fromTag()));
    if (l != null) {
      List<Ref> refs = state ? l.updater().get(s.fromName()) : single(l.params().get(s.fromName()));
      if (refs == null) {
        throw new NoSuchElementException("tag '" + l.tag() + "' has no " + what + s.fromName() + "' to share");
      }
      return refs;
    }
    if (existing == null || !existing.hasTag(s.fromTag())) {
      throw new NoSuchTagException(s.fromTag(), existing == null ? List.copyOf(earlier.keySet()) : existing.tags());
    }
    ModelTag from = existing.tag(s.fromTag());
    List<Resolved> rs = state ? from.resolvedUpdater().get(s.fromName()) : single(from.resolvedParams().get(s.fromName()));
    if (rs == null) {
      throw new NoSuchElementException("tag '" + from.name() + "' has no " + what + s.fromName() + "' to share");
    }
    List<Ref> refs = new ArrayList<>();
    for (Resolved r : rs) {
      refs.add(new Ref(r.owner(), r.index()));
    }
    return refs;
  }

  private static <T> List<T> single(T value) {
    return value == null ? null : List.of(value);
  }

  static int alignment(long dataBytes) {
    return dataBytes >= PAGE ? PAGE : ArrayEntries.DATA_OFFSET_ALIGNMENT;
  }

  private static void writeArray(ZipWriter z, String entry, Tensor t, SaveListener listener) throws IOException {
    byte[] header = ArrayEntries.header(t);
    long size = header.length + t.byteSize();
    try (EntryOutput out = z.begin(entry, size, alignment(t.byteSize()), header.length)) {
      out.write(header, 0, header.length);
      if (t.dtype() != DType.STRING) {
        t.writeData(out);
      }
    }
    listener.entryWritten(entry, z.position());
  }

  /** Rewrites a file without one tag, keeping the arrays other tags share. */
  private static final class Deletion {
    private final ModelFile existing;
    private final ModelTag gone;
    private final SaveListener listener;
    private final ArrayReader arrays;
    /** "kind/index" of a file of the deleted tag, to where it moves. */
    private final Map<String, Ref> adopted = new HashMap<>();
    /** Old entry name of a moved file, to its new one. */
    private final Map<String, String> renames = new HashMap<>();
    private final Map<String, Integer> nextIndex = new HashMap<>();

    Deletion(ModelFile existing, ModelTag gone, SaveListener listener) {
      this.existing = existing;
      this.gone = gone;
      this.listener = listener;
      this.arrays = new ArrayReader(existing.zip(), existing.options().maxInflatedBytes());
    }

    void run(Path file) throws IOException {
      List<String> remaining = new ArrayList<>();
      for (String t : existing.tags()) {
        if (!Tags.same(t, gone.name())) {
          remaining.add(t);
        }
      }
      Map<String, byte[]> texts = new LinkedHashMap<>();
      for (String t : remaining) {
        ModelTag mt = existing.tag(t);
        List<Line> params = new ArrayList<>();
        for (var e : mt.resolvedParams().entrySet()) {
          params.add(new Line(e.getKey(), List.of(remap(t, "params", e.getValue()))));
        }
        List<Line> updater = new ArrayList<>();
        for (var e : mt.resolvedUpdater().entrySet()) {
          List<Ref> refs = new ArrayList<>();
          for (Resolved r : e.getValue()) {
            refs.add(remap(t, "updater", r));
          }
          updater.add(new Line(e.getKey(), refs));
        }
        texts.put(EntryNames.key(t + "/params.txt"), TextEntries.formatLines(params, t));
        texts.put(EntryNames.key(t + "/updater.txt"), TextEntries.formatLines(updater, t));
      }
      ZipArchive old = existing.zip();
      String gonePrefix = EntryNames.key(gone.name() + "/");
      AtomicFile.write(file, ch -> {
        ZipWriter z = new ZipWriter(ch, 0);
        for (ZipEntryRecord e : old.entriesByOffset()) {
          String key = EntryNames.key(e.name());
          if (e.name().equals(ModelFile.TAGS_ENTRY)) {
            continue;
          }
          byte[] text = texts.get(key);
          if (text != null) {
            small(z, e.name(), text, listener);
            continue;
          }
          String newName = key.startsWith(gonePrefix) ? renames.get(key) : e.name();
          if (newName == null) {
            continue;
          }
          z.copy(old, e, newName, copyAlignment(e), copyAlignedOffset(e));
          listener.entryWritten(newName, z.position());
        }
        finish(z, remaining, listener);
      }, existing);
    }

    private boolean isArray(ZipEntryRecord e) {
      String n = EntryNames.key(e.name());
      return n.endsWith(".fb") && (n.contains("/params/") || n.contains("/updater/"));
    }

    private int copyAlignment(ZipEntryRecord e) throws IOException {
      return isArray(e) ? alignment(arrays.header(e).dataLength()) : SMALL_ALIGNMENT;
    }

    private long copyAlignedOffset(ZipEntryRecord e) throws IOException {
      return isArray(e) ? arrays.header(e).dataOffset() : 0;
    }

    /** The reference, as tag {@code t} will write it, to the array that {@code r} resolved to. */
    private Ref remap(String t, String kind, Resolved r) throws IOException {
      if (!Tags.same(r.owner(), gone.name())) {
        return new Ref(r.owner(), r.index());
      }
      String key = kind + "/" + r.index();
      Ref moved = adopted.get(key);
      if (moved == null) {
        int index = next(t, kind);
        moved = new Ref(t, index);
        adopted.put(key, moved);
        renames.put(EntryNames.key(r.entry().name()), t + "/" + kind + "/" + index + ".fb");
      }
      return moved;
    }

    private int next(String tag, String kind) {
      String folder = EntryNames.key(tag + "/" + kind + "/");
      return nextIndex.compute(folder, (k, v) -> {
        if (v != null) {
          return v + 1;
        }
        int max = -1;
        for (ZipEntryRecord e : existing.zip().entries()) {
          String n = EntryNames.key(e.name());
          if (n.startsWith(folder) && n.endsWith(".fb")) {
            String number = n.substring(folder.length(), n.length() - 3);
            if (!number.isEmpty() && number.length() <= 9 && number.chars().allMatch(Character::isDigit)) {
              max = Math.max(max, Integer.parseInt(number));
            }
          }
        }
        return max + 1;
      });
    }
  }
}
