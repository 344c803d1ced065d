package io.tributary.spark;

import io.tributary.runtime.PassPart;
import java.io.Serializable;

/**
 * A {@link PassPart} as it travels back from an executor: the range and the runtime's payload.
 *
 * @param from the first group computed
 * @param to one past the last group computed
 * @param payload the runtime's encoded subtrees and failures
 */
record PartBytes(long from, long to, byte[] payload) implements Serializable {
  private static final long serialVersionUID = 1L;

  static PartBytes of(PassPart part) {
    return new PartBytes(part.fromGroup(), part.toGroup(), part.payload());
  }

  PassPart toPart() {
    return new PassPart(from, to, payload);
  }
}
