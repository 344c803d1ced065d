package io.tributary.learning.aggregation;

import io.tributary.core.computation.Computation;
import io.tributary.core.types.FederatedType;
import io.tributary.core.types.Placement;
import io.tributary.core.types.StructType;
import io.tributary.core.types.TensorType;
import io.tributary.core.types.Type;
import io.tributary.tensor.DType;
import java.util.Objects;
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
 * <p>An aggregation that needs each client's training loss as well (q-FedAvg) takes the losses
 * {@code {float32}@CLIENTS} as a last parameter, after the example counts; one that needs each
 * client's own report of whether its update was within the clipping norm (client-side adaptive
 * clipping on a server, which sees only clipped updates) takes those bits {@code
 * {int64}@CLIENTS} there instead, which the client update's {@code norm_bit} supplies.
 *
 * @param initialize the first state, for a stateful aggregator
 * @param next one round's aggregation
 */
public record AggregationProcess(Optional<Computation> initialize, Computation next) {
  private static final Type WEIGHTS =
      new FederatedType(TensorType.of(DType.INT64), Placement.CLIENTS, false);
  private static final Type LOSSES =
      new FederatedType(TensorType.of(DType.FLOAT32), Placement.CLIENTS, false);
  private static final Type NORM_BITS = WEIGHTS;

  /**
   * Checks the two computations against each other.
   *
   * @throws IllegalArgumentException naming the type that does not have the shape above
   */
  public AggregationProcess {
    Objects.requireNonNull(initialize, "initialize");
    Objects.requireNonNull(next, "next");
    int base = initialize.isPresent() ? 3 : 2;
    if (!(next.type().parameter().orElse(null) instanceof StructType p)
        || p.size() != base && !(p.size() == base + 1
            && (p.get(base).equals(LOSSES) || p.get(base).equals(NORM_BITS)))) {
      throw new IllegalArgumentException("an aggregation's next takes " + (initialize.isPresent()
          ? "<A@SERVER,{M}@CLIENTS,{int64}@CLIENTS>" : "<{M}@CLIENTS,{int64}@CLIENTS>")
          + ", not " + next.type());
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

  /** Whether {@code next} takes the clients' losses as its last parameter. */
  public boolean takesLosses() {
    return extra().equals(LOSSES);
  }

  /** Whether {@code next} takes the clients' norm bits as its last parameter. */
  public boolean takesNormBits() {
    return extra().equals(NORM_BITS);
  }

  /** The type of the parameter after the example counts, or the example counts' when none. */
  private Type extra() {
    StructType p = (StructType) next.type().parameter().get();
    int base = initialize.isPresent() ? 3 : 2;
    return p.size() == base + 1 ? p.get(base) : NO_EXTRA;
  }

  /** Stands for "no parameter after the example counts": no aggregation takes a bool@SERVER. */
  private static final Type NO_EXTRA = new FederatedType(TensorType.of(DType.BOOL),
      Placement.SERVER, true);

  /** A stateless aggregation. */
  public static AggregationProcess stateless(Computation next) {
    return new AggregationProcess(Optional.empty(), next);
  }

  /** A stateful aggregation. */
  public static AggregationProcess stateful(Computation initialize, Computation next) {
    return new AggregationProcess(Optional.of(initialize), next);
  }
}
