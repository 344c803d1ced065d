package io.tributary.runtime;

import java.util.Objects;

/**
 * A worker's share of a client pass: the complete {@link ReductionTree} subtrees of groups
 * {@code [fromGroup, toGroup)} for every aggregation of the pass, the clients that failed in
 * them, and how many succeeded, encoded by the runtime (engines only move the bytes).
 *
 * @param fromGroup the first group computed
 * @param toGroup one past the last group computed
 * @param payload the encoded subtrees and failures; the runtime checks it before using it
 */
public record PassPart(long fromGroup, long toGroup, byte[] payload) {
  public PassPart {
    Objects.requireNonNull(payload, "payload");
    if (fromGroup < 0 || toGroup < fromGroup) {
      throw new IllegalArgumentException("a pass part needs 0 <= fromGroup <= toGroup, got ["
          + fromGroup + ", " + toGroup + ")");
    }
  }
}
