package io.tributary.runtime;

import java.util.Objects;

/**
 * One client's input to its pass's secure sums, as a {@link SecureSumClient} receives it: the
 * client's values of every secure sum of the pass, flattened and concatenated as
 * {@link SecureSumSpec} says, every element already checked to be within its bound.
 *
 * <p>The array is handed over, not copied: the runtime does not touch it afterwards.
 *
 * @param spec the pass's secure sums
 * @param client the client's index in the pass
 * @param values {@code spec.length()} elements
 */
public record SecureSumInput(SecureSumSpec spec, int client, long[] values) {
  public SecureSumInput {
    Objects.requireNonNull(spec, "spec");
    Objects.requireNonNull(values, "values");
    if (values.length != spec.length()) {
      throw new IllegalArgumentException("client " + client + "'s input has " + values.length
          + " elements, the pass's secure sums " + spec.length());
    }
    if (client < 0 || client >= spec.clients()) {
      throw new IllegalArgumentException("client " + client + " is not one of the pass's "
          + spec.clients() + " clients");
    }
  }
}
