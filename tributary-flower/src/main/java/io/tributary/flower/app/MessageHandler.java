package io.tributary.flower.app;

import io.tributary.flower.records.Message;

/**
 * Answers one message type: returns the reply, made with {@link Message#reply} or
 * {@link Message#replyError}. An exception becomes an error reply with Flower's code
 * {@code CLIENT_APP_RAISED_EXCEPTION} and the exception's message as the reason.
 */
@FunctionalInterface
public interface MessageHandler {
  Message handle(Message message, Context context) throws Exception;
}
