package io.tributary.cli;

import io.tributary.privacy.PrivacySpent;
import io.tributary.privacy.aggregation.DpMode;
import io.tributary.privacy.aggregation.DpSettings;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;
import picocli.CommandLine.Option;

/**
 * The differential-privacy options that {@code simulate} and {@code server} share; {@link
 * DpSettings} checks them and names the flag of a bad value.
 */
final class DpOptions {
  /** The delta reported when {@code --delta} is not given. */
  static final double DEFAULT_DELTA = 1e-5;

  @Option(names = "--dp", paramLabel = "central|client",
      description = "differentially private aggregation (DP-FedAvg): each update clipped to "
          + "--clip, summed, Gaussian noise of --noise-multiplier x --clip added on the server, "
          + "divided by the clients per round. central: the server clips; client: the clients "
          + "clip before sending (default: none)")
  String dp;

  @Option(names = "--noise-multiplier", paramLabel = "Z",
      description = "the noise's standard deviation over the clipping norm, > 0 (--dp only)")
  Double noiseMultiplier;

  @Option(names = "--target-epsilon", paramLabel = "E",
      description = "simulate: instead of --noise-multiplier, the epsilon the whole run may "
          + "spend at --delta; the noise multiplier is calibrated with the RDP accountant for "
          + "the run's sampling rate (clients per round / clients) and rounds, and recorded "
          + "(--dp only)")
  Double targetEpsilon;

  @Option(names = "--clip", paramLabel = "C",
      description = "the L2 clipping norm of each update, > 0; with --adaptive-clip the initial "
          + "norm (--dp only)")
  Double clip;

  @Option(names = "--adaptive-clip",
      description = "move the clipping norm each round toward --target-quantile of the update "
          + "norms (Andrew et al. 2021), from a noised count (--dp only)")
  boolean adaptiveClip;

  @Option(names = "--target-quantile", paramLabel = "Q",
      description = "adaptive clipping's target_clipped_quantile, in [0, 1] (default: 0.5)")
  Double targetQuantile;

  @Option(names = "--clip-lr", paramLabel = "LR",
      description = "adaptive clipping's clip_norm_lr, > 0 (default: 0.2)")
  Double clipLr;

  @Option(names = "--clipped-count-stddev", paramLabel = "S",
      description = "adaptive clipping's clipped_count_stddev, above Z / 2 (default: clients per "
          + "round / 20)")
  Double clippedCountStddev;

  @Option(names = "--local-noise-stddev", paramLabel = "S",
      description = "Gaussian noise each client adds to its clipped update (--dp client only; "
          + "default: 0)")
  Double localNoiseStddev;

  @Option(names = "--delta", paramLabel = "D",
      description = "the delta of the (epsilon, delta) reported each round, in (0, 1) (default: "
          + "1e-5)")
  Double delta;

  @Option(names = "--insecure-seeded-noise",
      description = "draw the DP noise from the run's seed, so that a run repeats bit for bit: "
          + "for experiments only, such a run has NO privacy (default: a cryptographically "
          + "secure generator)")
  boolean insecureSeededNoise;

  /**
   * The settings given, or empty without {@code --dp}.
   *
   * @throws IllegalArgumentException naming the flag that is missing, misplaced or out of range
   */
  Optional<DpSettings> settings() {
    if (dp == null) {
      String stray = noiseMultiplier != null ? "--noise-multiplier"
          : targetEpsilon != null ? "--target-epsilon" : clip != null ? "--clip"
          : adaptiveClip ? "--adaptive-clip" : delta != null ? "--delta"
          : insecureSeededNoise ? "--insecure-seeded-noise"
          : localNoiseStddev != null ? "--local-noise-stddev" : adaptiveStray();
      if (stray != null) {
        throw new IllegalArgumentException(stray + " applies only with --dp central|client");
      }
      return Optional.empty();
    }
    try {
      return Optional.of(build());
    } catch (IllegalArgumentException e) {
      // DpSettings names its components as Java code does; the user typed flags.
      throw DpFlags.rendered(e);
    }
  }

