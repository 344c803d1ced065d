package io.tributary.flower;

import java.time.Duration;
import java.util.Objects;
import java.util.SplittableRandom;

/**
 * How a {@link FlowerClientRunner} waits between attempts to reach a server that is unavailable
 * or went away: exponential growth from {@code initialDelay} by {@code multiplier} up to
 * {@code maxDelay}, each delay scaled by a random factor in [1 - jitter, 1 + jitter] drawn from a
 * generator seeded with {@code seed}, so that many clients restarted together do not retry in
 * step, while one seed always gives the same delays.
 *
 * @param initialDelay the wait before the first retry, positive
 * @param maxDelay the longest wait, at least {@code initialDelay}
 * @param multiplier the growth per failed attempt, at least 1
 * @param jitter the relative spread of each wait, in [0, 1)
 * @param maxAttempts consecutive failed attempts after which the runner gives up, at least 1;
 *     a connection on which the server spoke resets the count
 * @param seed the seed of the jitter
 */
public record Backoff(Duration initialDelay, Duration maxDelay, double multiplier, double jitter,
    int maxAttempts, long seed) {
  /** 1 s doubling to 30 s, 20 % jitter, 10 attempts (about 3 minutes), seed 0. */
  public static final Backoff DEFAULT =
      new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(30), 2.0, 0.2, 10, 0);

  public Backoff {
    Objects.requireNonNull(initialDelay, "initialDelay");
    Objects.requireNonNull(maxDelay, "maxDelay");
    if (initialDelay.isNegative() || initialDelay.isZero()) {
      throw new IllegalArgumentException("initial delay must be positive, got " + initialDelay);
    }
    if (maxDelay.compareTo(initialDelay) < 0) {
      throw new IllegalArgumentException("max delay " + maxDelay + " is below the initial delay "
          + initialDelay);
    }
    if (!(multiplier >= 1) || !Double.isFinite(multiplier)) {
      throw new IllegalArgumentException("multiplier must be finite and >= 1, got " + multiplier);
    }
    if (!(jitter >= 0 && jitter < 1)) {
      throw new IllegalArgumentException("jitter must be in [0, 1), got " + jitter);
    }
    if (maxAttempts < 1) {
      throw new IllegalArgumentException("max attempts must be >= 1, got " + maxAttempts);
    }
  }

  /** This backoff giving up after {@code attempts} consecutive failures. */
  public Backoff withMaxAttempts(int attempts) {
    return new Backoff(initialDelay, maxDelay, multiplier, jitter, attempts, seed);
  }

  /** This backoff with other delays. */
  public Backoff withDelays(Duration initial, Duration max) {
    return new Backoff(initial, max, multiplier, jitter, maxAttempts, seed);
  }

  /** This backoff with another jitter seed. */
  public Backoff withSeed(long newSeed) {
    return new Backoff(initialDelay, maxDelay, multiplier, jitter, maxAttempts, newSeed);
  }

  /** A fresh jitter generator for one runner. */
  public SplittableRandom newRandom() {
    return new SplittableRandom(seed);
  }

  /**
   * The wait after failed attempt {@code attempt} (from 1).
   *
   * @param random the runner's jitter generator
   */
  public Duration delay(int attempt, SplittableRandom random) {
    if (attempt < 1) {
      throw new IllegalArgumentException("attempts count from 1, got " + attempt);
    }
    double max = maxDelay.toNanos();
    double base = Math.min(max, initialDelay.toNanos() * Math.pow(multiplier, attempt - 1));
    double factor = 1 + jitter * (2 * random.nextDouble() - 1);
    return Duration.ofNanos((long) Math.min(max, base * factor));
  }
}
