package io.tributary.cli;

import io.tributary.flower.secaggplus.SecAggPlusSettings;
import io.tributary.flower.server.SecureAggregation;
import io.tributary.flower.server.ServerConfig;
import io.tributary.privacy.aggregation.DpMode;
import io.tributary.privacy.aggregation.DpSettings;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * The secure-aggregation options of a server and of a relay: {@code --secure-aggregation} and
 * the SecAgg+ settings it takes ({@code --secagg-neighbours}, {@code --secagg-threshold},
 * {@code --secagg-bits}, {@code --secagg-clip}, {@code --secagg-max-weight}), parsed here and
 * handed to {@link ServerConfig.Builder} or a relay's settings (the Join server's SecAgg+) or,
 * with a server's {@code --fleet-api-address}, as Flower's {@link SecAggPlusSettings} to the
 * Fleet API's settings.
 */
final class SecureAggregationOptions {
  @Option(names = "--secure-aggregation",
      description = "aggregate every fit round with SecAgg+: the server learns only the "
          + "example-weighted sum of the clients' quantized updates and their total examples; "
          + "clients must run 'tributary client --secure-aggregation'; with "
          + "--fleet-api-address it is Flower's SecAgg+ (SecAggPlusWorkflow), for SuperNodes "
          + "whose ClientApp wears Flower's secaggplus_mod or Tributary's SecAggPlusMod")
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
      description = "updates are clipped to [-R, R] before quantization (default: 1.0; with "
          + "--fleet-api-address, Flower's SecAgg+ clips the weighted parameters, default 8.0)")
  Double clip;

  @Option(names = "--secagg-max-weight", paramLabel = "W",
      description = "with --fleet-api-address: the largest example count a node's weight "
          + "reaches in Flower's SecAgg+ (default: 1000, Flower's; larger counts are capped)")
  Double maxWeight;

  /**
   * Sets the builder's secure aggregation when {@code --secure-aggregation} is given, as
   * {@link #settings} says.
   */
  void apply(ServerConfig.Builder b, Optional<DpSettings> dp) {
    settings(dp).ifPresent(b::secureAggregation);
  }

  /**
   * The SecAgg+ settings of the Join server's protocol (a server's or a relay's) when
   * {@code --secure-aggregation} is given; empty without it. With {@code --dp client} the clients
   * clip their updates to L2 norm C, so every element is within [-C, C]: the clipping range
   * defaults to C and may not be smaller.
   *
   * @throws IllegalArgumentException when a {@code --secagg-} option comes without it, it comes
   *     with {@code --dp central} (the server would have to see each update to clip it), or the
   *     settings are out of range
   */
  Optional<SecureAggregation> settings(Optional<DpSettings> dp) {
    if (!enabled) {
      requireNoSettings();
      return Optional.empty();
    }
    if (maxWeight != null) {
      throw new IllegalArgumentException("--secagg-max-weight is a setting of Flower's SecAgg+, "
          + "which runs with --fleet-api-address");
    }
    Double range = clip;
    checkDp(dp);
    if (dp.isPresent()) {
      double c = dp.get().clip();
      if (clip != null && clip < c) {
        throw new IllegalArgumentException("--secagg-clip " + clip + " would clip updates that "
            + "--clip " + c + " lets through; give at least " + c + " or leave it out");
      }
      range = clip != null ? clip : c;
    }
    return Optional.of(new SecureAggregation(
        neighbours != null ? neighbours : SecureAggregation.DEFAULT_NEIGHBOURS,
        threshold != null ? threshold : SecureAggregation.DEFAULT_THRESHOLD,
        bits != null ? bits : SecureAggregation.DEFAULT_BITS,
        range != null ? range : SecureAggregation.DEFAULT_CLIPPING_RANGE,
        SecureAggregation.DEFAULT_EXAMPLE_BITS));
  }

  /**
   * The settings of Flower's SecAgg+ for a server that serves the Fleet API, when
   * {@code --secure-aggregation} is given: K neighbours make {@code num_shares} K + 1 (a node's
   * share of its own secrets counts in Flower's), T is Flower's {@code reconstruction_threshold},
   * B bits make the quantization range 2^B (Flower's default 2^22) and the modulus
   * 2^max(32, B + 10), R is Flower's clipping range (default 8.0) and W its max weight.
   *
   * @throws IllegalArgumentException when a {@code --secagg-} option comes without it, with
   *     {@code --dp}, or when the settings are out of Flower's ranges
   */
  Optional<SecAggPlusSettings> flower(Optional<DpSettings> dp) {
    if (!enabled) {
      requireNoSettings();
      return Optional.empty();
    }
    if (dp.isPresent()) {
      throw new IllegalArgumentException("--dp with --secure-aggregation over the Fleet API: "
          + "Flower's SecAgg+ weighs each node's update by its example count, so one node could "
          + "move the noised sum by more than the clipping norm; run without --dp");
    }
    SecAggPlusSettings d = SecAggPlusSettings.of(
        (neighbours != null ? neighbours : SecureAggregation.DEFAULT_NEIGHBOURS) + 1,
        threshold != null ? threshold : SecureAggregation.DEFAULT_THRESHOLD);
    long quantization = d.quantizationRange();
    long modulus = d.modulusRange();
    if (bits != null) {
      if (bits < 1 || bits > 52) {
        throw new IllegalArgumentException("--secagg-bits with Flower's SecAgg+ must be 1 to 52, "
            + "got " + bits);
      }
      quantization = 1L << bits;
      modulus = 1L << Math.max(32, bits + 10);
    }
    return Optional.of(new SecAggPlusSettings(d.numShares(), d.threshold(),
        clip != null ? clip : d.clippingRange(), quantization, modulus,
        maxWeight != null ? maxWeight : d.maxWeight()));
  }

  private void requireNoSettings() {
    if (neighbours != null || threshold != null || bits != null || clip != null
        || maxWeight != null) {
      throw new IllegalArgumentException("the --secagg- options need --secure-aggregation");
    }
  }

  private static void checkDp(Optional<DpSettings> dp) {
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
    }
  }
}
