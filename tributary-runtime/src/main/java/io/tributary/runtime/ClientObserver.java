package io.tributary.runtime;

/**
 * Told of each client as its work in an invocation's client pass ends, while the pass goes: for
 * a live view of a simulation's round.
 *
 * <p>Given to {@link ExecutionContext#invokeObserved}. The calls come from the context's client
 * threads, several at once and in no particular order: an observer must be thread-safe and
 * return quickly. What it throws is logged and ignored; it never changes the invocation, whose
 * results are bit-identical with or without an observer.
 *
 * <p>An invocation may run several passes over its clients (counted from 0), so a client may be
 * told once per pass. A client is told done when its contribution to the pass is computed and
 * checked; the aggregate may still be refused afterwards (the invocation's outcome or exception
 * is authoritative). Passes on a {@link PassEngine} (a cluster) tell nothing per client; an
 * aggregation computed without client work (a sum of the arguments' values) tells nothing
 * either.
 */
public interface ClientObserver {
  /** Tells nothing. */
  ClientObserver NONE = new ClientObserver() { };

  /** Client {@code client} (its index in the population) finished its work in pass {@code pass}. */
  default void clientDone(int pass, int client) {}

  /** A client's work in pass {@code pass} failed, as {@code failure} says. */
  default void clientFailed(int pass, ClientFailure failure) {}
}
