package io.tributary.flower.app;

import io.tributary.flower.records.RecordDict;
import java.util.Map;
import java.util.Objects;

/**
 * Flower's {@code Context}: what a handler knows besides the message. The node config comes from
 * the SuperNode ({@code --node-config}), the run config from the run (the FAB's
 * {@code [tool.flwr.app.config]} with the run's overrides), and {@link #state()} persists across
 * the messages of one run on this node: a handler replaces it with {@link #setState}.
 */
public final class Context {
  private final long runId;
  private final long nodeId;
  private final Map<String, Object> nodeConfig;
  private final Map<String, Object> runConfig;
  private volatile RecordDict state;

  public Context(long runId, long nodeId, Map<String, ?> nodeConfig, Map<String, ?> runConfig,
      RecordDict state) {
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
