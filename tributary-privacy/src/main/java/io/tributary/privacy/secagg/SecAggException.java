package io.tributary.privacy.secagg;

import io.tributary.runtime.SecureSumException;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * A SecAgg+ round failed; {@link #reason()} says why and {@link #client()} names the client
 * concerned where there is one. No sum, partial or whole, is revealed when this is thrown: the
 * server computes the sum only once every mask can be removed.
 */
public final class SecAggException extends SecureSumException {
  private static final long serialVersionUID = 1L;

  /** Why a round failed. */
  public enum Reason {
    /** A round needs at least 2 clients: the sum of one input is that input. */
    TOO_FEW_CLIENTS,
    /** Fewer than the threshold of a client's neighbours remain to recover its secrets. */
    TOO_FEW_SURVIVORS,
    /** A ciphertext failed its authentication: it was changed on the way. */
    TAMPERED_MESSAGE,
    /** An input element is outside the declared range. */
    INPUT_OUT_OF_RANGE,
    /** A message is malformed: wrong lengths, unknown clients, bad keys. */
    MALFORMED_MESSAGE,
    /** A party sent or asked for something the protocol forbids at this point. */
    PROTOCOL_VIOLATION,
    /** Shares of one secret disagree, or a recovered key does not match its public key. */
    INCONSISTENT_SHARES
  }

  private final Reason reason;
  private final int client;
  private final transient SecAggTranscript transcript;

  /** A failure concerning no client in particular. */
  public SecAggException(Reason reason, String message) {
    this(reason, -1, message, null, null);
  }

  /** A failure concerning {@code client}. */
  public SecAggException(Reason reason, int client, String message) {
    this(reason, client, message, null, null);
  }

  /** A failure concerning {@code client} with its cause. */
  public SecAggException(Reason reason, int client, String message, Throwable cause) {
    this(reason, client, message, cause, null);
  }

  private SecAggException(Reason reason, int client, String message, Throwable cause,
      SecAggTranscript transcript) {
    super(message, cause);
    this.reason = Objects.requireNonNull(reason, "reason");
    this.client = client;
    this.transcript = transcript;
  }

  /** The same failure carrying what the server had received when it happened. */
  public SecAggException withTranscript(SecAggTranscript t) {
    SecAggException e = new SecAggException(reason, client, getMessage(), getCause(), t);
    e.setStackTrace(getStackTrace());
    return e;
  }

  /** Why the round failed. */
  public Reason reason() {
    return reason;
  }

  /** The client concerned: the one whose message failed, or whose secrets cannot be recovered. */
  public OptionalInt client() {
    return client < 0 ? OptionalInt.empty() : OptionalInt.of(client);
  }

  /** What the server received before the failure, when the round ran through {@link SecAggPlus}. */
  public Optional<SecAggTranscript> transcript() {
    return Optional.ofNullable(transcript);
  }
}
