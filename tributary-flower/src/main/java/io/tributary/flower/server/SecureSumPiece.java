package io.tributary.flower.server;

import java.util.Arrays;
import java.util.List;

/**
 * The pieces a server needs to run a round computation that sums securely with the
 * computation's own client steps on the nodes (docs/architecture.md, "What running it on a server
 * takes"), and which of them this Tributary has. A {@link SecureSumRefusedException} names
 * the ones a server lacks: for a Fleet server all four are built, the protocol found on the class
 * path, over Fleet messages and the legacy Join transport's FitIns/FitRes alike.
 */
public enum SecureSumPiece {
  /** Piece 1: the runtime replays a client pass handing a secure sum's inputs to a protocol. */
  WORKER_REPLAY("the runtime's worker side (a client-pass replay that hands a secure sum's "
      + "inputs to a client-side protocol and leaves them out of the pass part)", true),
  /** Piece 2: the planner names a pass's client-side inputs, so a node gets no server state. */
  CLIENT_INPUTS("the planner naming a pass's client-side inputs (so that a node is sent no "
      + "server state)", true),
  /** Piece 3: a node rebuilds the server's computation and checks its fingerprint. */
  NODE_COMPUTATION("the computation on the node (io.tributary.flower.passes.NodeComputation)",
      true),
  /**
   * Piece 4: the server's pass engine, sending passes and the protocol's stages in Fleet
   * messages; the protocol ({@code io.tributary.flower.passes.SecurePassProtocol}) comes from the
   * class path ({@code tributary-flower-secagg}'s SecAgg+).
   */
  FLEET_PROTOCOL("a server pass engine sending each node its pass with a secure-sum protocol's "
      + "stages in Fleet messages (a SecurePassProtocol on the class path, such as "
      + "tributary-flower-secagg's SecAgg+)", true),
  /**
   * Piece 4 for the legacy transport: passes and stages in FitIns/FitRes ({@code
   * io.tributary.flower.passes.JoinPassLayout}), answered by a Join client that {@code
   * NodePasses} serves.
   */
  JOIN_PROTOCOL("a secure pass over the legacy Join transport's FitIns/FitRes", true);

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

  /**
   * The pieces a server lacks to run a secure pass: the protocol when none is on its class path
   * (which both transports' passes need).
   */
  public static List<SecureSumPiece> missing(boolean protocolFound) {
    return protocolFound ? List.of() : List.of(FLEET_PROTOCOL);
  }
}
