package io.tributary.flower.passes;

import io.tributary.learning.FederatedAlgorithm;
import java.util.List;

/**
 * Algorithms composed in code (such as FedAvg with {@code DpAggregator.withSecureSum}) that a
 * node runs when a server names them: a registry algorithm travels as its name and
 * hyperparameters, but one composed in code runs only where code gives it. A jar on a node's
 * class path registers an implementation in {@code
 * META-INF/services/io.tributary.flower.passes.ComposedAlgorithms}, and {@link
 * NodeComputation.Builder#composedFrom} adds what it returns, so that a node started from the
 * command line ({@code tributary supernode --classpath}) holds the server's algorithm.
 *
 * <pre>{@code
 * public final class DpSecureSum implements ComposedAlgorithms {
 *   public List<FederatedAlgorithm> algorithms() {
 *     return List.of(FederatedAlgorithm.fedAvg().withAggregator(DpAggregator.fixed(0.5, 1.0, 4,
 *         DpNoise.secure()).clientSide().withSecureSum(12)));
 *   }
 * }
 * }</pre>
 *
 * <p>The server's fingerprint still decides: an algorithm of the same name whose computation
 * differs from the server's is refused ({@link FingerprintMismatchException}).
 */
public interface ComposedAlgorithms {
  /** The algorithms, each under its {@link FederatedAlgorithm#name}, no two with one name. */
  List<FederatedAlgorithm> algorithms();
}
