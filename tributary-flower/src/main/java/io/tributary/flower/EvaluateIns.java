package io.tributary.flower;

import io.tributary.tensor.Tensor;
import java.util.List;
import java.util.Map;

/**
 * An evaluate instruction: score these parameters on the client's data.
 *
 * @param parameters the model to evaluate, in the server's order
 * @param config the server's settings for this evaluation
 */
public record EvaluateIns(List<Tensor> parameters, Map<String, Scalar> config) {
  public EvaluateIns {
    parameters = List.copyOf(parameters);
    config = Map.copyOf(config);
  }
}
