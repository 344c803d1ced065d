package io.tributary.runtime;

import java.util.List;
import java.util.Objects;

/**
 * The secure sums of one client pass, as one vector: what a client-side protocol and its server
 * side agree on before any client runs, known to both from the computation alone.
 *
 * <p>A pass may compute several secure sums (DP-FedAvg's quantized updates and its clipped
 * count); each client's inputs to them are concatenated, in the order of {@link #sums}, into one
 * vector of {@link #length} elements, so that one protocol round covers the whole pass and has
 * one set of survivors. Element {@code i} lies in {@code [0, maxInput[i]]}; the sum of
 * {@link #clients} such vectors needs {@link #sumBits} bits, and a protocol's sum must be exact
 * modulo {@code 2^sumBits}.
 *
 * @param pass the pass's index within the invocation
 * @param clients the clients of the pass, an upper bound on those the sum covers
 * @param sums each secure sum's slice of the vector, in the pass's order
 * @param maxInput the largest value of each element (inclusive)
 * @param sumBits the bits the exact sum of {@code clients} inputs needs, 1 to 64
 */
public record SecureSumSpec(int pass, int clients, List<Slice> sums, long[] maxInput,
    int sumBits) {
  /**
   * One secure sum's elements within the pass's vector.
   *
   * @param intrinsic the URI of the secure sum
   * @param offset the index of its first element
   * @param length its number of elements
   */
  public record Slice(String intrinsic, int offset, int length) {
    public Slice {
      Objects.requireNonNull(intrinsic, "intrinsic");
      if (offset < 0 || length < 0) {
        throw new IllegalArgumentException("a slice needs offset and length >= 0");
      }
    }
  }

  /**
   * Checks that the slices tile the vector and the bits suffice for the sum.
   *
   * @throws IllegalArgumentException naming what does not fit
   */
  public SecureSumSpec {
    sums = List.copyOf(sums);
    Objects.requireNonNull(maxInput, "maxInput");
    if (pass < 0 || clients < 0) {
      throw new IllegalArgumentException("a secure sum spec needs pass and clients >= 0");
    }
    int next = 0;
    for (Slice s : sums) {
      if (s.offset() != next) {
        throw new IllegalArgumentException(s.intrinsic() + " starts at element " + s.offset()
            + ", expected " + next);
      }
      next += s.length();
    }
    if (next != maxInput.length) {
      throw new IllegalArgumentException("the slices cover " + next + " elements, the vector has "
          + maxInput.length);
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

  /** The number of elements of each client's input. */
  public int length() {
    return maxInput.length;
  }

  /** The largest value any element may take: what a protocol's input width must hold. */
  public long maxElement() {
    long m = 0;
    for (long x : maxInput) {
      m = Math.max(m, x);
    }
    return m;
  }

  /** The intrinsics of the secure sums, for messages. */
  public String describe() {
    return String.join(", ", sums.stream().map(Slice::intrinsic).toList());
  }
}
