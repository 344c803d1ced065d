package io.tributary.flower.app;

import io.tributary.flower.records.RecordDict;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Flower's {@code Context}: what a handler knows besides the message. The node config comes from
 * the SuperNode ({@code --node-config}), the run config from the run (the FAB's
 * {@code [tool.flwr.app.config]} with the run's overrides), and {@link #state()} persists across
 * the messages of one run on this node (of every run of one series, when the run names a series,
 * as Flower 1.40+'s SuperNode keeps one context per series): a handler replaces it with
 * {@link #setState}. A run of a newer SuperLink (Flower 1.40+) may belong to a series of runs:
 * {@link #seriesId()} and {@link #primaryTaskId()} carry its {@code Run.series_id} and {@code Run.primary_task_id}, and
 * {@link #version()} is Flower's {@code Context.version}: how many times the node has stored this
 * context before the message at hand.
 */
public final class Context {
  private final long runId;
  private final long nodeId;
  private final Map<String, Object> nodeConfig;
  private final Map<String, Object> runConfig;
  private final String seriesId;
  private final String primaryTaskId;
  private final long version;
  private volatile RecordDict state;

  public Context(long runId, long nodeId, Map<String, ?> nodeConfig, Map<String, ?> runConfig,
      RecordDict state) {
    this(runId, nodeId, nodeConfig, runConfig, state, "", "");
  }

  /**
   * A context for a run that names its series and primary task ({@code ""} for none, as a
   * SuperLink before Flower 1.40 sends them).
   */
  public Context(long runId, long nodeId, Map<String, ?> nodeConfig, Map<String, ?> runConfig,
      RecordDict state, String seriesId, String primaryTaskId) {
    this(runId, nodeId, nodeConfig, runConfig, state, seriesId, primaryTaskId, 0);
  }

  /**
   * A context as a SuperNode hands it to a handler: {@code version} is how many times the node has
   * stored it (0 for a fresh one), Flower's {@code Context.version} (field 7 of
   * {@code flwr.proto.Context}, Flower 1.40+).
   *
   * @throws IllegalArgumentException if {@code version} is negative
   */
  public Context(long runId, long nodeId, Map<String, ?> nodeConfig, Map<String, ?> runConfig,
      RecordDict state, String seriesId, String primaryTaskId, long version) {
    if (version < 0) {
      throw new IllegalArgumentException("version " + version + " is negative");
    }
    this.version = version;
    this.seriesId = Objects.requireNonNull(seriesId, "seriesId");
    this.primaryTaskId = Objects.requireNonNull(primaryTaskId, "primaryTaskId");
    this.runId = runId;
    this.nodeId = nodeId;
    this.nodeConfig = Map.copyOf(nodeConfig);
    this.runConfig = Map.copyOf(runConfig);
    this.state = Objects.requireNonNull(state, "state");
  }

  public long runId() {
    return runId;
  }

  public long nodeId() {
    return nodeId;
  }

  /** The run's series ({@code Run.series_id} of Flower 1.40+), if the SuperLink names one. */
  public Optional<String> seriesId() {
    return seriesId.isEmpty() ? Optional.empty() : Optional.of(seriesId);
  }

  /** The run's primary task ({@code Run.primary_task_id} of Flower 1.40+), if named. */
  public Optional<String> primaryTaskId() {
    return primaryTaskId.isEmpty() ? Optional.empty() : Optional.of(primaryTaskId);
  }

  /**
   * Flower's {@code Context.version} (Flower 1.40+): how many times the node stored this context
   * (its state) before handing it to this handler, 0 the first time. Flower's SuperNode keeps it
   * to refuse a stale concurrent execution's context; a handler may use it to tell a first call
   * from later ones. A Java SuperNode stores the context once after every handler call, whatever
   * the reply, and shares it among the runs of one series ({@link #seriesId()}).
   */
  public long version() {
    return version;
  }

  /** The SuperNode's {@code --node-config}: strings, longs, doubles and booleans. */
  public Map<String, Object> nodeConfig() {
    return nodeConfig;
  }

  /** The run's config: strings, longs, doubles and booleans. */
  public Map<String, Object> runConfig() {
    return runConfig;
  }

  /** The state kept for this run on this node; empty at first. */
  public RecordDict state() {
    return state;
  }

  /** Replaces the state kept for this run on this node. */
  public void setState(RecordDict state) {
    this.state = Objects.requireNonNull(state, "state");
  }
}