  private DpSettings build() {
    DpMode mode = DpMode.parse(dp);
    if (noiseMultiplier != null && targetEpsilon != null) {
      throw new IllegalArgumentException("--noise-multiplier and --target-epsilon both set the "
          + "noise: give one");
    }
    if (noiseMultiplier == null && targetEpsilon == null) {
      throw new IllegalArgumentException("--dp needs --noise-multiplier Z or --target-epsilon E");
    }
    if (clip == null) {
      throw new IllegalArgumentException("--dp needs --clip C");
    }
    if (!adaptiveClip && adaptiveStray() != null) {
      throw new IllegalArgumentException(adaptiveStray() + " applies only with --adaptive-clip");
    }
    Optional<DpSettings.Adaptive> adaptive = adaptiveClip ? Optional.of(new DpSettings.Adaptive(
        targetQuantile != null ? targetQuantile : DpSettings.DEFAULT_TARGET_QUANTILE,
        clipLr != null ? clipLr : DpSettings.DEFAULT_CLIP_LR,
        clippedCountStddev != null ? OptionalDouble.of(clippedCountStddev)
            : OptionalDouble.empty())) : Optional.empty();
    // With a target epsilon the run calibrates the multiplier; 1 stands in until it does.
    return new DpSettings(mode, noiseMultiplier != null ? noiseMultiplier : 1, clip, adaptive,
        localNoiseStddev != null ? localNoiseStddev : 0, delta != null ? delta : DEFAULT_DELTA,
        insecureSeededNoise);
  }

  /**
   * The settings given, a target epsilon calibrated for {@code rounds} rounds at sampling rate
   * {@code q} (the server's accounting: every client of every round, q = 1).
   *
   * @throws IllegalArgumentException naming the flag that is missing, misplaced or out of range
   */
  Optional<DpSettings> settings(double q, long rounds) {
    Optional<DpSettings> given = settings();
    if (given.isEmpty() || targetEpsilon == null) {
      return given;
    }
    try {
      return Optional.of(given.get().calibrated(targetEpsilon, q, rounds));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--target-epsilon: " + DpFlags.render(e.getMessage()),
          e);
    }
  }

  /** {@code --target-epsilon}, if given. */
  OptionalDouble targetEpsilon() {
    return targetEpsilon == null ? OptionalDouble.empty() : OptionalDouble.of(targetEpsilon);
  }

  private String adaptiveStray() {
    return targetQuantile != null ? "--target-quantile" : clipLr != null ? "--clip-lr"
        : clippedCountStddev != null ? "--clipped-count-stddev" : null;
  }

  /** The loud warning of {@code --insecure-seeded-noise}, on stderr before a run starts. */
  static void warnIfSeeded(PrintWriter err, String command, Optional<DpSettings> dp) {
    if (dp.isPresent() && dp.get().insecureSeededNoise()) {
      err.println("tributary " + command + ": WARNING: --insecure-seeded-noise: the noise "
          + "repeats from the seed, so this run has NO differential privacy; for experiments "
          + "only");
      err.flush();
    }
  }

  /** The final line on the privacy spent after {@code rounds} rounds at sampling rate q. */
  static String spentLine(DpSettings dp, double q, long rounds) {
    return spentLine(dp, q, rounds, dp.spent(q, rounds), "");
  }

  /**
   * The line of {@link #spentLine(DpSettings, double, long)} for a spending computed elsewhere
   * ({@code s}), with {@code note} after the noise multiplier (how a run through edges accounts
   * for it).
   */
  static String spentLine(DpSettings dp, double q, long rounds, PrivacySpent s, String note) {
    String sampling = q < 1 ? String.format(Locale.ROOT, "fixed-size sampling q = %.4g", q)
        : "every client in every round, q = 1";
    return String.format(Locale.ROOT, "privacy: epsilon %.4f at delta %s after %d rounds "
        + "(RDP accountant, %s, noise multiplier %s)%s", s.epsilon(),
        dp.describe().get("delta"), rounds, sampling, dp.describe().get("noise_multiplier") + note,
        dp.insecureSeededNoise() ? "; NOT private: --insecure-seeded-noise" : "");
  }
}
