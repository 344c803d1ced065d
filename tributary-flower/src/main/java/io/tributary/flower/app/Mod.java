package io.tributary.flower.app;

import io.tributary.flower.records.Message;

/**
 * Flower's ClientApp mod in Java: wraps the app's handling of every message, seeing the message
 * before the handler and the reply after it, as Flower's {@code Mod} does
 * ({@code mod(msg, context, call_next)}). Mods given to {@link ClientApp.Builder#mod} run in the
 * order given, the first outermost.
 */
@FunctionalInterface
public interface Mod {
  /**
   * The reply to {@code message}: usually {@code next.handle(message, context)}, changed.
   * {@code next} never throws for the handler's failures: they come back as error replies.
   */
  Message apply(Message message, Context context, MessageHandler next) throws Exception;
}
