package io.tributary.privacy.secagg;

import java.util.List;

/**
 * The outcome of a {@link SecAggPlus#sumFloats} round: the dequantized sum of the contributors'
 * clipped updates.
 *
 * @param sum the sum, off by the quantization error {@link Quantizer} describes
 * @param contributors the clients whose updates the sum holds, ascending
 * @param transcript what the server received
 */
public record SecAggFloatResult(double[] sum, List<Integer> contributors,
    SecAggTranscript transcript) {
  public SecAggFloatResult {
    sum = sum.clone();
    contributors = List.copyOf(contributors);
  }
}
