package io.tributary.privacy.aggregation;

import io.tributary.learning.aggregation.Aggregator;
import io.tributary.learning.aggregation.ClientClipping;
import io.tributary.privacy.AdaptiveClipping;
import io.tributary.privacy.PrivacySpent;
import io.tributary.privacy.RdpAccountant;
import io.tributary.privacy.Sampling;
import io.tributary.privacy.secagg.SecAggSettings;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.SequencedMap;
import java.util.Set;
import java.util.TreeSet;

/**
 * The differential-privacy settings of a run, as {@code tributary simulate} and {@code tributary
 * server} take them ({@code --dp central|client --noise-multiplier Z --clip C [--adaptive-clip
 * --target-quantile Q --clip-lr LR --clipped-count-stddev S] [--local-noise-stddev S] --delta D
 * [--insecure-seeded-noise]}). A value out of range is refused naming the setting as this record
 * and its {@link Builder} call it ({@code noiseMultiplier must be positive and finite}); the
 * command line names its flag instead.
 *
 * @param mode who clips the updates
 * @param noiseMultiplier z, positive and finite
 * @param clip C, or the initial C with adaptive clipping, positive and finite
 * @param adaptive adaptive clipping's settings, or empty for a fixed C
 * @param localNoiseStddev the local noise each client adds ({@link DpMode#CLIENT} only; 0 for none)
 * @param delta the delta of the (epsilon, delta) guarantee reported, in (0, 1)
 * @param insecureSeededNoise whether the noise comes from the run's seed (reproducible, and no
 *     privacy at all) instead of a cryptographically secure generator
 * @param secure with a value, the clipped updates are summed by SecAgg+ ({@code
 *     --secure-aggregation}, client-side DP only): the server sees only their sum
 */
