package io.tributary.cli;

import io.tributary.flower.server.SecureAggregation;
import io.tributary.flower.server.ServerConfig;
import io.tributary.privacy.aggregation.DpMode;
import io.tributary.privacy.aggregation.DpSettings;
import java.util.Optional;
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
   * Sets the builder's secure aggregation when {@code --secure-aggregation} is given. With
   * {@code --dp client} the clients clip their updates to L2 norm C, so every element is within
   * [-C, C]: the clipping range defaults to C and may not be smaller.
   *
   * @throws IllegalArgumentException when a {@code --secagg-} option comes without it, it comes
   *     with {@code --dp central} (the server would have to see each update to clip it), or the
   *     settings are out of range
   */
  void apply(ServerConfig.Builder b, Optional<DpSettings> dp) {
    if (!enabled) {
      if (neighbours != null || threshold != null || bits != null || clip != null) {
        throw new IllegalArgumentException("the --secagg- options need --secure-aggregation");
      }
      return;
    }
    Double range = clip;
    if (dp.isPresent()) {
      if (dp.get().mode() != DpMode.CLIENT) {
        throw new IllegalArgumentException("--secure-aggregation needs --dp client: with --dp "
            + "central the server clips the updates, so it must see each one");
      }
      if (dp.get().adaptive().isPresent()) {
        throw new IllegalArgumentException("--adaptive-clip with --secure-aggregation: the "
            + "count of clients within the clipping norm would need its own secure sum; use "
            + "fixed clipping");
      }
      if (dp.get().localNoiseStddev() > 0) {
        throw new IllegalArgumentException("--local-noise-stddev with --secure-aggregation on a "
            + "server: the clients' adapter clips what they send to --clip, which would cut "
            + "their local noise; SecAgg+ already hides each update, so leave local noise out");
      }
      double c = dp.get().clip();
      if (clip != null && clip < c) {
        throw new IllegalArgumentException("--secagg-clip " + clip + " would clip updates that "
            + "--clip " + c + " lets through; give at least " + c + " or leave it out");
      }
      range = clip != null ? clip : c;
    }
    b.secureAggregation(new SecureAggregation(
        neighbours != null ? neighbours : SecureAggregation.DEFAULT_NEIGHBOURS,
        threshold != null ? threshold : SecureAggregation.DEFAULT_THRESHOLD,
        bits != null ? bits : SecureAggregation.DEFAULT_BITS,
        range != null ? range : SecureAggregation.DEFAULT_CLIPPING_RANGE,
        SecureAggregation.DEFAULT_EXAMPLE_BITS));
  }
}
