package io.tributary.flower.app.mod;

import io.tributary.flower.app.Context;
import io.tributary.flower.app.MessageHandler;
import io.tributary.flower.app.Mod;
import io.tributary.flower.records.Message;

/**
 * Flower's {@code fixedclipping_mod}: on {@code train} messages, clips the app's model update to
 * the {@code clipping_norm} the server's {@code DifferentialPrivacyClientSideFixedClipping}
 * sends (L2 norm over all arrays together) and replies the received model plus the clipped
 * update; other messages pass through. Add it last of the mods that change arrays.
 */
public final class FixedClippingMod implements Mod {
  @Override
  public Message apply(Message message, Context context, MessageHandler next) throws Exception {
    if (!Clipping.isTrain(message)) {
      return next.handle(message, context);
    }
    return Clipping.applyOrError("fixedclipping_mod", message, context, next, false);
  }
}
