package io.tributary.runtime;

import java.util.List;
import java.util.Objects;

/**
 * The clients' inputs of one secure sum, as a {@link SecureSummation} receives them.
 *
 * <p>The arrays are handed over, not copied: the runtime does not touch them afterwards, and an
 * implementation must not modify them.
 *
 * @param intrinsic the URI of the intrinsic being computed, for messages
 * @param inputs one vector per contributing client, in client order, all of the same length
 * @param maxInput the largest value each element may take (inclusive), per element: the bound of
 *     {@code federated_secure_sum} or {@code 2^bitwidth - 1}
 * @param sumBits the bits the exact sum of the inputs needs, at most 64: the sum must be exact
 *     modulo {@code 2^sumBits}
 */
public record SecureSumRequest(String intrinsic, List<long[]> inputs, long[] maxInput,
    int sumBits) {
  public SecureSumRequest {
    Objects.requireNonNull(intrinsic, "intrinsic");
    inputs = List.copyOf(inputs);
    Objects.requireNonNull(maxInput, "maxInput");
    for (int c = 0; c < inputs.size(); c++) {
      if (inputs.get(c).length != maxInput.length) {
        throw new IllegalArgumentException("client " + c + " has " + inputs.get(c).length
            + " elements, expected " + maxInput.length);
      }
    }
    for (long m : maxInput) {
      if (m < 0) {
        throw new IllegalArgumentException("a largest input must be non-negative, got " + m);
      }
    }
    if (sumBits < 1 || sumBits > 64) {
      throw new IllegalArgumentException("sumBits must be 1 to 64, got " + sumBits);
    }
  }

  /**
   * A request whose {@link #sumBits} is what the sum of {@code inputs.size()} elements, each at
   * most the largest of {@code maxInput}, needs: the bits of that largest value plus
   * {@code ceil(log2(clients))}, at most 64.
   */
  public static SecureSumRequest of(String intrinsic, List<long[]> inputs, long[] maxInput) {
    return new SecureSumRequest(intrinsic, inputs, maxInput,
        sumBits(maxOf(maxInput), inputs.size()));
  }

  /** The bits that a sum of {@code clients} values in {@code [0, max]} needs, 1 to 64. */
  public static int sumBits(long max, int clients) {
    if (max < 0 || clients < 0) {
      throw new IllegalArgumentException("max and clients must be non-negative");
    }
    int valueBits = 64 - Long.numberOfLeadingZeros(max);
    int clientBits = clients <= 1 ? 0 : 32 - Integer.numberOfLeadingZeros(clients - 1);
    return Math.max(1, Math.min(64, valueBits + clientBits));
  }

  /** The number of elements of each input. */
  public int length() {
    return maxInput.length;
  }

  private static long maxOf(long[] values) {
    long m = 0;
    for (long v : values) {
      m = Math.max(m, v);
    }
    return m;
  }
}
