package io.tributary.flower;

import java.time.Duration;

/**
 * Told by a {@link FlowerClientRunner} when its connection to the server ends and when it will
 * try again, on the running thread; a relay uses it to tell its own clients that its upstream is
 * gone. The methods must return quickly and not throw.
 */
public interface ConnectionListener {
  /** A listener that does nothing. */
  ConnectionListener NONE = new ConnectionListener() {};

  /**
   * The stream ended or the server could not be reached; the runner tries again in
   * {@code retryIn} (attempt {@code attempt} of {@code maxAttempts}).
   *
   * @param reason the gRPC status, in words
   */
  default void lost(String reason, Duration retryIn, int attempt, int maxAttempts) {}

  /** The server asked the client to come back in {@code seconds} (more than 0). */
  default void reconnectRequested(long seconds) {}
}
