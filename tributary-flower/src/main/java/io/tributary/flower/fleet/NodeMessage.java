package io.tributary.flower.fleet;

import java.util.Objects;
import java.util.OptionalLong;

/**
 * One message a {@link SuperNode} handled, as a {@link NodeObserver} is told it.
 *
 * @param runId the run the message belongs to
 * @param messageId the message's id
 * @param messageType such as {@code train}, {@code evaluate} or {@code query}
 * @param round the server round the message is for, when it says: its group id when that is a
 *     number (as Flower's strategies set it), else its {@code config} record's {@code
 *     server-round} or {@code server_round}
 * @param outcome what became of it
 * @param detail the error the reply carried or why the message was refused or not answered;
 *     empty for a reply with content
 * @param seconds from the message's arrival to its reply sent
 * @param bytesIn the bytes of the objects pulled for it
 * @param bytesOut the bytes of the reply's objects pushed
 */
public record NodeMessage(long runId, String messageId, String messageType, OptionalLong round,
    Outcome outcome, String detail, double seconds, long bytesIn, long bytesOut) {
  /** Checks that nothing is null. */
  public NodeMessage {
    Objects.requireNonNull(messageId, "messageId");
    Objects.requireNonNull(messageType, "messageType");
    Objects.requireNonNull(round, "round");
    Objects.requireNonNull(outcome, "outcome");
    Objects.requireNonNull(detail, "detail");
  }

  /** What became of a message. */
  public enum Outcome {
    /** The app replied with content, and the reply was sent. */
    REPLIED,
    /** The reply was an error: the app failed, or no app serves the run's FAB. */
    ERROR_REPLIED,
    /**
     * The message could not be accepted (too large, malformed, objects missing): an error reply
     * says why.
     */
    REFUSED,
    /** The reply was not accepted by the SuperLink. */
    NOT_SENT,
    /** The message's run is not available, so the message was left unanswered. */
    RUN_UNAVAILABLE
  }
}
