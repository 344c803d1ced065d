package io.tributary.simulation;

/**
 * How a simulation derives its independent random streams from its one seed, so that, for
 * example, changing the number of rounds leaves the initial model and each round's clients
 * unchanged, and so that code that assembles a run from the public pieces gets the numbers
 * {@code tributary simulate} gets.
 *
 * <p>The streams of a run with seed {@code s}:
 *
 * <ul>
 *   <li>the data split, the partition and synthetic data: {@code s} itself;
 *   <li>the initial model: {@link #model model(s)} = {@code derive(s, 1)};
 *   <li>the clients of every round: {@link #sampler sampler(s)} = {@code derive(s, 2)}, given to
 *       {@code ClientSampler}, which draws round {@code r} from it;
 *   <li>client {@code k}'s local shuffling in round {@code r}: {@link #shuffle shuffle(s, r, k)} =
 *       {@code derive(derive(s, 2^32 + r), k)};
 *   <li>which clients of round {@code r} are Byzantine, and their noise: {@link #byzantine
 *       byzantine(s, r)} = {@code derive(s, 2^33 + r)} (see {@link Byzantine});
 *   <li>the runtime's own seed (noise and sampling inside computations): {@code s}.
 * </ul>
 *
 * <p>{@link #derive} is SplitMix64's finaliser applied to {@code seed + golden * (stream + 1)}:
 * well mixed, cheap, and the same on every JVM.
 */
public final class Seeds {
  /** The stream of the initial model. */
  public static final long MODEL = 1;
  /** The stream of client sampling. */
  public static final long SAMPLER = 2;
  /** Local shuffling: round r uses stream {@code SHUFFLE + r}, then the client index. */
  public static final long SHUFFLE = 1L << 32;
  /** Byzantine clients: round r uses stream {@code BYZANTINE + r}. */
  public static final long BYZANTINE = 2L << 32;
  /** The stream of {@code --insecure-seeded-noise}'s differential-privacy noise. */
  public static final long DP_NOISE = 3;
  /** The public seed of SecAgg+'s communication graph ({@code --secure-aggregation}). */
  public static final long SECAGG_GRAPH = 4;

  private Seeds() {}

  /** A well-mixed seed for stream {@code stream} of {@code seed} (SplitMix64's finaliser). */
  public static long derive(long seed, long stream) {
    long z = seed + 0x9E3779B97F4A7C15L * (stream + 1);
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  /** The seed of the initial model's parameters. */
  public static long model(long seed) {
    return derive(seed, MODEL);
  }

  /** The seed of the client sampler, which draws every round's clients. */
  public static long sampler(long seed) {
    return derive(seed, SAMPLER);
  }

  /**
   * The seed of the differential-privacy noise when {@code --insecure-seeded-noise} asks for it
   * (experiments only: such noise gives no privacy).
   */
  public static long dpNoise(long seed) {
    return derive(seed, DP_NOISE);
  }

  /**
   * The public seed SecAgg+'s communication graph derives from; the keys and masks stay secret,
   * drawn from a secure generator.
   */
  public static long secAggGraph(long seed) {
    return derive(seed, SECAGG_GRAPH);
  }

  /** The seed of client {@code client}'s local shuffling in round {@code round} (from 1). */
  public static long shuffle(long seed, int round, int client) {
    return derive(derive(seed, SHUFFLE + round), client);
  }

  /**
   * The seed of round {@code round}'s (from 1) choice of Byzantine clients; the noise of cohort
   * position p is drawn from {@code derive(byzantine(seed, round), p)}.
   */
  public static long byzantine(long seed, int round) {
    return derive(seed, BYZANTINE + round);
  }
}
