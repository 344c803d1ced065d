package io.tributary.cli;

import io.tributary.privacy.aggregation.DpSettings;
import io.tributary.privacy.secagg.SecAggSettings;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * {@code simulate}'s secure aggregation: {@code --secure-aggregation} sums the clients' clipped
 * updates of a {@code --dp client} run with SecAgg+ among the simulated clients, with the same
 * {@code --secagg-} settings as {@code tributary server}.
 */
final class SimulateSecureOptions {
  @Option(names = "--secure-aggregation",
      description = "with --dp client: sum the clipped updates with SecAgg+ among the simulated "
          + "clients, so the server sees only masked vectors and the sum, then adds its noise")
  boolean enabled;

  @Option(names = "--secagg-neighbours", paramLabel = "K",
      description = "the neighbours each client shares masks with (default: "
          + SecAggSettings.DEFAULT_NEIGHBOURS + "; all others in smaller rounds)")
  Integer neighbours;

  @Option(names = "--secagg-threshold", paramLabel = "T",
      description = "the neighbours that recover a dropped client's masks, more than K/2 "
          + "(default: " + SecAggSettings.DEFAULT_THRESHOLD + ")")
  Integer threshold;

  @Option(names = "--secagg-bits", paramLabel = "B",
      description = "the bits of a quantized update element, 1 to 42 (default: "
          + SecAggSettings.DEFAULT_INPUT_BITS + ")")
  Integer bits;

  /**
   * {@code dp} with secure aggregation when {@code --secure-aggregation} is given.
   *
   * @throws IllegalArgumentException when a {@code --secagg-} option comes without it, it comes
   *     without {@code --dp client}, or a setting is out of range
   */
  Optional<DpSettings> apply(Optional<DpSettings> dp) {
    if (!enabled) {
      if (neighbours != null || threshold != null || bits != null) {
        throw new IllegalArgumentException("the --secagg- options need --secure-aggregation");
      }
      return dp;
    }
    if (dp.isEmpty()) {
      throw new IllegalArgumentException("--secure-aggregation in a simulation needs --dp "
          + "client: it sums the clients' clipped updates (plain rounds have no secure sum)");
    }
    DpSettings.Secure d = DpSettings.Secure.defaults();
    try {
      return Optional.of(dp.get().withSecure(new DpSettings.Secure(
          neighbours != null ? neighbours : d.neighbours(),
          threshold != null ? threshold : d.threshold(), bits != null ? bits : d.bits())));
    } catch (IllegalArgumentException e) {
      throw DpFlags.rendered(e);
    }
  }
}
