package io.tributary.runtime.executor.internal.aggregation;

import io.tributary.runtime.executor.internal.federated.ClientNode;
import io.tributary.runtime.executor.internal.local.LocalFunctionFailure;
import io.tributary.runtime.executor.internal.pass.PassCodec;
import java.util.List;

/**
 * One aggregation's part in a client pass: how a client's values are folded into a partial
 * result for a group of consecutive clients, and how the groups' partials are combined.
 *
 * <p>A client's contribution is applied in two steps, {@link #prepare} then {@link #commit}, so
 * that a client failing in any of a pass's aggregations is excluded from all of them.
 */
public interface Sink {
  /** The URI of the aggregation, for failure reports. */
  String intrinsic();

  /** The client values one client contributes, in the order {@link #prepare} receives them. */
  List<ClientNode> inputs();

  /** An empty partial result for a group of clients. */
  Object newPartial();

  /**
   * Checks a client's values and computes what {@link #commit} will apply.
   *
   * @throws IllegalArgumentException when a value does not fit (the client returned a bad value)
   * @throws LocalFunctionFailure when an aggregation function fails on the value
   */
  Object prepare(Object partial, Object[] values);

  /**
   * Whether {@link #prepare} reads what the partial holds (a fold's running value): then each
   * client must be committed before the next one is prepared, and a pass does not batch commits.
   */
  default boolean preparesFromPartial() {
    return false;
  }

  /**
   * Whether the sink may read a client's values after {@link #commit}ting them (keeps them, as a
   * collection or a gathered secure sum does): true unless it only adds them into its partial.
   * When no sink of a pass keeps values, the pass discards each client's values once they are
   * committed, so that a delta whose elements would be made on first read is never made.
   */
  default boolean keepsValues() {
    return true;
  }

  /** Applies a prepared contribution; cannot fail. */
  void commit(Object partial, Object prepared);

  /** Applies several prepared contributions in order; a sink may fold them in one sweep. */
  default void commitAll(Object partial, java.util.List<Object> prepared) {
    for (Object p : prepared) {
      commit(partial, p);
    }
  }

  /**
   * Combines two neighbouring partials, {@code left} covering the groups just before
   * {@code right}'s, as the pass's {@link io.tributary.runtime.ReductionTree} says; may update
   * and return {@code left}.
   */
  Object combine(Object total, Object partial);

  /**
   * Hands back a partial of {@link #newPartial} that {@link #combine} took in as its
   * {@code partial} and did not return: nothing reads it any more, so the sink may reuse its
   * storage for a later {@link #newPartial}. Sinks that keep nothing ignore it.
   */
  default void release(Object partial) {}

  /** The aggregation's value from the total of every group ({@code null} when there was none). */
  Object result(Object total);

  /**
   * Writes a partial (of {@link #newPartial} or {@link #combine}) for a pass engine, exactly:
   * the partial {@link #readPartial} makes of it combines to the same bits.
   *
   * @throws io.tributary.runtime.PassEngineException when this kind of partial cannot travel
   */
  void writePartial(Object partial, PassCodec.Out out);

  /**
   * Reads a partial {@link #writePartial} wrote, checking it against this sink's member type.
   *
   * @throws io.tributary.runtime.PassEngineException when the bytes are malformed
   */
  Object readPartial(PassCodec.In in);
}
