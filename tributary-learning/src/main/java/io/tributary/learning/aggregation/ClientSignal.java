package io.tributary.learning.aggregation;

import io.tributary.core.types.FederatedType;
import io.tributary.core.types.Placement;
import io.tributary.core.types.TensorType;
import io.tributary.core.types.Type;
import io.tributary.tensor.DType;

/**
 * What a round needs from each client besides its update: its example count, which every
 * aggregation takes as its weights, its training loss, which the round's {@code train_loss}
 * reads, and what an aggregator declares beyond those ({@link AggregationProcess#signal}),
 * supplied by {@code next} from the client update's result. A binding whose clients are remote
 * reads the set ({@link ClientSignals}) to know what each client's result must carry.
 */
public enum ClientSignal {
  /**
   * The client's example count, {@code {int64}@CLIENTS}: every aggregation's weights, so never
   * an aggregation's extra signal.
   */
  WEIGHT("num_examples", DType.INT64),
  /**
   * The client's training loss, {@code {float32}@CLIENTS}: the round's {@code train_loss}, and
   * q-FedAvg's fairness weights when it declares it.
   */
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

  /**
   * The element of the client update's result that supplies it ({@code num_examples}, {@code
   * loss}, {@code norm_bit}).
   */
  public String field() {
    return field;
  }

  /** The type of one client's value, the element of the client update's result. */
  public TensorType valueType() {
    return TensorType.of(dtype);
  }

  /** The type of the aggregation's parameter that takes it. */
  public Type type() {
    return new FederatedType(valueType(), Placement.CLIENTS, false);
  }
}
