package io.tributary.flower;

import io.tributary.tensor.Tensor;
import java.util.List;
import java.util.Map;

/**
 * A fit instruction: train from these parameters with this configuration.
 *
 * @param parameters the global model, in the server's order
 * @param config the server's settings for this round, such as {@code local_epochs}
 */
public record FitIns(List<Tensor> parameters, Map<String, Scalar> config) {
  public FitIns {
    parameters = List.copyOf(parameters);
    config = Map.copyOf(config);
  }
}