public record DpSettings(DpMode mode, double noiseMultiplier, double clip,
    Optional<Adaptive> adaptive, double localNoiseStddev, double delta,
    boolean insecureSeededNoise, Optional<Secure> secure) {

  /**
   * How the clipped updates are summed securely.
   *
   * @param neighbours {@code --secagg-neighbours}, k
   * @param threshold {@code --secagg-threshold}, t, in (k/2, k]
   * @param bits {@code --secagg-bits}, the width of a quantized update element, 1 to 42
   */
  public record Secure(int neighbours, int threshold, int bits) {
    /** The defaults of {@code tributary server --secure-aggregation}: k 16, t 9, 16 bits. */
    public static Secure defaults() {
      return new Secure(SecAggSettings.DEFAULT_NEIGHBOURS, SecAggSettings.DEFAULT_THRESHOLD,
          SecAggSettings.DEFAULT_INPUT_BITS);
    }

    /**
     * Checks the ranges.
     *
     * @throws IllegalArgumentException naming the setting out of range
     */
    public Secure {
      if (neighbours < 1) {
        throw new IllegalArgumentException("neighbours must be at least 1, got "
            + neighbours);
      }
      if (threshold < 1 || threshold > neighbours || 2L * threshold <= neighbours) {
        throw new IllegalArgumentException("threshold must be in (" + neighbours
            + "/2, " + neighbours + "], got " + threshold);
      }
      new QuantizedSum(bits, 0);
    }
  }

  /** Settings whose updates are summed in the clear. */
  public DpSettings(DpMode mode, double noiseMultiplier, double clip,
      Optional<Adaptive> adaptive, double localNoiseStddev, double delta,
      boolean insecureSeededNoise) {
    this(mode, noiseMultiplier, clip, adaptive, localNoiseStddev, delta, insecureSeededNoise,
        Optional.empty());
  }

  /** The same settings with the clipped updates summed by SecAgg+ as {@code secure} says. */
  public DpSettings withSecure(Secure s) {
    return new DpSettings(mode, noiseMultiplier, clip, adaptive, localNoiseStddev, delta,
        insecureSeededNoise, Optional.of(s));
  }

  /** The same settings at noise multiplier {@code z}. */
  public DpSettings withNoiseMultiplier(double z) {
    return new DpSettings(mode, z, clip, adaptive, localNoiseStddev, delta, insecureSeededNoise,
        secure);
  }

  /**
   * The same settings with the noise multiplier that spends at most {@code targetEpsilon} at
   * {@link #delta} over {@code rounds} rounds that each sample a fixed-size cohort, a fraction
   * {@code q} of the population: the {@link RdpAccountant}'s calibration ({@link
   * RdpAccountant#noiseMultiplierFor}), so that {@link #spent spent(q, rounds)} is at most the
   * target.
   *
   * @throws IllegalArgumentException when the target is out of range or cannot be reached
   */
  public DpSettings calibrated(double targetEpsilon, double q, long rounds) {
    return withNoiseMultiplier(RdpAccountant.noiseMultiplierFor(Sampling.FIXED_SIZE, q, rounds,
        delta, targetEpsilon));
  }

  /** The delta reported when none is given, as {@code --delta}'s default. */
  public static final double DEFAULT_DELTA = 1e-5;

  /**
   * A builder of settings in {@code mode}: noise multiplier 1 (or calibrated to a target epsilon
   * by the run, {@link #calibrated}), clipping norm 1, fixed clipping, no local noise, delta
   * {@link #DEFAULT_DELTA}, secure noise, updates summed in the clear.
   */
  public static Builder builder(DpMode mode) {
    return new Builder(mode);
  }

  /** Collects {@link DpSettings} by name instead of position; {@link #build} checks them. */
  public static final class Builder {
    private final DpMode mode;
    private double noiseMultiplier = 1;
    private double clip = 1;
    private Optional<Adaptive> adaptive = Optional.empty();
    private double localNoiseStddev;
    private double delta = DEFAULT_DELTA;
    private boolean insecureSeededNoise;
    private Optional<Secure> secure = Optional.empty();

    private Builder(DpMode mode) {
      this.mode = Objects.requireNonNull(mode, "mode");
    }

    /** The noise's standard deviation over the clipping norm, z (default 1). */
    public Builder noiseMultiplier(double z) {
      this.noiseMultiplier = z;
      return this;
    }

    /** The L2 clipping norm C, or the initial norm with adaptive clipping (default 1). */
    public Builder clip(double c) {
      this.clip = c;
      return this;
    }

    /** Adaptive clipping with {@code a}'s settings (default fixed clipping). */
    public Builder adaptive(Adaptive a) {
      this.adaptive = Optional.of(a);
      return this;
    }

    /** Adaptive clipping with Flower's defaults. */
    public Builder adaptive() {
      return adaptive(Adaptive.defaults());
    }

    /** The noise each client adds to its clipped update ({@link DpMode#CLIENT}; default 0). */
    public Builder localNoiseStddev(double s) {
      this.localNoiseStddev = s;
      return this;
    }

    /** The delta of the (epsilon, delta) guarantee (default 1e-5). */
    public Builder delta(double d) {
      this.delta = d;
      return this;
    }

    /**
     * Noise drawn from the run's seed, so that a run repeats bit for bit: for experiments only,
     * such a run has no privacy (default: a cryptographically secure generator).
     */
    public Builder insecureSeededNoise(boolean seeded) {
      this.insecureSeededNoise = seeded;
      return this;
    }

    /** The clipped updates summed by SecAgg+ ({@link DpMode#CLIENT} only; default in clear). */
    public Builder secure(Secure s) {
      this.secure = Optional.of(s);
      return this;
    }

    /**
     * The settings.
     *
     * @throws IllegalArgumentException naming the first value out of range
     */
    public DpSettings build() {
      return new DpSettings(mode, noiseMultiplier, clip, adaptive, localNoiseStddev, delta,
          insecureSeededNoise, secure);
    }
  }

  /** Flower's defaults: target quantile 0.5, learning rate 0.2. */
  public static final double DEFAULT_TARGET_QUANTILE = 0.5;
  /** Flower's default {@code clip_norm_lr}. */
  public static final double DEFAULT_CLIP_LR = 0.2;

  /**
   * Adaptive clipping's settings.
   *
   * @param targetQuantile {@code target_clipped_quantile}, in [0, 1]
   * @param clipLr {@code clip_norm_lr}, positive and finite
   * @param clippedCountStddev {@code clipped_count_stddev}, >= 0, or empty for Flower's default
   *     {@code num_sampled_clients / 20}
   */
  public record Adaptive(double targetQuantile, double clipLr, OptionalDouble clippedCountStddev) {
    /**
     * Checks the settings.
     *
     * @throws IllegalArgumentException naming the setting of the first out of range (as this record calls it)
     */
    public Adaptive {
      Objects.requireNonNull(clippedCountStddev, "clippedCountStddev");
      if (!(targetQuantile >= 0 && targetQuantile <= 1)) {
        throw new IllegalArgumentException("targetQuantile must be in [0, 1], got "
            + targetQuantile);
      }
      if (!(clipLr > 0) || Double.isInfinite(clipLr)) {
        throw new IllegalArgumentException("clipLr must be positive and finite, got "
            + clipLr);
      }
      if (clippedCountStddev.isPresent() && (!(clippedCountStddev.getAsDouble() >= 0)
          || Double.isInfinite(clippedCountStddev.getAsDouble()))) {
        throw new IllegalArgumentException("clippedCountStddev must be finite and >= 0, got "
            + clippedCountStddev.getAsDouble());
      }
    }

    /** Flower's defaults. */
    public static Adaptive defaults() {
      return new Adaptive(DEFAULT_TARGET_QUANTILE, DEFAULT_CLIP_LR, OptionalDouble.empty());
    }

    /** The count's noise for {@code numSampledClients} clients per round. */
    public double clippedCountStddev(int numSampledClients) {
      return clippedCountStddev.orElse(numSampledClients / 20.0);
    }
  }

  /**
   * Checks the settings.
   *
   * @throws IllegalArgumentException naming the setting of the first out of range (as this record calls it)
   */
  public DpSettings {
    Objects.requireNonNull(mode, "mode");
    Objects.requireNonNull(adaptive, "adaptive");
    if (!(noiseMultiplier > 0) || Double.isInfinite(noiseMultiplier)) {
      throw new IllegalArgumentException("noiseMultiplier must be positive and finite, got "
          + noiseMultiplier);
    }
    if (!(clip > 0) || Double.isInfinite(clip)) {
      throw new IllegalArgumentException("clip must be positive and finite, got " + clip);
    }
    if (!(localNoiseStddev >= 0) || Double.isInfinite(localNoiseStddev)) {
      throw new IllegalArgumentException("localNoiseStddev must be finite and >= 0, got "
          + localNoiseStddev);
    }
    if (localNoiseStddev > 0 && mode != DpMode.CLIENT) {
      throw new IllegalArgumentException("localNoiseStddev applies only to mode client");
    }
    if (!(delta > 0 && delta < 1)) {
      throw new IllegalArgumentException("delta must be in (0, 1), got " + delta);
    }
    Objects.requireNonNull(secure, "secure");
    if (secure.isPresent() && mode != DpMode.CLIENT) {
      throw new IllegalArgumentException("secure needs mode client: with mode "
          + "central the server clips the updates, so it must see each one");
    }
  }

  /**
   * Checks the settings against the clients per round: adaptive clipping needs {@code
   * clipped_count_stddev > noise_multiplier / 2}.
   *
   * @throws IllegalArgumentException naming {@code clippedCountStddev}
   */
  public void checkFor(int numSampledClients) {
    adaptive.ifPresent(a -> {
      double s = a.clippedCountStddev(numSampledClients);
      if (!(noiseMultiplier < 2 * s)) {
        throw new IllegalArgumentException("clippedCountStddev must be above "
            + "noiseMultiplier / 2 = " + noiseMultiplier / 2 + " for adaptive clipping, got "
            + s + (a.clippedCountStddev().isEmpty() ? " (the default, clients per round / 20)"
                : ""));
      }
    });
  }

  /**
   * The aggregator of these settings for {@code numSampledClients} clients per round; {@code
   * seed} seeds the noise only with {@link #insecureSeededNoise}.
   *
   * @throws IllegalArgumentException as {@link #checkFor}
   */
  public DpAggregator aggregator(int numSampledClients, long seed) {
    checkFor(numSampledClients);
    DpNoise noise = insecureSeededNoise ? DpNoise.seededForExperimentsOnlyNotPrivate(seed)
        : DpNoise.secure();
    Optional<AdaptiveClipping> a = adaptive.map(x -> new AdaptiveClipping(x.targetQuantile(),
        x.clipLr(), x.clippedCountStddev(numSampledClients)));
    DpAggregator aggregator = new DpAggregator(mode, noiseMultiplier, clip, numSampledClients, a,
        localNoiseStddev, noise);
    return secure.isPresent() ? aggregator.withSecureSum(secure.get().bits()) : aggregator;
  }

  /**
   * Refuses an {@code algorithm} that does not average the updates: DP replaces the mean, not a
   * robust rule such as a median.
   *
   * @throws io.tributary.learning.SettingException for the setting {@code dp}, naming the
   *     algorithm ({@code dp replaces the mean of the updates, ..., not krum})
   */
  public static void requireAveraging(io.tributary.learning.FederatedAlgorithm algorithm) {
    if (!algorithm.aggregator().weightedMean()) {
      throw new io.tributary.learning.SettingException("dp", "{dp} replaces the mean of the "
          + "updates, so it applies only to algorithms that average them, not "
          + algorithm.name());
    }
  }

  /**
   * {@code algorithm} with its mean replaced by these settings' DP mean, for clients that run
   * elsewhere (a server's): with client-side DP the clients clip, add their local noise and,
   * with adaptive clipping, report whether they were within the norm themselves, so the server's
   * aggregation adds no local noise and counts the clients' norm bits; the aggregator's {@link
   * Aggregator#clientClipping} says what the clients are told each round.
   *
   * @param numSampledClients the clients per round the noise is calibrated for
   * @param noiseSeed seeds the noise only with {@link #insecureSeededNoise}
   * @throws io.tributary.learning.SettingException for the setting {@code dp} when {@code
   *     algorithm} does not average the updates, as {@link #requireAveraging}
   * @throws IllegalArgumentException as {@link #checkFor}
   */
  public io.tributary.learning.FederatedAlgorithm forRemoteClients(
      io.tributary.learning.FederatedAlgorithm algorithm, int numSampledClients, long noiseSeed) {
    requireAveraging(algorithm);
    if (mode != DpMode.CLIENT) {
      return algorithm.withAggregator(aggregator(numSampledClients, noiseSeed));
    }
    // The clients add their local noise themselves: the server must not add it again.
    DpSettings served = localNoiseStddev > 0 ? new DpSettings(mode, noiseMultiplier, clip,
        adaptive, 0, delta, insecureSeededNoise, secure) : this;
    DpAggregator aggregator = served.aggregator(numSampledClients, noiseSeed);
    ClientClipping clients;
    if (adaptive.isPresent()) {
      // The server sees clipped updates only: the clients say whether they were within C, and
      // each round's C is the one the aggregator's state holds.
      aggregator = aggregator.withReportedNormBits();
      clients = new ClientClipping(clip, Optional.of(state -> state.tensor(
          DpAggregator.CLIP_NORM).item()), localNoiseStddev);
    } else {
      clients = new ClientClipping(clip, Optional.empty(), localNoiseStddev);
    }
    return algorithm.withAggregator(new RemoteClientsDp(aggregator, clients));
  }

  /**
   * The private aggregation of these settings through edges ({@link TieredDp}): the clients clip
   * to {@link #clip}, the edges sum (by SecAgg+ per edge with {@link #secure}), and the noise,
   * of multiplier {@link #noiseMultiplier}, is added at {@code noiseAt}; {@code seed} seeds the
   * noise only with {@link #insecureSeededNoise}.
   *
   * @throws IllegalArgumentException with adaptive clipping or local noise, which the edges do
   *     not take, or noise at the server with more than one edge round
   */
  public TieredDp tiered(TieredDp.NoiseAt noiseAt, int edgeRounds, long seed) {
    if (adaptive.isPresent()) {
      throw new IllegalArgumentException("--adaptive-clip does not apply through edges: use a "
          + "fixed --clip");
    }
    if (localNoiseStddev > 0) {
      throw new IllegalArgumentException("--local-noise-stddev does not apply through edges");
    }
    DpNoise noise = insecureSeededNoise ? DpNoise.seededForExperimentsOnlyNotPrivate(seed)
        : DpNoise.secure();
    return new TieredDp(noiseAt, noiseMultiplier, clip, edgeRounds, noise,
        secure.map(s -> java.util.OptionalInt.of(s.bits())).orElse(java.util.OptionalInt.empty()));
  }

  /**
   * The privacy spent after {@code rounds} rounds that each sample a fixed-size cohort, a
   * fraction {@code q} of the population, at this noise multiplier: the {@link RdpAccountant}'s
   * (epsilon, delta) at {@link #delta}. Adaptive clipping's count is covered, since the model's
   * noise is raised so that both together spend what z alone would.
   */
  public PrivacySpent spent(double q, long rounds) {
    RdpAccountant accountant = new RdpAccountant();
    accountant.compose(Sampling.FIXED_SIZE, q, noiseMultiplier, rounds);
    return accountant.epsilon(delta);
  }

  /** The settings' words on a command line, in a fixed order. */
  public List<String> commandLine() {
    List<String> c = new ArrayList<>(List.of("--dp", mode.cliName(), "--noise-multiplier",
        number(noiseMultiplier), "--clip", number(clip)));
    adaptive.ifPresent(a -> {
      c.addAll(List.of("--adaptive-clip", "--target-quantile", number(a.targetQuantile()),
          "--clip-lr", number(a.clipLr())));
      a.clippedCountStddev().ifPresent(s -> c.addAll(List.of("--clipped-count-stddev",
          number(s))));
    });
    if (localNoiseStddev > 0) {
      c.addAll(List.of("--local-noise-stddev", number(localNoiseStddev)));
    }
    c.addAll(List.of("--delta", number(delta)));
    if (insecureSeededNoise) {
      c.add("--insecure-seeded-noise");
    }
    secure.ifPresent(x -> c.addAll(List.of("--secure-aggregation", "--secagg-neighbours",
        Integer.toString(x.neighbours()), "--secagg-threshold", Integer.toString(x.threshold()),
        "--secagg-bits", Integer.toString(x.bits()))));
    return c;
  }

  /** The settings as named values, in {@code config.json}'s snake case and Flower's names. */
  public SequencedMap<String, String> describe() {
    SequencedMap<String, String> m = new LinkedHashMap<>();
    m.put("dp", mode.cliName());
    m.put("noise_multiplier", number(noiseMultiplier));
    m.put(adaptive.isPresent() ? "initial_clipping_norm" : "clipping_norm", number(clip));
    adaptive.ifPresent(a -> {
      m.put("target_clipped_quantile", number(a.targetQuantile()));
      m.put("clip_norm_lr", number(a.clipLr()));
      m.put("clipped_count_stddev", a.clippedCountStddev().isPresent()
          ? number(a.clippedCountStddev().getAsDouble()) : "default");
    });
    if (localNoiseStddev > 0) {
      m.put("local_noise_stddev", number(localNoiseStddev));
    }
    m.put("delta", number(delta));
    m.put("noise", insecureSeededNoise ? "insecure_seeded" : "secure");
    secure.ifPresent(x -> m.put("secure_aggregation", "secagg+ neighbours " + x.neighbours()
        + " threshold " + x.threshold() + " bits " + x.bits()));
    return m;
  }

  /**
   * The settings {@link #describe()} wrote: the inverse of it, for a run's recorded {@code
   * config.json}.
   *
   * @throws IllegalArgumentException naming the entry that is missing, unknown or not a value
   *     of its kind
   */
  public static DpSettings fromDescription(Map<String, String> d) {
    Set<String> known = Set.of("dp", "noise_multiplier", "clipping_norm", "initial_clipping_norm",
        "target_clipped_quantile", "clip_norm_lr", "clipped_count_stddev", "local_noise_stddev",
        "delta", "noise", "secure_aggregation");
    for (String k : new TreeSet<>(d.keySet())) {
      if (!known.contains(k)) {
        throw new IllegalArgumentException("unknown entry '" + k + "'");
      }
    }
    boolean adaptive = d.containsKey("initial_clipping_norm");
    Optional<Adaptive> a = Optional.empty();
    if (adaptive) {
      String stddev = entry(d, "clipped_count_stddev");
      a = Optional.of(new Adaptive(real(d, "target_clipped_quantile"), real(d, "clip_norm_lr"),
          stddev.equals("default") ? OptionalDouble.empty()
              : OptionalDouble.of(real(d, "clipped_count_stddev"))));
    }
    String noise = entry(d, "noise");
    if (!noise.equals("secure") && !noise.equals("insecure_seeded")) {
      throw new IllegalArgumentException("noise must be secure or insecure_seeded, got '"
          + noise + "'");
    }
    DpSettings s = new DpSettings(DpMode.parse(entry(d, "dp")), real(d, "noise_multiplier"),
        real(d, adaptive ? "initial_clipping_norm" : "clipping_norm"), a,
        d.containsKey("local_noise_stddev") ? real(d, "local_noise_stddev") : 0,
        real(d, "delta"), noise.equals("insecure_seeded"));
    if (d.containsKey("secure_aggregation")) {
      String[] w = d.get("secure_aggregation").split(" ");
      if (w.length != 7 || !w[0].equals("secagg+") || !w[1].equals("neighbours")
          || !w[3].equals("threshold") || !w[5].equals("bits")) {
        throw new IllegalArgumentException("secure_aggregation must read 'secagg+ neighbours K "
            + "threshold T bits B', got '" + d.get("secure_aggregation") + "'");
      }
      try {
        s = s.withSecure(new Secure(Integer.parseInt(w[2]), Integer.parseInt(w[4]),
            Integer.parseInt(w[6])));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("secure_aggregation: '" + d.get("secure_aggregation")
            + "' has a number that is not an integer", e);
      }
    }
    return s;
  }

  private static String entry(Map<String, String> d, String key) {
    String v = d.get(key);
    if (v == null) {
      throw new IllegalArgumentException("no entry '" + key + "'");
    }
    return v;
  }

  private static double real(Map<String, String> d, String key) {
    String v = entry(d, key);
    try {
      return Double.parseDouble(v);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(key + " must be a number, got '" + v + "'", e);
    }
  }

  /** A number as the shortest text that reads back to it. */
  static String number(double v) {
    return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v)
        : String.valueOf(v).toLowerCase(Locale.ROOT);
  }
}
