package io.tributary.flower;

import io.tributary.tensor.Tensor;
import java.util.List;
import java.util.Map;

/**
 * The result of a fit: the locally trained parameters and how many examples produced them.
 *
 * @param parameters the new parameters, in the order of the ones received
 * @param numExamples the number of training examples, the weight in FedAvg's average
 * @param metrics anything else to report, such as {@code loss}
 */
public record FitRes(List<Tensor> parameters, long numExamples, Map<String, Scalar> metrics) {
  public FitRes {
    parameters = List.copyOf(parameters);
    metrics = Map.copyOf(metrics);
    if (numExamples < 0) {
      throw new IllegalArgumentException("numExamples must be >= 0, got " + numExamples);
    }
  }
}
