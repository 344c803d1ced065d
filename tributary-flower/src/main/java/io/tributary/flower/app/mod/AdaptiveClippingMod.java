package io.tributary.flower.app.mod;

import io.tributary.flower.app.Context;
import io.tributary.flower.app.MessageHandler;
import io.tributary.flower.app.Mod;
import io.tributary.flower.records.Message;

/**
 * Flower's {@code adaptiveclipping_mod}: {@link FixedClippingMod}'s clipping, and
 * {@code norm_bit} (1 when the update was scaled down, else 0) added to the reply's only
 * MetricRecord, which the server's {@code DifferentialPrivacyClientSideAdaptiveClipping} uses to
 * adapt the norm; other messages than {@code train} pass through.
 */
public final class AdaptiveClippingMod implements Mod {
  @Override
  public Message apply(Message message, Context context, MessageHandler next) throws Exception {
    if (!Clipping.isTrain(message)) {
      return next.handle(message, context);
    }
    return Clipping.applyOrError("adaptiveclipping_mod", message, context, next, true);
  }
}
