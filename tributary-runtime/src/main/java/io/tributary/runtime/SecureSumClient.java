package io.tributary.runtime;

/**
 * The client side of a secure sum protocol, where a client is: the counterpart of
 * {@link SecureSummation} for a pass whose clients run on their own nodes
 * ({@link ExecutionContext#computeClientPart}).
 *
 * <p>When a node replays a client pass for its client, the runtime computes the client's inputs
 * to the pass's secure sums as a local run would, hands them to {@link #submit} instead of
 * putting them into the pass part, and returns what {@code submit} returned beside the part. The
 * server side of the protocol ({@link PassEngine#runSecure}) then reveals only the sum of the
 * clients whose messages arrived. An implementation is one client's state in one protocol round
 * (for SecAgg+, a client that has exchanged keys and now masks its input).
 */
@FunctionalInterface
public interface SecureSumClient {
  /**
   * Enters the client's input into the protocol.
   *
   * @return what the client sends the server for it (for SecAgg+, its encoded masked input)
   * @throws SecureSumException when the protocol cannot take the input (its round failed, an
   *     input is outside the protocol's range); the replay then fails with it
   */
  byte[] submit(SecureSumInput input);
}
