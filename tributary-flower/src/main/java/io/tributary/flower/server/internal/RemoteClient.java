package io.tributary.flower.server.internal;

import io.tributary.flower.internal.proto.ClientMessage;
import io.tributary.flower.internal.proto.ServerMessage;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * One remote client as the server's rounds see it: it is sent one instruction at a time in the
 * server's terms ({@code FitIns}, {@code EvaluateIns}, {@code GetParametersIns},
 * {@code ReconnectIns}) and answers with the matching result.
 *
 * <p>A legacy {@code Join} stream ({@link ClientProxy}) sends the instruction as it is; a Fleet
 * node translates it into a Flower Message-API message and its reply back, so that the same
 * round machinery ({@link RemoteClientWork}, {@link Dispatch}) drives both and both may take part
 * in one round. Not sealed: the Fleet node lives in its own package and the module has no
 * {@code module-info} that would let a sealed interface permit it.
 */
public interface RemoteClient {
  /** The server-assigned id, unique among the connected clients. */
  String id();

  /** The {@code tensor_type} the client's parameters are written in. */
  String tensorType();

  /**
   * Whether the client is a relay, whose fit answers are its edge's aggregate update rather than
   * trained parameters ({@link io.tributary.flower.internal.EdgeHeader}).
   */
  default boolean isRelay() {
    return false;
  }

  /**
   * Whether {@code ReconnectIns} makes the client leave and come back later (a Join client); a
   * Fleet SuperNode has no such message and stays, polling, until it leaves.
   */
  default boolean comesBackWhenAsked() {
    return true;
  }

  /** True once the client is gone for good. */
  boolean isClosed();

  /**
   * Sends {@code message} and returns the future of the client's answer. The future fails with a
   * {@link io.tributary.flower.server.RemoteClientException} if the client leaves first or does
   * not answer within {@code timeout}.
   *
   * @throws IllegalStateException if an instruction is already outstanding
   */
  CompletableFuture<ClientMessage> request(ServerMessage message, Optional<Duration> timeout);

  /**
   * Gives up on {@code f} if it is still the outstanding instruction (its caller stopped
   * waiting): a late answer could not be matched to a later instruction.
   */
  void abandon(CompletableFuture<ClientMessage> f, String why);

  /** Reads the pending answer at once if it waits for the server's inbound budget. */
  default void expedite() {}

  /** The round has taken (or given up on) the last answer; idempotent. */
  default void releaseAnswer() {}

  /**
   * Sends a Message-API message of {@code type} with {@code content} in group {@code group};
   * the future gets the reply's content, or fails with a {@link
   * io.tributary.flower.server.RemoteClientException} naming why (the client left, timed out,
   * broke the rules or replied with an error). A Fleet node takes messages of any type; a legacy
   * {@code Join} stream, whose messages are the server's instructions, takes a secure pass's
   * stages only, carried in FitIns/FitRes ({@link io.tributary.flower.passes.JoinPassLayout}),
   * and fails the future of any other type at once.
   *
   * @throws IllegalStateException if an instruction is already outstanding
   */
  default CompletableFuture<io.tributary.flower.records.RecordDict> message(String type,
      io.tributary.flower.records.RecordDict content, String group,
      Optional<Duration> timeout) {
    return CompletableFuture.failedFuture(new io.tributary.flower.server.ClientResultException(
        id(), "a Join client takes the server's instructions only, not '" + type
            + "' messages", null));
  }

  /** Ends the connection normally (the client has been told to go, or the server stops). */
  void finish();
}
