package io.tributary.flower.server;

import java.util.Arrays;
import java.util.List;

/**
 * The pieces a server needs to run a round computation that sums securely with the
 * computation's own client steps on the nodes (docs/architecture.md, "What running it on a server
 * takes"), and which of them this Tributary has. A {@link SecureSumRefusedException} names
 * the ones a server lacks: for a Fleet server all four are built, the protocol found on the class
 * path; the legacy Join transport has no secure pass.
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
  /** Piece 4 for the legacy transport: passes and stages in FitIns/FitRes. */
  JOIN_PROTOCOL("a secure pass over the legacy Join transport's FitIns/FitRes", false);

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
   * The pieces a server lacks to run a secure pass: the Fleet protocol when none is on its class
   * path, and the Join transport's when Join clients are connected.
   */
  public static List<SecureSumPiece> missing(boolean protocolFound, boolean joinClients) {
    List<SecureSumPiece> out = new java.util.ArrayList<>();
    if (!protocolFound) {
      out.add(FLEET_PROTOCOL);
    }
    if (joinClients) {
      out.add(JOIN_PROTOCOL);
    }
    return List.copyOf(out);
  }
}
