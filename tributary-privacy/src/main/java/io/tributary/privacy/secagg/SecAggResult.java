package io.tributary.privacy.secagg;

import java.util.List;

/**
 * The outcome of a {@link SecAggPlus} round.
 *
 * @param sum the sum of the contributors' inputs, modulo {@code 2^modulusBits}
 * @param contributors the clients whose inputs the sum holds (those that sent a masked input),
 *     ascending
 * @param modulusBits the bits of the modulus the protocol summed modulo
 * @param transcript what the server received
 */
public record SecAggResult(long[] sum, List<Integer> contributors, int modulusBits,
    SecAggTranscript transcript) {
  public SecAggResult {
    sum = sum.clone();
    contributors = List.copyOf(contributors);
  }
}
