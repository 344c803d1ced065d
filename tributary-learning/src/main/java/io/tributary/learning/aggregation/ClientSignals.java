package io.tributary.learning.aggregation;

import io.tributary.core.types.StructType;
import io.tributary.core.types.TensorType;
import io.tributary.core.types.Type;
import io.tributary.tensor.DType;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The signals a round reads from each client ({@link ClientSignal}): always the example count
 * and the loss, and what the aggregator declares beyond them ({@link
 * AggregationProcess#clientSignals}). A binding whose clients are remote (a server's) reads it to
 * decide what each client's result carries, instead of recognising an aggregator by its type.
 *
 * @param signals the signals, {@link ClientSignal#WEIGHT} and {@link ClientSignal#LOSS} among
 *     them
 */
public record ClientSignals(Set<ClientSignal> signals) {
  /** What every round reads: each client's example count and its loss. */
  public static final ClientSignals DEFAULT =
      new ClientSignals(EnumSet.of(ClientSignal.WEIGHT, ClientSignal.LOSS));

  private static final TensorType FLOAT32 = TensorType.of(DType.FLOAT32);

  /**
   * Copies the set.
   *
   * @throws IllegalArgumentException when the weight or the loss is missing: every round reads
   *     both
   */
  public ClientSignals {
    Objects.requireNonNull(signals, "signals");
    if (!signals.contains(ClientSignal.WEIGHT) || !signals.contains(ClientSignal.LOSS)) {
      throw new IllegalArgumentException("a round reads every client's weight and loss, so the "
          + "signals must include WEIGHT and LOSS, got " + signals);
    }
    signals = Set.copyOf(EnumSet.copyOf(signals));
  }

  /** These signals and {@code signal}. */
  public ClientSignals with(ClientSignal signal) {
    EnumSet<ClientSignal> s = EnumSet.copyOf(signals);
    s.add(Objects.requireNonNull(signal, "signal"));
    return new ClientSignals(s);
  }

  /** Whether the round reads {@code signal}. */
  public boolean contains(ClientSignal signal) {
    return signals.contains(signal);
  }

  /**
   * The result of a client update that reports these signals for a model of type {@code model},
   * in the order the round reads them: {@code <delta=M,num_examples=int64,loss=float32,
   * loss_weight=float32>}, then {@code norm_bit=int64} when it is read. The loss comes with its
   * weight, so that a client that reported none (weight 0) does not enter the mean loss as 0.
   */
  public StructType updateType(StructType model) {
    List<String> names = new ArrayList<>(List.of("delta"));
    List<Type> types = new ArrayList<>(List.of(model));
    for (ClientSignal s : EnumSet.copyOf(signals)) {
      names.add(s.field());
      types.add(s.valueType());
      if (s == ClientSignal.LOSS) {
        names.add("loss_weight");
        types.add(FLOAT32);
      }
    }
    Object[] pairs = new Object[names.size() * 2];
    for (int i = 0; i < names.size(); i++) {
      pairs[2 * i] = names.get(i);
      pairs[2 * i + 1] = types.get(i);
    }
    return StructType.named(pairs);
  }
}
