package io.tributary.ui;

import io.tributary.flower.fleet.NodeMessage;
import io.tributary.flower.fleet.NodeObserver;
import io.tributary.ui.internal.NodeState;
import io.tributary.ui.internal.PageServer;
import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * A web page that shows a Flower SuperNode as it serves: whether it is active with its
 * SuperLink, and each message it handled (run, type, round, outcome or error, duration, bytes),
 * the newest first. It is a {@link NodeObserver}: give it to {@code
 * SuperNode.Builder.observer}.
 *
 * <pre>{@code
 * try (NodeView view = NodeView.builder().listen("127.0.0.1:8266").start();
 *     SuperNode node = SuperNode.builder("superlink:9092").clientApp(app).observer(view)
 *         .build().start()) {
 *   node.run();
 * }
 * }</pre>
 *
 * <p>It is served like a {@link LiveView}, with the same safety: 127.0.0.1 unless told
 * otherwise, a token to bind elsewhere, read-only, bounded viewers, and a viewer that stops
 * reading is dropped; the node's thread only records each message (O(1), the latest {@link
 * Builder#historyBound} kept), so the page never slows the node. This class needs {@code
 * tributary-flower} on the class path, as any user of a SuperNode has.
 */
public final class NodeView implements NodeObserver, Closeable {
  private final NodeState state;
  private final PageServer server;
  private final boolean tokened;

  private NodeView(NodeState state, PageServer server, boolean tokened) {
    this.state = state;
    this.server = server;
    this.tokened = tokened;
  }

  /** A view bound to 127.0.0.1 on {@link LiveView#DEFAULT_PORT}, until told otherwise. */
  public static Builder builder() {
    return new Builder();
  }

  /** The address the page is served on (with the port chosen, when 0 was asked for). */
  public InetSocketAddress address() {
    return server.address();
  }

  /** The page's address, without the token. */
  public URI uri() {
    return LiveView.uri(address());
  }

  /** Whether requests must carry a token. */
  public boolean needsToken() {
    return tokened;
  }

  @Override
  public void active(long nodeId, String superlink) {
    state.status("active: node " + Long.toUnsignedString(nodeId) + " with the SuperLink at "
        + superlink);
    server.changed();
  }

  @Override
  public void inactive(String why) {
    state.status("reconnecting to the SuperLink: " + why);
    server.changed();
  }

  @Override
  public void messageHandled(NodeMessage m) {
    state.message(new NodeState.Row(Instant.now(), Long.toUnsignedString(m.runId()),
        m.messageType(), m.round().isPresent() ? Long.toString(m.round().getAsLong()) : "",
        outcome(m.outcome()), m.outcome() != NodeMessage.Outcome.REPLIED, m.detail(),
        m.seconds(), m.bytesIn(), m.bytesOut()));
    server.changed();
  }

  private static String outcome(NodeMessage.Outcome o) {
    return switch (o) {
      case REPLIED -> "replied";
      case ERROR_REPLIED -> "error reply";
      case REFUSED -> "refused";
      case NOT_SENT -> "reply not accepted";
      case RUN_UNAVAILABLE -> "run unavailable";
    };
  }

  /** Shows that the node has stopped, then stops serving: open pages keep that state. */
  @Override
  public void close() throws IOException {
    state.ended("the node has stopped");
    server.finish();
    server.close();
  }

  /** A node view's address, access and bounds, as a {@link LiveView.Builder}'s. */
  public static final class Builder {
    private final LiveView.Builder serving = LiveView.builder();
    private String title = "Tributary SuperNode";
    private int historyBound = 200;

    private Builder() {}

    /** Where to listen, as {@link LiveView.Builder#listen}. */
    public Builder listen(String spec) {
      serving.listen(spec);
      return this;
    }

    /** Listens on {@code host} and {@code port} (0: any free port). */
    public Builder address(String host, int port) {
      serving.address(host, port);
      return this;
    }

    /** Requires {@code token} of every request, as {@link LiveView.Builder#token}. */
    public Builder token(String token) {
      serving.token(token);
      return this;
    }

    /** The page's heading. */
    public Builder title(String title) {
      this.title = Objects.requireNonNull(title, "title");
      return this;
    }

    /** Open event streams at most, 1..1024 (default 16). */
    public Builder maxViewers(int n) {
      serving.maxViewers(n);
      return this;
    }

    /** Messages the page lists at most, the latest, 1..100,000 (default 200). */
    public Builder historyBound(int messages) {
      if (messages < 1 || messages > 100_000) {
        throw new IllegalArgumentException("history bound " + messages
            + " is outside 1..100000");
      }
      this.historyBound = messages;
      return this;
    }

    /** How long one write to a viewer may take before the viewer is dropped (default 10 s). */
    public Builder writeTimeout(Duration d) {
      serving.writeTimeout(d);
      return this;
    }

    /**
     * Binds the address and starts serving the page.
     *
     * @throws IllegalArgumentException when the address is not a loopback one and no token is
     *     set
     * @throws IOException when the address cannot be bound
     */
    public NodeView start() throws IOException {
      NodeState state = new NodeState(title, historyBound);
      return new NodeView(state, serving.serve(state), serving.token.isPresent());
    }
  }
}
