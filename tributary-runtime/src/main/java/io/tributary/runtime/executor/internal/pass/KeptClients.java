package io.tributary.runtime.executor.internal.pass;

import io.tributary.runtime.ClientValues;
import java.util.List;
import java.util.function.IntFunction;
import java.util.function.IntToLongFunction;

/**
 * The values of a range of a population's clients, held for a node that computes only those
 * clients ({@link io.tributary.runtime.PassInputs#forClients}, {@link InputsCodec#decode}):
 * reading another client's value fails, naming the range.
 */
public final class KeptClients {
  private KeptClients() {}

  /**
   * Clients {@code [from, from + kept.size())} of a population of {@code size}, costed for a
   * pass's start order by {@code cost} inside the range and 0 outside it, or without costs when
   * {@code cost} is null.
   */
  public static ClientValues of(int size, int from, List<?> kept, IntToLongFunction cost) {
    int to = from + kept.size();
    IntFunction<Object> value = c -> {
      if (c < from || c >= to) {
        throw new IllegalStateException("client " + c + "'s value is not among the inputs of"
            + " clients [" + from + ", " + to + ")");
      }
      return kept.get(c - from);
    };
    return cost == null ? ClientValues.generate(size, value)
        : ClientValues.generate(size, value, c -> c < from || c >= to ? 0 : cost.applyAsLong(c));
  }

  /**
   * The cost {@link ClientCosts#of} gives a value held in memory (its tensor bytes, sequences
   * included), for client {@code c} of {@code kept}, which starts at client {@code from}.
   */
  public static IntToLongFunction bytes(int from, List<?> kept) {
    return c -> TensorBytes.withSequences(kept.get(c - from));
  }
}
