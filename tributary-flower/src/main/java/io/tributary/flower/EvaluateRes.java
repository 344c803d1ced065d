package io.tributary.flower;

import java.util.Map;

/**
 * The result of an evaluation.
 *
 * @param loss the loss, sent as a 32-bit float as Flower's message has it
 * @param numExamples the number of examples evaluated, the weight when the server averages
 * @param metrics anything else to report, such as {@code accuracy}
 */
public record EvaluateRes(float loss, long numExamples, Map<String, Scalar> metrics) {
  public EvaluateRes {
    metrics = Map.copyOf(metrics);
    if (numExamples < 0) {
      throw new IllegalArgumentException("numExamples must be >= 0, got " + numExamples);
    }
  }
}
