package io.tributary.cli;

import io.tributary.ui.LiveView;
import io.tributary.ui.NodeView;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * The {@code --ui} and {@code --ui-token} options: a live page of a run ({@link LiveView}) for
 * the commands that run rounds, of a node ({@link NodeView}) for {@code supernode}; parsed here
 * and served by the library.
 */
final class UiOptions {
  @Option(names = "--ui", paramLabel = "[HOST:]PORT",
      description = "serve a live page on PORT (0: any free port): of the run (the same page "
          + "as report.html, updated as rounds go), or of a supernode's messages and their "
          + "outcomes; on 127.0.0.1 unless HOST is given, and any "
          + "other host needs --ui-token. On a remote machine, prefer an SSH tunnel: "
          + "ssh -L PORT:127.0.0.1:PORT HOST")
  String ui;

  @Option(names = "--ui-token", paramLabel = "TOKEN",
      description = "a secret every request to the --ui page must carry (16 to 256 letters, "
          + "digits, - . _ ~): open http://HOST:PORT/?token=TOKEN once and the browser keeps "
          + "it as a cookie, or send it as a bearer token")
  String token;

  /**
   * The view's settings, or empty without {@code --ui}.
   *
   * @throws IllegalArgumentException naming the option whose value is wrong
   */
  Optional<LiveView.Builder> builder() {
    return configured(LiveView::builder, LiveView.Builder::listen, LiveView.Builder::token);
  }

  /**
   * The node view's settings, or empty without {@code --ui}.
   *
   * @throws IllegalArgumentException naming the option whose value is wrong
   */
  Optional<NodeView.Builder> nodeBuilder() {
    return configured(NodeView::builder, NodeView.Builder::listen, NodeView.Builder::token);
  }

  /** A page's builder from {@code make} with the address and token given, each checked. */
  private <B> Optional<B> configured(java.util.function.Supplier<B> make,
      java.util.function.BiConsumer<B, String> listen,
      java.util.function.BiConsumer<B, String> setToken) {
    if (ui == null) {
      if (token != null) {
        throw new IllegalArgumentException("--ui-token applies only with --ui");
      }
      return Optional.empty();
    }
    B b = make.get();
    try {
      listen.accept(b, ui);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--ui " + e.getMessage(), e);
    }
    if (token != null) {
      try {
        setToken.accept(b, token);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("--ui-token: " + e.getMessage(), e);
      }
    }
    return Optional.of(b);
  }

  /**
   * Starts the node view and prints its address on {@code out}.
   *
   * @throws IllegalArgumentException for a non-loopback host without {@code --ui-token}
   * @throws IOException when the address cannot be bound
   */
  static NodeView start(NodeView.Builder b, PrintWriter out) throws IOException {
    NodeView view;
    try {
      view = b.start();
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--ui " + e.getMessage().replace("a token",
          "--ui-token"), e);
    }
    out.println("live view: " + view.uri() + (view.needsToken()
        ? " (open it once with ?token=TOKEN)" : ""));
    out.flush();
    return view;
  }

  /**
   * Starts the view and prints its address on {@code out}.
   *
   * @throws IllegalArgumentException for a non-loopback host without {@code --ui-token}
   * @throws IOException when the address cannot be bound
   */
  static LiveView start(LiveView.Builder b, PrintWriter out) throws IOException {
    LiveView view;
    try {
      view = b.start();
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--ui " + e.getMessage().replace("a token",
          "--ui-token"), e);
    }
    out.println("live view: " + view.uri() + (view.needsToken()
        ? " (open it once with ?token=TOKEN)" : ""));
    out.flush();
    return view;
  }
}
