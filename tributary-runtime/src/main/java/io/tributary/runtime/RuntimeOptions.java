package io.tributary.runtime;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * How an {@link ExecutionContext} runs computations.
 *
 * <p>Build with {@link #defaults()} and the {@code with...} methods; every value is checked when
 * set.
 *
 * @param threads the size of the bounded pool that runs client work (at least 1)
 * @param clientTimeout how long one client's work may take before it counts as failed; empty for
 *     no limit (client work then runs on the pool threads directly, without a hand-off)
 * @param minSuccessFraction the fraction of clients that must succeed in each aggregation; 1.0
 *     (the default) makes any client failure fail the invocation with a
 *     {@link ClientFailureException}, anything lower excludes failed clients and reports them
 * @param seed the seed the invocation's randomness derives from (see {@link Seeds})
 * @param population the number of CLIENTS when no argument determines it, for example for
 *     {@code federated_value_at_clients} or {@code federated_eval_at_clients}
 * @param data the values that {@code Data} building blocks name by URI
 * @param maxWeight the largest weight a client may give {@code federated_weighted_mean} (such as
 *     a reported example count); positive infinity (the default) for no bound
 * @param overWeight what happens to a client whose weight is above {@code maxWeight}
 * @param secureSum how {@code federated_secure_sum} and {@code federated_secure_sum_bitwidth}
 *     are computed: empty (the default) adds the values in the clear, a
 *     {@link SecureSummation} runs a protocol (such as SecAgg+ from {@code tributary-privacy})
 * @param passEngine where the client passes run: empty (the default) on this context's threads,
 *     a {@link PassEngine} on a cluster such as Spark, with bit-identical results
 * @param edges which edge each client belongs to, for computations with values at {@code EDGES};
 *     empty (the default) for two-tier computations
 */
public record RuntimeOptions(
    int threads,
    Optional<Duration> clientTimeout,
    double minSuccessFraction,
    long seed,
    OptionalInt population,
    Map<String, Object> data,
    double maxWeight,
    WeightPolicy overWeight,
    Optional<SecureSummation> secureSum,
    Optional<PassEngine> passEngine,
    Optional<Edges> edges) {
  /** What {@code federated_weighted_mean} does with a client weight above {@link #maxWeight}. */
  public enum WeightPolicy {
    /** The weight counts as {@code maxWeight}. */
    CLIP,
    /** The client fails ({@link ClientFailure.Kind#BAD_VALUE}) and is excluded. */
    EXCLUDE
  }

  /** The most threads a pool may have; more than this is a configuration mistake. */
  public static final int MAX_THREADS = 4096;

  /**
   * Checks every option.
   *
   * @throws IllegalArgumentException naming the option out of range: {@code threads} outside
   *     {@code [1, MAX_THREADS]}, a timeout that is not positive, {@code minSuccessFraction}
   *     outside {@code (0, 1]}, a negative population, {@code maxWeight} not positive
   */
  public RuntimeOptions {
    if (threads < 1 || threads > MAX_THREADS) {
      throw new IllegalArgumentException(
          "threads must be 1 to " + MAX_THREADS + ", got " + threads);
    }
    Objects.requireNonNull(clientTimeout, "clientTimeout");
    clientTimeout.ifPresent(t -> {
      if (t.isNegative() || t.isZero()) {
        throw new IllegalArgumentException("the client timeout must be positive, got " + t);
      }
    });
    if (!(minSuccessFraction > 0.0 && minSuccessFraction <= 1.0)) {
      throw new IllegalArgumentException(
          "minSuccessFraction must be in (0, 1], got " + minSuccessFraction);
    }
    Objects.requireNonNull(population, "population");
    population.ifPresent(n -> {
      if (n < 0) {
        throw new IllegalArgumentException("a population cannot have " + n + " clients");
      }
    });
    data = Map.copyOf(data);
    if (!(maxWeight > 0.0)) {
      throw new IllegalArgumentException("maxWeight must be positive, got " + maxWeight);
    }
    Objects.requireNonNull(overWeight, "overWeight");
    Objects.requireNonNull(secureSum, "secureSum");
    Objects.requireNonNull(passEngine, "passEngine");
    Objects.requireNonNull(edges, "edges");
  }

  /** Options without edges, as before {@link #edges} existed. */
  public RuntimeOptions(int threads, Optional<Duration> clientTimeout, double minSuccessFraction,
      long seed, OptionalInt population, Map<String, Object> data, double maxWeight,
      WeightPolicy overWeight, Optional<SecureSummation> secureSum,
      Optional<PassEngine> passEngine) {
    this(threads, clientTimeout, minSuccessFraction, seed, population, data, maxWeight,
        overWeight, secureSum, passEngine, Optional.empty());
  }

  /** Options without a pass engine, as before {@link #passEngine} existed. */
  public RuntimeOptions(int threads, Optional<Duration> clientTimeout, double minSuccessFraction,
      long seed, OptionalInt population, Map<String, Object> data, double maxWeight,
      WeightPolicy overWeight, Optional<SecureSummation> secureSum) {
    this(threads, clientTimeout, minSuccessFraction, seed, population, data, maxWeight,
        overWeight, secureSum, Optional.empty());
  }

  /** A copy with every setting as given; the {@code with...} methods call it. */
  private RuntimeOptions copy(int threads, Optional<Duration> clientTimeout,
      double minSuccessFraction, long seed, OptionalInt population, Map<String, Object> data) {
    return new RuntimeOptions(threads, clientTimeout, minSuccessFraction, seed, population, data,
        maxWeight, overWeight, secureSum, passEngine, edges);
  }

  /**
   * One thread per available processor, no timeout, strict failures, seed 0, no weight bound.
   */
  public static RuntimeOptions defaults() {
    return new RuntimeOptions(Runtime.getRuntime().availableProcessors(), Optional.empty(), 1.0,
        0L, OptionalInt.empty(), Map.of(), Double.POSITIVE_INFINITY, WeightPolicy.CLIP,
        Optional.empty());
  }

  /**
   * Runs client work on a pool of {@code n} threads; the results do not depend on it.
   *
   * @throws IllegalArgumentException when {@code n} is not in {@code [1, MAX_THREADS]}
   */
  public RuntimeOptions withThreads(int n) {
    return copy(n, clientTimeout, minSuccessFraction, seed, population, data);
  }

  /**
   * Counts a client whose work takes longer than {@code timeout} as failed (a {@link
   * ClientFailure.Kind#TIMED_OUT}); client work then runs on threads of its own, handed off from
   * the pool.
   *
   * @throws IllegalArgumentException when {@code timeout} is zero or negative
   */
  public RuntimeOptions withClientTimeout(Duration timeout) {
    return copy(threads, Optional.of(timeout), minSuccessFraction, seed, population,
        data);
  }

  /**
   * Tolerates client failures as long as at least {@code fraction} of each aggregation's clients
   * succeed; the failed ones are left out and reported. 1 (the default) fails the invocation on
   * any client failure.
   *
   * @throws IllegalArgumentException when {@code fraction} is not in {@code (0, 1]}
   */
  public RuntimeOptions withMinSuccessFraction(double fraction) {
    return copy(threads, clientTimeout, fraction, seed, population, data);
  }

  /**
   * Derives the invocation's randomness (noise and sampling inside computations) from {@code s};
   * the same seed gives the same bits on any thread count (see {@link Seeds}).
   */
  public RuntimeOptions withSeed(long s) {
    return copy(threads, clientTimeout, minSuccessFraction, s, population, data);
  }

  /**
   * Sets the number of CLIENTS for computations whose arguments do not determine it ({@code
   * federated_value_at_clients}, {@code federated_eval_at_clients}).
   *
   * @throws IllegalArgumentException when {@code clients} is negative
   */
  public RuntimeOptions withPopulation(int clients) {
    return copy(threads, clientTimeout, minSuccessFraction, seed,
        OptionalInt.of(clients), data);
  }

  /**
   * Binds the URIs that {@code Data} building blocks name to {@code values} (copied), replacing
   * any bound before.
   */
  public RuntimeOptions withData(Map<String, Object> values) {
    return copy(threads, clientTimeout, minSuccessFraction, seed, population,
        values);
  }

  /**
   * Bounds the weights of {@code federated_weighted_mean}: a client whose weight is above
   * {@code max} is clipped to it or excluded, as {@code policy} says.
   */
  public RuntimeOptions withMaxWeight(double max, WeightPolicy policy) {
    return new RuntimeOptions(threads, clientTimeout, minSuccessFraction, seed, population, data,
        max, policy, secureSum, passEngine, edges);
  }

  /**
   * Computes the secure sums with {@code summation} (for example SecAgg+ among simulated
   * clients) instead of adding the values in the clear.
   */
  public RuntimeOptions withSecureSum(SecureSummation summation) {
    return new RuntimeOptions(threads, clientTimeout, minSuccessFraction, seed, population, data,
        maxWeight, overWeight, Optional.of(summation), passEngine, edges);
  }

  /**
   * Runs the client passes on {@code engine} (a cluster) instead of this context's threads. The
   * results are bit-identical to a local run, provided the engine's workers replay with options
   * equal to these in everything but the engine (seed, failure tolerance, weights, data).
   */
  public RuntimeOptions withPassEngine(PassEngine engine) {
    return new RuntimeOptions(threads, clientTimeout, minSuccessFraction, seed, population, data,
        maxWeight, overWeight, secureSum, Optional.of(engine), edges);
  }

  /** A copy that runs passes locally, as a worker's replay does. */
  public RuntimeOptions withoutPassEngine() {
    return new RuntimeOptions(threads, clientTimeout, minSuccessFraction, seed, population, data,
        maxWeight, overWeight, secureSum, Optional.empty(), edges);
  }

  /**
   * Groups the population's clients into edges for the {@code EDGES} placement: each client's
   * edge, for aggregations to the edges and broadcasts from them. The edges must cover exactly
   * the population's clients.
   */
  public RuntimeOptions withEdges(Edges assignment) {
    return new RuntimeOptions(threads, clientTimeout, minSuccessFraction, seed, population, data,
        maxWeight, overWeight, secureSum, passEngine, Optional.of(assignment));
  }

  /** True when client failures are tolerated (a fraction below 1). */
  public boolean toleratesFailures() {
    return minSuccessFraction < 1.0;
  }
}
