package io.tributary.runtime;

/**
 * Computes {@code federated_secure_sum} and {@code federated_secure_sum_bitwidth} from the
 * clients' integer vectors; {@link RuntimeOptions#withSecureSum} installs one.
 *
 * <p>Without one the runtime adds the clients' values in the clear, as it always did. With one,
 * the runtime gathers every successful client's value of a secure sum (already checked against
 * the bound), flattens it to a {@code long[]} in leaf order, and hands all of them, in client
 * order, to {@link #sum}; only the returned total reaches the rest of the computation. An
 * implementation is expected to run a secure aggregation protocol among simulated clients (the
 * {@code tributary-privacy} module provides SecAgg+), so that what a server would see is only
 * masked vectors and the total.
 *
 * <p>The intrinsics' semantics are those of federated-language: every input element of
 * {@code federated_secure_sum} is in {@code [0, bound]}, of {@code federated_secure_sum_bitwidth}
 * in {@code [0, 2^bitwidth)}, and the result is the exact sum, which the bit-width variant then
 * reduces modulo {@code 2^bitwidth} (the runtime does that reduction, not the implementation).
 */
@FunctionalInterface
public interface SecureSummation {
  /**
   * The element-wise sum of the request's inputs, exact modulo {@code 2^request.sumBits()}
   * (a value of 64 bits means modulo {@code 2^64}, that is, {@code long} wrap-around).
   *
   * @return an array of {@link SecureSumRequest#length()} elements
   * @throws SecureSumException when the protocol cannot produce the sum (too many clients
   *     dropped out, a message was tampered with, an input is out of range); no partial sum is
   *     revealed then
   */
  long[] sum(SecureSumRequest request);
}
