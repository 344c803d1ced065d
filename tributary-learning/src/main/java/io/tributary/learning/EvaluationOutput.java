package io.tributary.learning;

import io.tributary.core.values.StructValue;

/**
 * What one call of a {@link LearningProcess}'s {@code evaluate} returned, typed: {@code
 * <loss=float32,accuracy=float32,num_examples=int64>}.
 *
 * <p>{@link #of} converts the value that {@code ExecutionContext.invoke(process.evaluate(),
 * model, clientData)} returns; the numbers are the tensors' own.
 *
 * @param loss the example-weighted mean loss over the clients' data
 * @param accuracy the example-weighted mean accuracy
 * @param numExamples the examples scored
 */
public record EvaluationOutput(float loss, float accuracy, long numExamples) {
  /**
   * Converts the value returned by running {@code evaluate}.
   *
   * @throws IllegalArgumentException if {@code value} is not a struct with those elements
   * @throws IllegalStateException if an element is not a one-element tensor of the right kind
   */
  public static EvaluationOutput of(Object value) {
    if (!(value instanceof StructValue s)) {
      throw new IllegalArgumentException("the result of evaluate is a struct "
          + "<loss,accuracy,num_examples>, not " + (value == null ? "null" : "a "
          + value.getClass().getSimpleName()));
    }
    return new EvaluationOutput(s.tensor("loss").floatItem(), s.tensor("accuracy").floatItem(),
        s.tensor("num_examples").longItem());
  }
}
