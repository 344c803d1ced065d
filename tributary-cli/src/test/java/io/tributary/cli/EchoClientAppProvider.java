package io.tributary.cli;

import io.tributary.flower.app.ClientApp;
import io.tributary.flower.app.ClientAppProvider;

/** A user's ClientApp for {@code supernode --app}: replies to train with its content. */
public final class EchoClientAppProvider implements ClientAppProvider {
  @Override
  public ClientApp clientApp() {
    return ClientApp.builder().train((m, ctx) -> m.reply(m.content())).build();
  }
}
