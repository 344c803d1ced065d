package io.tributary.flower.server;

import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;

/**
 * The algorithm's round computations sum securely ({@code federated_secure_sum} or
 * {@code federated_secure_sum_bitwidth}, such as {@code DpAggregator.withSecureSum}'s), which a
 * server cannot run on its nodes, so it refuses them before its first round, naming what it
 * lacks to run them.
 *
 * <p>A secure sum hides each client's input from the server only when every step before it
 * (the client update, the clip, the local noise, the quantization) runs on the client. A
 * server's runtime runs in the server process and receives each client's update in the clear,
 * so it would compute every client's input itself: running such a computation would present a
 * plain sum as a secure one. A Fleet server runs those steps on the nodes (the pieces of {@link
 * SecureSumPiece}) when a secure-pass protocol is on its class path and every connected node runs
 * client passes (a Fleet node, or a Join client over FitIns/FitRes); otherwise it refuses:
 * {@link #missingPieces} are the pieces it lacks (the protocol), {@link #incapableNodes} the
 * connected nodes that stated no such capability ({@code io.tributary.flower.passes.ClientPasses}),
 * each with why (Flower's Python nodes and clients never can: they run their own training and
 * mods).
 */
public final class SecureSumRefusedException extends FlowerServerException {
  private static final long serialVersionUID = 1L;

  /** The secure sums found, by URI; a list so that the exception stays serializable. */
  private final List<String> intrinsics;
  private final List<SecureSumPiece> missingPieces;
  /** A TreeMap, so that the exception stays serializable. */
  private final TreeMap<String, String> incapableNodes;
  private final int nodesAsked;

  /**
   * @param missingPieces the pieces this Tributary lacks ({@link SecureSumPiece#missing()})
   * @param incapableNodes the asked nodes that cannot run client passes, by id, with why
   * @param nodesAsked how many connected nodes were asked
   */
  public SecureSumRefusedException(String algorithm, SortedSet<String> intrinsics,
      List<SecureSumPiece> missingPieces, SortedMap<String, String> incapableNodes,
      int nodesAsked) {
    super(message(algorithm, intrinsics, missingPieces, incapableNodes, nodesAsked));
    this.intrinsics = List.copyOf(intrinsics);
    this.missingPieces = List.copyOf(missingPieces);
    this.incapableNodes = new TreeMap<>(incapableNodes);
    this.nodesAsked = nodesAsked;
  }

  private static String message(String algorithm, SortedSet<String> intrinsics,
      List<SecureSumPiece> missing, SortedMap<String, String> incapable, int asked) {
    StringBuilder m = new StringBuilder(algorithm).append("'s round computation sums securely (")
        .append(String.join(", ", intrinsics)).append("), which a server cannot run: ");
    if (!missing.isEmpty()) {
      m.append("it lacks ").append(String.join("; ", missing.stream()
          .map(SecureSumPiece::description).toList())).append(". ");
    }
    if (asked == 0) {
      m.append("No node was connected to ask whether it runs client passes. ");
    } else if (incapable.isEmpty()) {
      m.append("All ").append(asked).append(" connected nodes run client passes. ");
    } else {
      m.append(incapable.size()).append(" of ").append(asked)
          .append(" connected nodes cannot run client passes (");
      int shown = 0;
      for (Map.Entry<String, String> e : incapable.entrySet()) {
        if (shown++ == MAX_LISTED) {
          m.append(", ...");
          break;
        }
        m.append(shown > 1 ? ", " : "").append(e.getKey()).append(": ").append(e.getValue());
      }
      m.append("). ");
    }
    return m.append("Run here, the clients' steps before a secure sum (update, clip, quantize) "
        + "would run in the server, which would hold every client's input in the clear; use "
        + "the aggregator without its secure sum, with the server's secure aggregation "
        + "(SecAgg+ among the clients) for a secure sum of the clients' updates").toString();
  }

  /** The most nodes a message lists; {@link #incapableNodes} has them all. */
  private static final int MAX_LISTED = 10;

  /** The secure sums the computation calls, by URI, in sorted order. */
  public List<String> intrinsics() {
    return intrinsics;
  }

  /** The pieces this Tributary lacks to run the computation on its nodes. */
  public List<SecureSumPiece> missingPieces() {
    return missingPieces;
  }

  /** The connected nodes that cannot run client passes, by id, with why. */
  public SortedMap<String, String> incapableNodes() {
    return java.util.Collections.unmodifiableSortedMap(incapableNodes);
  }

  /** How many connected nodes were asked whether they run client passes. */
  public int nodesAsked() {
    return nodesAsked;
  }
}
