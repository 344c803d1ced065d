package io.tributary.learning;

/**
 * How one metric that clients report (a Flower client's FitRes or EvaluateRes metric such as
 * {@code accuracy}, an element of a simulation's client evaluation) becomes the round's figure,
 * as Flower's {@code fit_metrics_aggregation_fn} and {@code evaluate_metrics_aggregation_fn} do.
 * Only the clients whose result the round used take part. In a federated computation each is an
 * intrinsic ({@link FederatedLearning#evaluate(io.tributary.core.computation.Computation,
 * java.util.Map)}); {@link #aggregate} is the same arithmetic on numbers.
 */
public enum MetricAggregation {
  /** The mean weighted by each client's {@code num_examples} (the default). */
  WEIGHTED_MEAN,
  /** The plain mean, every client counting once. */
  MEAN,
  /** The sum. */
  SUM,
  /** The smallest value. */
  MIN,
  /** The largest value. */
  MAX;

  /**
   * The aggregate of {@code values}, client i's reported with {@code examples[i]} examples;
   * NaN when there are none (or, for the weighted mean, when every weight is 0).
   */
  public double aggregate(double[] values, long[] examples) {
    if (values.length == 0) {
      return Double.NaN;
    }
    double acc = switch (this) {
      case MIN -> Double.POSITIVE_INFINITY;
      case MAX -> Double.NEGATIVE_INFINITY;
      default -> 0;
    };
    double weight = 0;
    for (int i = 0; i < values.length; i++) {
      double w = this == WEIGHTED_MEAN ? examples[i] : 1;
      acc = switch (this) {
        case MIN -> Math.min(acc, values[i]);
        case MAX -> Math.max(acc, values[i]);
        default -> acc + w * values[i];
      };
      weight += w;
    }
    return switch (this) {
      case WEIGHTED_MEAN, MEAN -> weight == 0 ? Double.NaN : acc / weight;
      case SUM, MIN, MAX -> acc;
    };
  }
}
