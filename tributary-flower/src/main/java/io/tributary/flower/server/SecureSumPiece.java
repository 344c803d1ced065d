package io.tributary.flower.server;

import java.util.Arrays;
import java.util.List;

/**
 * The pieces a server needs to run a round computation that sums securely with the
 * computation's own client steps on the nodes (docs/architecture.md, "What running it on a server
 * would take"), and which of them this Tributary has. A {@link SecureSumRefusedException} names
 * the missing ones.
 */
public enum SecureSumPiece {
  /** Piece 1: the runtime replays a client pass handing a secure sum's inputs to a protocol. */
  WORKER_REPLAY("the runtime's worker side (a client-pass replay that hands a secure sum's "
      + "inputs to a client-side protocol and leaves them out of the pass part)", false),
  /** Piece 2: the planner names a pass's client-side inputs, so a node gets no server state. */
  CLIENT_INPUTS("the planner naming a pass's client-side inputs (so that a node is sent no "
      + "server state)", false),
  /** Piece 3: a node rebuilds the server's computation and checks its fingerprint. */
  NODE_COMPUTATION("the computation on the node (io.tributary.flower.passes.NodeComputation)",
      true),
  /** Piece 4: the server's pass engine, sending passes and SecAgg+'s stages in Fleet messages. */
  FLEET_PROTOCOL("a server pass engine sending each node its pass with SecAgg+'s stages in "
      + "Fleet messages", false);

  private final String description;
  private final boolean built;

  SecureSumPiece(String description, boolean built) {
    this.description = description;
    this.built = built;
  }

  /** What the piece is, in a few words. */
  public String description() {
    return description;
  }

  /** Whether this Tributary has the piece. */
  public boolean built() {
    return built;
  }

  /** The pieces this Tributary lacks, in order. */
  public static List<SecureSumPiece> missing() {
    return Arrays.stream(values()).filter(p -> !p.built).toList();
  }
}
