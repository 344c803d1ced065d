package io.tributary.flower.server.internal;

import io.tributary.flower.server.ServerConfig;
import io.tributary.flower.server.ServerMemory;

/** The bounds a server's and a relay's read-ahead and stream window are checked against. */
public final class MemoryBounds {
  private MemoryBounds() {}

  /**
   * Checks a read-ahead of at least {@link ServerConfig#MIN_READ_AHEAD_BYTES} and a stream window
   * of {@link ServerMemory#MIN_WINDOW_BYTES} to {@link ServerConfig#MAX_FLOW_CONTROL_WINDOW}.
   *
   * @throws IllegalArgumentException naming the first value out of range
   */
  public static void check(int readAheadBytes, int flowControlWindow) {
    if (readAheadBytes < ServerConfig.MIN_READ_AHEAD_BYTES) {
      throw new IllegalArgumentException("the read-ahead must be at least "
          + ServerConfig.MIN_READ_AHEAD_BYTES + " bytes, got " + readAheadBytes);
    }
    if (flowControlWindow < ServerMemory.MIN_WINDOW_BYTES
        || flowControlWindow > ServerConfig.MAX_FLOW_CONTROL_WINDOW) {
      throw new IllegalArgumentException("the flow-control window must be "
          + ServerMemory.MIN_WINDOW_BYTES + " to " + ServerConfig.MAX_FLOW_CONTROL_WINDOW
          + " bytes, got " + flowControlWindow);
    }
  }
}
