package io.tributary.flower.app;

/**
 * Makes a user's {@link ClientApp} for {@code tributary supernode --app CLASS}, or found by
 * {@link java.util.ServiceLoader} on {@code --classpath} (a {@code META-INF/services} entry
 * naming the implementation). An implementation needs a public no-argument constructor.
 */
@FunctionalInterface
public interface ClientAppProvider {
  /** The app the node serves every run with. */
  ClientApp clientApp();
}
