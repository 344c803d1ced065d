package io.tributary.learning.aggregation;

import io.tributary.core.types.FederatedType;
import io.tributary.core.types.Placement;
import io.tributary.core.types.TensorType;
import io.tributary.core.types.Type;
import io.tributary.tensor.DType;

/**
 * What an aggregator needs from each client besides its update and example count, declared by
 * the aggregator ({@link AggregationProcess#signal}) and supplied by {@code next} from the client
 * update's result: the round's client work reports each, the aggregator says which it takes.
 */
public enum ClientSignal {
  /** The client's training loss, {@code {float32}@CLIENTS} (q-FedAvg's fairness weights). */
  LOSS("loss", DType.FLOAT32),
  /**
   * Whether the client's update was within the clipping norm before it clipped, {@code
   * {int64}@CLIENTS} (client-side adaptive clipping on a server that sees only clipped updates).
   */
  NORM_BIT("norm_bit", DType.INT64);

  private final String field;
  private final DType dtype;

  ClientSignal(String field, DType dtype) {
    this.field = field;
    this.dtype = dtype;
  }

  /** The element of the client update's result that supplies it ({@code loss}, {@code norm_bit}). */
  public String field() {
    return field;
  }

  /** The type of the aggregation's parameter that takes it. */
  public Type type() {
    return new FederatedType(TensorType.of(dtype), Placement.CLIENTS, false);
  }
}
