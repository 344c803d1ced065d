package io.tributary.cli;

import io.tributary.flower.server.SecureAggregation;
import io.tributary.flower.server.ServerConfig;
import picocli.CommandLine.Option;

/**
 * The server's secure-aggregation options: {@code --secure-aggregation} and the SecAgg+ settings
 * it takes ({@code --secagg-neighbours}, {@code --secagg-threshold}, {@code --secagg-bits},
 * {@code --secagg-clip}), parsed here and handed to {@link ServerConfig.Builder}.
 */
final class SecureAggregationOptions {
  @Option(names = "--secure-aggregation",
      description = "aggregate every fit round with SecAgg+: the server learns only the "
          + "example-weighted sum of the clients' quantized updates and their total examples; "
          + "clients must run 'tributary client --secure-aggregation'")
  boolean enabled;

  @Option(names = "--secagg-neighbours", paramLabel = "K",
      description = "the neighbours each client shares masks with (default: "
          + SecureAggregation.DEFAULT_NEIGHBOURS + "; all others in smaller rounds)")
  Integer neighbours;

  @Option(names = "--secagg-threshold", paramLabel = "T",
      description = "the neighbours that recover a dropped client's masks, more than K/2 "
          + "(default: " + SecureAggregation.DEFAULT_THRESHOLD + ")")
  Integer threshold;

  @Option(names = "--secagg-bits", paramLabel = "B",
      description = "the bits of a quantized update element (default: "
          + SecureAggregation.DEFAULT_BITS + ")")
  Integer bits;

  @Option(names = "--secagg-clip", paramLabel = "R",
      description = "updates are clipped to [-R, R] before quantization (default: 1.0)")
  Double clip;

  /**
   * Sets the builder's secure aggregation when {@code --secure-aggregation} is given.
   *
   * @throws IllegalArgumentException when a {@code --secagg-} option comes without it, or the
   *     settings are out of range
   */
  void apply(ServerConfig.Builder b) {
    if (!enabled) {
      if (neighbours != null || threshold != null || bits != null || clip != null) {
        throw new IllegalArgumentException("the --secagg- options need --secure-aggregation");
      }
      return;
    }
    b.secureAggregation(new SecureAggregation(
        neighbours != null ? neighbours : SecureAggregation.DEFAULT_NEIGHBOURS,
        threshold != null ? threshold : SecureAggregation.DEFAULT_THRESHOLD,
        bits != null ? bits : SecureAggregation.DEFAULT_BITS,
        clip != null ? clip : SecureAggregation.DEFAULT_CLIPPING_RANGE,
        SecureAggregation.DEFAULT_EXAMPLE_BITS));
  }
}
