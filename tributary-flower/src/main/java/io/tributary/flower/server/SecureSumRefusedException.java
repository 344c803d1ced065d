package io.tributary.flower.server;

import java.util.List;
import java.util.SortedSet;

/**
 * The algorithm's round computations sum securely ({@code federated_secure_sum} or
 * {@code federated_secure_sum_bitwidth}, such as {@code DpAggregator.withSecureSum}'s), which a
 * server refuses before its first round.
 *
 * <p>A secure sum hides each client's input from the server only when every step before it
 * (the client update, the clip, the local noise, the quantization) runs on the client. A
 * server's runtime runs in the server process and receives each client's update in the clear,
 * so it would compute every client's input itself: running such a computation would present a
 * plain sum as a secure one. The clients of a server do not run the computation's client steps
 * (Flower's clients run their own training and mods), so the computation is refused rather than
 * run with its secure sums in the clear.
 */
public final class SecureSumRefusedException extends FlowerServerException {
  private static final long serialVersionUID = 1L;

  /** The secure sums found, by URI; a list so that the exception stays serializable. */
  private final List<String> intrinsics;

  public SecureSumRefusedException(String algorithm, SortedSet<String> intrinsics) {
    super(algorithm + "'s round computation sums securely (" + String.join(", ", intrinsics)
        + "), which a server cannot run: the clients' steps before a secure sum (update, clip, "
        + "quantize) would run in the server, which would hold every client's input in the "
        + "clear; use the aggregator without its secure sum, with the server's secure "
        + "aggregation (SecAgg+ among the clients) for a secure sum of the clients' updates");
    this.intrinsics = List.copyOf(intrinsics);
  }

  /** The secure sums the computation calls, by URI, in sorted order. */
  public List<String> intrinsics() {
    return intrinsics;
  }
}
