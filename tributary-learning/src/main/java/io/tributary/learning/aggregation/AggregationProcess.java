package io.tributary.learning.aggregation;

import io.tributary.core.computation.Computation;
import io.tributary.core.computation.Value;
import io.tributary.core.types.FederatedType;
import io.tributary.core.types.Placement;
import io.tributary.core.types.StructType;
import io.tributary.core.types.TensorType;
import io.tributary.core.types.Type;
import io.tributary.tensor.DType;
import java.util.Objects;
import java.util.function.BinaryOperator;
import java.util.Optional;

/**
 * An aggregator's federated computations for one update type M.
 *
 * <ul>
 *   <li>Without state: {@code next} has type {@code (<{M}@CLIENTS,{int64}@CLIENTS> -> M@SERVER)}:
 *       the updates and the clients' example counts give the aggregated update.
 *   <li>With state A: {@code initialize} has type {@code ( -> A@SERVER)} and {@code next} has type
 *       {@code (<A@SERVER,{M}@CLIENTS,{int64}@CLIENTS> -> <A@SERVER,M@SERVER>)}.
 * </ul>
 *
 * <p>An aggregation that needs one more signal from each client declares it ({@link
 * ClientSignal}): q-FedAvg the clients' training losses {@code {float32}@CLIENTS}, client-side
 * adaptive clipping on a server (which sees only clipped updates) each client's report of whether
 * its update was within the clipping norm, {@code {int64}@CLIENTS}. It takes the signal as a last
 * parameter, after the example counts, and {@code next} supplies it from the client update.
 *
 * @param initialize the first state, for a stateful aggregator
 * @param next one round's aggregation
 * @param signal the client signal it takes after the example counts, if any
 * @param inline for a stateless aggregation without a signal whose {@code next} is one traced
 *     expression of the updates and the counts (a weighted mean is {@code
 *     federated_weighted_mean}), that expression, which the round then holds in place of a call
 *     of {@code next} (the same values, and a round computation that reads as the expression);
 *     empty otherwise
 */
public record AggregationProcess(Optional<Computation> initialize, Computation next,
    Optional<ClientSignal> signal, Optional<BinaryOperator<Value>> inline) {
  private static final Type WEIGHTS =
      new FederatedType(TensorType.of(DType.INT64), Placement.CLIENTS, false);

  /**
   * Checks the two computations against each other.
   *
   * @throws IllegalArgumentException naming the type that does not have the shape above
   */
  public AggregationProcess {
    Objects.requireNonNull(initialize, "initialize");
    Objects.requireNonNull(next, "next");
    Objects.requireNonNull(signal, "signal");
    Objects.requireNonNull(inline, "inline");
    if (signal.equals(Optional.of(ClientSignal.WEIGHT))) {
      throw new IllegalArgumentException("the example counts are every aggregation's weights, "
          + "not an extra signal: declare LOSS or NORM_BIT, or none");
    }
    if (inline.isPresent() && (initialize.isPresent() || signal.isPresent())) {
      throw new IllegalArgumentException("only a stateless aggregation without a client signal "
          + "is inlined");
    }
    int base = initialize.isPresent() ? 3 : 2;
    if (!(next.type().parameter().orElse(null) instanceof StructType p)
        || p.size() != base + (signal.isPresent() ? 1 : 0)
        || signal.isPresent() && !p.get(base).equals(signal.get().type())) {
      throw new IllegalArgumentException("an aggregation's next takes " + (initialize.isPresent()
          ? "<A@SERVER,{M}@CLIENTS,{int64}@CLIENTS" : "<{M}@CLIENTS,{int64}@CLIENTS")
          + signal.map(x -> "," + x.type()).orElse("") + ">, not " + next.type());
    }
    int u = base - 2;
    Type m = p.get(u) instanceof FederatedType f && f.placement() == Placement.CLIENTS
        ? f.member() : null;
    if (m == null || !p.get(u + 1).equals(WEIGHTS)) {
      throw new IllegalArgumentException("an aggregation's next takes the updates {M}@CLIENTS "
          + "and the example counts {int64}@CLIENTS, not " + next.type());
    }
    Type result = new FederatedType(m, Placement.SERVER, true);
    if (initialize.isPresent()) {
      Type state = initialize.get().type().result();
      if (!initialize.get().type().parameter().isEmpty() || !p.get(0).equals(state)
          || !next.type().result().equals(StructType.of(state, result))) {
        throw new IllegalArgumentException("a stateful aggregation has initialize ( -> A@SERVER) "
            + "and next (<A@SERVER,{M}@CLIENTS,{int64}@CLIENTS> -> <A@SERVER,M@SERVER>), not "
            + initialize.get().type() + " and " + next.type());
      }
    } else if (!next.type().result().equals(result)) {
      throw new IllegalArgumentException("an aggregation's next returns " + result + ", not "
          + next.type().result());
    }
  }

  /** An aggregation without an inline form. */
  public AggregationProcess(Optional<Computation> initialize, Computation next,
      Optional<ClientSignal> signal) {
    this(initialize, next, signal, Optional.empty());
  }

  /**
   * This stateless aggregation, held in a round as {@code expression} of the updates and the
   * example counts instead of a call of {@code next}; the expression must compute what {@code
   * next} computes.
   *
   * @throws IllegalArgumentException when the aggregation keeps state or takes a client signal
   */
  public AggregationProcess inlined(BinaryOperator<Value> expression) {
    return new AggregationProcess(initialize, next, signal,
        Optional.of(Objects.requireNonNull(expression, "expression")));
  }

  /**
   * One round's aggregate of {@code updates} weighted by {@code counts}, traced inside the round
   * computation: the inline expression when there is one, else a call of {@code next} (for a
   * stateless aggregation without a signal).
   */
  public Value aggregate(Value updates, Value counts) {
    return inline.isPresent() ? inline.get().apply(updates, counts) : next.call(updates, counts);
  }

  /**
   * Every signal a round with this aggregation reads from each client: the example count and
   * the loss, and the aggregation's own signal.
   */
  public ClientSignals clientSignals() {
    return signal.map(ClientSignals.DEFAULT::with).orElse(ClientSignals.DEFAULT);
  }

  /** Whether {@code next} takes the clients' losses ({@link ClientSignal#LOSS}). */
  public boolean takesLosses() {
    return signal.equals(Optional.of(ClientSignal.LOSS));
  }

  /** Whether {@code next} takes the clients' norm bits ({@link ClientSignal#NORM_BIT}). */
  public boolean takesNormBits() {
    return signal.equals(Optional.of(ClientSignal.NORM_BIT));
  }

  /** A stateless aggregation of the updates and example counts. */
  public static AggregationProcess stateless(Computation next) {
    return new AggregationProcess(Optional.empty(), next, Optional.empty());
  }

  /** A stateless aggregation that takes {@code signal} after the example counts. */
  public static AggregationProcess stateless(Computation next, ClientSignal signal) {
    return new AggregationProcess(Optional.empty(), next, Optional.of(signal));
  }

  /** A stateful aggregation of the updates and example counts. */
  public static AggregationProcess stateful(Computation initialize, Computation next) {
    return new AggregationProcess(Optional.of(initialize), next, Optional.empty());
  }

  /** A stateful aggregation that takes {@code signal} after the example counts. */
  public static AggregationProcess stateful(Computation initialize, Computation next,
      ClientSignal signal) {
    return new AggregationProcess(Optional.of(initialize), next, Optional.of(signal));
  }
}
