package io.tributary.format;

import io.tributary.format.ModelFile.Resolved;
import io.tributary.format.internal.ArrayEntries.Header;
import io.tributary.format.internal.ArrayReader;
import io.tributary.format.internal.FlatBufferVerifier;
import io.tributary.format.internal.TextEntries.Line;
import io.tributary.format.internal.ZipEntryRecord;
import io.tributary.tensor.Tensor;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.SequencedMap;

/**
 * One tag of an open {@link ModelFile}: its parameters, updater state, training configuration
 * and graph. Arrays are read when asked for, each from its own entry.
 */
public final class ModelTag {
  private final ModelFile file;
  private final String name;
  private final List<Line> paramLines;
  private final List<Line> updaterLines;
  private final SequencedMap<String, Resolved> params;
  private final SequencedMap<String, List<Resolved>> updater;
  private final TrainingConfig config;
  private final Optional<ZipEntryRecord> graph;
  private final ArrayReader arrays;

  ModelTag(ModelFile file, String name, List<Line> paramLines, List<Line> updaterLines,
      SequencedMap<String, Resolved> params, SequencedMap<String, List<Resolved>> updater,
      TrainingConfig config, Optional<ZipEntryRecord> graph, ArrayReader arrays) {
    this.file = file;
    this.name = name;
    this.paramLines = List.copyOf(paramLines);
    this.updaterLines = List.copyOf(updaterLines);
    this.params = params;
    this.updater = updater;
    this.config = config;
    this.graph = graph;
    this.arrays = arrays;
  }

  /** The tag, as written in {@code tags.txt}. */
  public String name() {
    return name;
  }

  /** The parameter names, in {@code params.txt} order. */
  public List<String> parameterNames() {
    return List.copyOf(params.keySet());
  }

  /** The parameters that have updater state, in {@code updater.txt} order. */
  public List<String> updaterParameterNames() {
    return List.copyOf(updater.keySet());
  }

  /** The training configuration. */
  public TrainingConfig trainingConfig() {
    return config;
  }

  private Resolved param(String param) {
    Resolved r = params.get(param);
    if (r == null) {
      throw new NoSuchElementException("tag '" + name + "' has no parameter '" + param + "' (it has "
          + params.size() + ")");
    }
    return r;
  }

  private ArrayInfo info(String param, Resolved r) throws IOException {
    Header h = arrays.header(r.entry());
    return new ArrayInfo(param, h.dtype(), h.shape(), r.entry().name(),
        Tags.same(r.owner(), name) ? Optional.empty() : Optional.of(r.owner()));
  }

  /** The dtype, shape and location of {@code param}, reading only its header. */
  public ArrayInfo parameterInfo(String param) throws IOException {
    return info(param, param(param));
  }

  /** {@link #parameterInfo} for every parameter, in order. */
  public List<ArrayInfo> parameterInfos() throws IOException {
    List<ArrayInfo> out = new ArrayList<>();
    for (var e : params.entrySet()) {
      out.add(info(e.getKey(), e.getValue()));
    }
    return out;
  }

  /** The updater state arrays of {@code param}, described from their headers. */
  public List<ArrayInfo> updaterStateInfo(String param) throws IOException {
    List<ArrayInfo> out = new ArrayList<>();
    for (Resolved r : state(param)) {
      out.add(info(param, r));
    }
    return out;
  }

  /**
   * {@code param}, read into memory (and checked against its CRC-32 unless the options say not).
   *
   * @throws NoSuchElementException when the tag has no such parameter
   */
  public Tensor parameter(String param) throws IOException {
    return arrays.load(param(param).entry(), file.options().verifyChecksums());
  }

  /**
   * {@code param} as a read-only view of the memory-mapped file: nothing is read until the
   * elements are used, and then only the pages used. The CRC-32 is not checked.
   */
  public Tensor mapParameter(String param) throws IOException {
    return arrays.map(param(param).entry());
  }

  /** Every parameter, read into memory, in order. */
  public SequencedMap<String, Tensor> parameters() throws IOException {
    SequencedMap<String, Tensor> out = new LinkedHashMap<>();
    for (String p : params.keySet()) {
      out.put(p, parameter(p));
    }
    return Collections.unmodifiableSequencedMap(out);
  }

  private List<Resolved> state(String param) {
    List<Resolved> s = updater.get(param);
    if (s == null) {
      throw new NoSuchElementException("tag '" + name + "' has no updater state for '" + param + "'");
    }
    return s;
  }

  /** The updater state arrays of {@code param}, in the order of the configuration's state names. */
  public List<Tensor> updaterState(String param) throws IOException {
    List<Tensor> out = new ArrayList<>();
    for (Resolved r : state(param)) {
      out.add(arrays.load(r.entry(), file.options().verifyChecksums()));
    }
    return List.copyOf(out);
  }

  /** All updater state, by parameter, in {@code updater.txt} order. */
  public SequencedMap<String, List<Tensor>> updaterState() throws IOException {
    SequencedMap<String, List<Tensor>> out = new LinkedHashMap<>();
    for (String p : updater.keySet()) {
      out.put(p, updaterState(p));
    }
    return Collections.unmodifiableSequencedMap(out);
  }

  /** True when the tag has a {@code graph.fb}. */
  public boolean hasGraph() {
    return graph.isPresent();
  }

  /**
   * The serialized graph ({@code graph.fb}), checked to be a FlatBuffer whose root table and
   * vtable lie inside it; empty when the tag has none. The graph's own schema is checked by the
   * code that decodes it.
   */
  public Optional<ByteBuffer> graph() throws IOException {
    if (graph.isEmpty()) {
      return Optional.empty();
    }
    ZipEntryRecord e = graph.get();
    byte[] bytes = file.zip().read(e, Integer.MAX_VALUE - 8);
    GraphBytes.verify(e.name(), ByteBuffer.wrap(bytes));
    return Optional.of(ByteBuffer.wrap(bytes).asReadOnlyBuffer());
  }

  List<Line> paramLines() {
    return paramLines;
  }

  List<Line> updaterLines() {
    return updaterLines;
  }

  SequencedMap<String, Resolved> resolvedParams() {
    return params;
  }

  SequencedMap<String, List<Resolved>> resolvedUpdater() {
    return updater;
  }

  Optional<ZipEntryRecord> graphEntry() {
    return graph;
  }

  boolean refersTo(String owner) {
    for (Resolved r : params.values()) {
      if (Tags.same(r.owner(), owner)) {
        return true;
      }
    }
    for (List<Resolved> rs : updater.values()) {
      for (Resolved r : rs) {
        if (Tags.same(r.owner(), owner)) {
          return true;
        }
      }
    }
    return false;
  }

  /** Checks graph bytes given to a writer or read from a file. */
  static final class GraphBytes {
    private GraphBytes() {}

    static void verify(String entry, ByteBuffer bytes) throws FlatBufferVerificationException {
      FlatBufferVerifier v = new FlatBufferVerifier(entry, bytes);
      if (v.buffer().limit() < 8) {
        throw new FlatBufferVerificationException(entry, "FlatBuffer of " + v.buffer().limit() + " bytes is too short");
      }
      long root = v.buffer().getInt(0) & 0xFFFF_FFFFL;
      if (root < 4 || root + 4 > v.buffer().limit()) {
        throw new FlatBufferVerificationException(entry, "root offset " + root + " points outside the buffer");
      }
      v.table((int) root, "root table");
    }
  }
}
