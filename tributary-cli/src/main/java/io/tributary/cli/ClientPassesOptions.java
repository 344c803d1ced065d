package io.tributary.cli;

import io.tributary.flower.passes.NodeComputation;
import io.tributary.flower.passes.NodePasses;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * The {@code --no-client-passes} option of the commands that join a Tributary server as a node
 * ({@code supernode} over the Fleet API, {@code client} over Join): by default they run the
 * server's secure passes, with the protocol and the algorithms composed in code found on a class
 * path ({@link NodePasses#installed}).
 */
final class ClientPassesOptions {
  @Option(names = "--no-client-passes",
      description = "do not run a Tributary server's secure passes: by default the node answers "
          + "a Tributary server's capability query saying it runs client passes, and computes "
          + "its client's part of a computation that sums securely (such as DP-FedAvg with "
          + "secure sums) itself, rebuilt from what the server sends and checked against its "
          + "fingerprint, with the secure-sum protocol found on the class path (SecAgg+); "
          + "algorithms composed in code come from the ComposedAlgorithms registered on "
          + "--classpath")
  boolean noClientPasses;

  /**
   * The node side of a Tributary server's secure passes, from {@code loader}'s class path: the
   * protocol's node and the algorithms composed in code registered there; empty with {@code
   * --no-client-passes} or when no protocol is installed.
   *
   * @throws IllegalArgumentException when a registered protocol or algorithm does not load
   */
  Optional<NodePasses> passes(ClassLoader loader) {
    if (noClientPasses) {
      return Optional.empty();
    }
    try {
      return NodePasses.installed(NodeComputation.builder().composedFrom(loader).build(),
          loader);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("client passes: " + e.getMessage()
          + " (--no-client-passes runs without them)", e);
    }
  }

  /** What the start line says of {@code passes}. */
  static String describe(NodePasses passes) {
    return "runs client passes (" + passes.protocol().orElse("secure sums") + ")";
  }
}
