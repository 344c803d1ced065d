package io.tributary.cli;

import io.tributary.flower.app.ClientApp;
import io.tributary.flower.app.ClientAppProvider;
import io.tributary.flower.app.Context;
import io.tributary.flower.fleet.server.PlusK;

/**
 * A user's ClientApp for {@code supernode --app}: adds the node config's {@code k} to every
 * element and claims 3 examples ({@link #app}, the app a simulated run uses for the same k).
 */
public final class PlusKAppProvider implements ClientAppProvider {
  /** The app of a node whose node config says {@code k}. */
  static ClientApp app(double k) {
    return PlusK.adding(k).examples(3).build();
  }

  @Override
  public ClientApp clientApp() {
    return ClientApp.builder().train((m, c) -> app(k(c)).handle(m, c))
        .evaluate((m, c) -> app(k(c)).handle(m, c)).build();
  }

  private static double k(Context c) {
    if (!(c.nodeConfig().get("k") instanceof Double k)) {
      throw new IllegalArgumentException("the node config has no real k: " + c.nodeConfig());
    }
    return k;
  }
}
