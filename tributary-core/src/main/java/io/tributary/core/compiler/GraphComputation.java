package io.tributary.core.compiler;

import io.tributary.core.types.FunctionType;
import io.tributary.core.types.Types;
import java.util.Arrays;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A local computation backed by an op graph: the serialized graph, the name of the procedure that
 * runs it (such as {@code client_update} or {@code evaluate}) and that procedure's settings.
 *
 * <p>The Federated Core does not look inside the graph: it only carries the bytes (the graph
 * module's {@code graph.fb} form) so a computation that uses the graph can be type checked,
 * printed and serialized without depending on the graph module. A graph-aware component turns the
 * record into something runnable, so the procedure name selects from a fixed set that the
 * component knows, never a class.
 *
 * @param name the computation's name, an identifier
 * @param type the declared type; local (no federated or placement type inside)
 * @param procedure how the graph is run, an identifier
 * @param graph the serialized graph; copied in and out
 * @param settings the procedure's settings by name (identifiers), as text; kept sorted by name
 */
public record GraphComputation(
    String name, FunctionType type, String procedure, byte[] graph, SortedMap<String, String> settings)
    implements LocalComputation {

  /** The most settings one computation may carry. */
  public static final int MAX_SETTINGS = 256;

  /** The longest setting value, in characters. */
  public static final int MAX_SETTING_LENGTH = 4096;

  public GraphComputation {
    Identifiers.require(name, "graph computation name");
    Objects.requireNonNull(type, "type");
    Identifiers.require(procedure, "graph computation procedure");
    Objects.requireNonNull(graph, "graph");
    Objects.requireNonNull(settings, "settings");
    if (!Types.isLocal(type)) {
      throw new IllegalArgumentException(
          "graph computation " + name + " has type " + type
              + ", which mentions a federated or placement type; local computations run on"
              + " one participant");
    }
    if (graph.length == 0) {
      throw new IllegalArgumentException("graph computation " + name + " has an empty graph");
    }
    if (settings.size() > MAX_SETTINGS) {
      throw new IllegalArgumentException("graph computation " + name + " has " + settings.size()
          + " settings; at most " + MAX_SETTINGS + " are allowed");
    }
    TreeMap<String, String> copy = new TreeMap<>();
    for (Map.Entry<String, String> e : settings.entrySet()) {
      Identifiers.require(e.getKey(), "setting name of graph computation " + name);
      String v = Objects.requireNonNull(e.getValue(), "setting " + e.getKey());
      if (v.length() > MAX_SETTING_LENGTH) {
        throw new IllegalArgumentException("setting " + e.getKey() + " of graph computation "
            + name + " is " + v.length() + " characters long; at most " + MAX_SETTING_LENGTH
            + " are allowed");
      }
      copy.put(e.getKey(), v);
    }
    graph = graph.clone();
    settings = Collections.unmodifiableSortedMap(copy);
  }

  /** A graph computation with settings given as a plain map. */
  public static GraphComputation of(String name, FunctionType type, String procedure, byte[] graph,
      Map<String, String> settings) {
    return new GraphComputation(name, type, procedure, graph, new TreeMap<>(settings));
  }

  /** A copy of the serialized graph. */
  @Override
  public byte[] graph() {
    return graph.clone();
  }

  /** The number of bytes in the serialized graph, without copying it. */
  public int graphSize() {
    return graph.length;
  }

  /**
   * The setting named {@code key}.
   *
   * @throws IllegalArgumentException if there is none
   */
  public String setting(String key) {
    String v = settings.get(key);
    if (v == null) {
      throw new IllegalArgumentException(
          "graph computation " + name + " has no setting '" + key + "' (it has " + settings.keySet()
              + ")");
    }
    return v;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof GraphComputation g && g.name.equals(name) && g.type.equals(type)
        && g.procedure.equals(procedure) && Arrays.equals(g.graph, graph)
        && g.settings.equals(settings);
  }

  @Override
  public int hashCode() {
    return Objects.hash(name, type, procedure, Arrays.hashCode(graph), settings);
  }

  /** The printed form, {@code graph:name}; {@link #describe} shows the details. */
  @Override
  public String toString() {
    return BlockPrinter.print(this);
  }

  /** A one-line description with the type, procedure, settings and graph size. */
  public String describe() {
    return "graph:" + name + " " + type + " procedure=" + procedure + " settings=" + settings
        + " graph=" + graph.length + " bytes";
  }
}
