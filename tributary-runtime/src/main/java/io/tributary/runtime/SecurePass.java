package io.tributary.runtime;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * What a {@link PassEngine} returns for a pass whose secure sums ran where the clients are
 * ({@link PassEngine#runSecure}): the clients' parts and the protocol's result.
 *
 * <p>With one client per group, each part is one client's group. A group without a part is a
 * client that dropped out. The survivors are the clients whose secure-sum input the protocol
 * summed; they decide which clients every other aggregation of the pass keeps: a client whose
 * part arrived but which is not a survivor counts as failed ({@link ClientFailure.Kind#DROPPED_OUT}),
 * so that all of the pass's aggregations are over the same clients.
 *
 * @param parts the parts that arrived, one group each, in any order
 * @param sum the protocol's sum of the survivors' inputs, exact modulo
 *     {@code 2^spec.sumBits()}, of {@code spec.length()} elements (ignored without survivors)
 * @param survivors the clients the sum covers, in increasing order
 */
public record SecurePass(List<PassPart> parts, long[] sum, int[] survivors) {
  public SecurePass {
    parts = List.copyOf(parts);
    Objects.requireNonNull(sum, "sum");
    survivors = survivors.clone();
  }

  @Override
  public String toString() {
    return "SecurePass[" + parts.size() + " parts, " + sum.length + " elements, survivors "
        + Arrays.toString(survivors) + "]";
  }
}
