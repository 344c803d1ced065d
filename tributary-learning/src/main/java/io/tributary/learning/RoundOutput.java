package io.tributary.learning;

import io.tributary.core.values.StructValue;
import io.tributary.tensor.Tensor;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Objects;
import java.util.SequencedMap;
import java.util.Set;

/**
 * What one call of a {@link LearningProcess}'s {@code next} returned, typed: the new server
 * state and the round's metrics, in place of the positional {@code <S,R>} struct.
 *
 * <p>{@link #of} converts the value that {@code ExecutionContext.invoke(process.next(), state,
 * clientData)} returns; the numbers are the tensors' own (a float32 loss stays a float).
 *
 * @param state the new server state {@code <model=M>}, to pass to the next round
 * @param metrics the round's metrics
 */
public record RoundOutput(StructValue state, Metrics metrics) {
  public RoundOutput {
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(metrics, "metrics");
  }

  /** The metrics every process reports, which {@link Metrics#others} leaves out. */
  private static final Set<String> KNOWN = Set.of("train_loss", "num_examples", "clients");

  /**
   * The metrics of one round, {@code <train_loss=float32,num_examples=int64,clients=int64,...>}.
   *
   * @param trainLoss the clients' mean loss while training, weighted by their examples or, when
   *     the client update has a {@code loss_weight}, by that (then NaN when every weight was 0:
   *     no client had a loss to report)
   * @param numExamples the training examples of the clients whose updates were averaged
   * @param clients the clients whose updates were averaged
   * @param others any further named one-element tensors of the metrics struct, by name in the
   *     struct's order, as doubles (an algorithm's own figures)
   */
  public record Metrics(float trainLoss, long numExamples, long clients,
      SequencedMap<String, Double> others) {
    /** Copies {@code others}. */
    public Metrics {
      others = Collections.unmodifiableSequencedMap(new LinkedHashMap<>(others));
    }

    /** The three metrics every process reports, and no others. */
    public Metrics(float trainLoss, long numExamples, long clients) {
      this(trainLoss, numExamples, clients, new LinkedHashMap<>());
    }

    /**
     * Reads the metrics struct of a round.
     *
     * @throws IllegalArgumentException if an element is missing or not a tensor
     * @throws IllegalStateException if an element is not a one-element tensor of the right kind
     */
    public static Metrics of(StructValue metrics) {
      SequencedMap<String, Double> others = new LinkedHashMap<>();
      for (int i = 0; i < metrics.size(); i++) {
        String name = metrics.names().get(i).orElse(null);
        if (name != null && !KNOWN.contains(name)
            && metrics.get(i) instanceof Tensor t && t.size() == 1
            && (t.dtype().isFloating() || t.dtype().isInteger())) {
          others.put(name, t.item());
        }
      }
      return new Metrics(metrics.tensor("train_loss").floatItem(),
          metrics.tensor("num_examples").longItem(), metrics.tensor("clients").longItem(),
          others);
    }
  }

  /**
   * Converts the value returned by running {@code next}: a struct of the new state and the
   * metrics.
   *
   * @throws IllegalArgumentException if {@code value} is not such a struct
   * @throws IllegalStateException if a metric is not a one-element tensor of the right kind
   */
  public static RoundOutput of(Object value) {
    if (!(value instanceof StructValue s) || s.size() != 2) {
      throw new IllegalArgumentException(
          "the result of next is a struct <state,metrics>, not " + describe(value));
    }
    return new RoundOutput(s.struct(0), Metrics.of(s.struct(1)));
  }

  /** The new global model M, the state's {@code model} element. */
  public StructValue model() {
    return state.struct("model");
  }

  private static String describe(Object value) {
    return value instanceof StructValue s ? "a struct of " + s.size() + " elements"
        : value == null ? "null" : "a " + value.getClass().getSimpleName();
  }
}
