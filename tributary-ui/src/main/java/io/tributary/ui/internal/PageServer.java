package io.tributary.ui.internal;

import io.tributary.learning.rounds.report.RunPage;
import java.io.BufferedInputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.Base64;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A read-only HTTP/1.1 server of one page and its event stream, on its own threads: the run's
 * thread only updates the {@link PageSource}.
 *
 * <p>Routes: {@code GET /} the page (the run's state now), {@code GET /events} server-sent
 * events, one {@code page} event per new state (the latest only: a viewer that falls behind skips
 * states, it never queues them), a comment every {@link #HEARTBEAT} to keep proxies from closing
 * the stream, and an {@code end} event once the run has ended. Anything else is 404, a method
 * other than GET or HEAD 405.
 *
 * <p>Bounds: a request head over {@link #MAX_HEAD_BYTES} is refused with 431, one that takes
 * over {@link #HEAD_TIMEOUT} in all is answered 408; at most {@code maxViewers} event streams
 * and that many plus {@link #SPARE_CONNECTIONS} connections at once (503 beyond); a viewer whose
 * write has not finished within the write timeout (one that stopped reading) has its connection
 * closed, which frees its thread.
 */
public final class PageServer implements Closeable {
  /** The largest request head served. */
  public static final int MAX_HEAD_BYTES = 8192;
  /** How long a client has to send its request head. */
  static final Duration HEAD_TIMEOUT = Duration.ofSeconds(5);
  /** Connections for page loads and refusals beyond the event streams. */
  static final int SPARE_CONNECTIONS = 8;
  /** How often an idle event stream gets a comment. */
  static final Duration HEARTBEAT = Duration.ofSeconds(15);
  /** The least time between two renders: faster rounds are shown in batches. */
  static final Duration MIN_RENDER_INTERVAL = Duration.ofMillis(100);

  private static final byte[] COMMENT = ": still running\n\n".getBytes(StandardCharsets.UTF_8);

  private final PageSource state;
  private final Access access;
  private final int maxViewers;
  private final Duration writeTimeout;
  private final ServerSocket socket;
  private final Semaphore connections;
  private final Semaphore viewerSlots;
  private final Set<Viewer> viewers = ConcurrentHashMap.newKeySet();
  private final ReentrantLock lock = new ReentrantLock();
  /** Viewers wait on it for a new frame. */
  private final Condition newFrame = lock.newCondition();
  /** The renderer waits on it for a change of the state. */
  private final Condition stateChanged = lock.newCondition();
  /**
   * Whether the renderer is waiting for a change: only then does {@link #changed} take the lock,
   * so that the run's events (one per client) neither contend for it nor wake the viewers.
   */
  private volatile boolean rendererWaiting;
  private final String script;
  private final String pageCsp;
  private final Thread acceptor;
  private final Thread publisher;
  private volatile Frame frame;
  private volatile boolean closed;

  /**
   * Binds {@code address} and starts serving {@code state}.
   *
   * @throws IOException if the address cannot be bound
   */
  public PageServer(InetSocketAddress address, PageSource state, Access access, int maxViewers,
      Duration writeTimeout) throws IOException {
    this.state = state;
    this.access = access;
    this.maxViewers = maxViewers;
    this.writeTimeout = writeTimeout;
    this.connections = new Semaphore(maxViewers + SPARE_CONNECTIONS);
    this.viewerSlots = new Semaphore(maxViewers);
    this.script = script();
    // The page's one style sheet and one script, by hash: nothing else may run or load.
    this.pageCsp = "default-src 'none'; style-src '" + sha256(RunPage.style()) + "'; "
        + "script-src '" + sha256(script) + "'; connect-src 'self'; img-src data:; "
        + "base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
    this.frame = render();
    this.socket = new ServerSocket();
    socket.bind(address, 64);
    this.acceptor = Thread.ofPlatform().name("tributary-ui-accept").daemon()
        .start(this::acceptLoop);
    this.publisher = Thread.ofPlatform().name("tributary-ui-render").daemon()
        .start(this::publishLoop);
  }

  /** The address bound, with the port chosen when 0 was asked for. */
  public InetSocketAddress address() {
    return (InetSocketAddress) socket.getLocalSocketAddress();
  }

  /** Event streams open now. */
  public int viewers() {
    return viewers.size();
  }

  /**
   * Wakes the renderer: the state has changed. The run's thread calls it outside the state's
   * lock, so the renderer may read the state while it holds this server's lock.
   */
  public void changed() {
    // The state's version was raised before this call; the renderer raises its flag before it
    // reads the version, so either it sees the change or this call sees it waiting.
    if (!rendererWaiting) {
      return;
    }
    lock.lock();
    try {
      stateChanged.signal();
    } finally {
      lock.unlock();
    }
  }

  /** Wakes the renderer and every viewer, as closing does. */
  private void wakeAll() {
    lock.lock();
    try {
      stateChanged.signalAll();
      newFrame.signalAll();
    } finally {
      lock.unlock();
    }
  }

  private Frame render() {
    PageSource.Rendered r = state.render(script);
    // The document's <main> opens with a line feed before its content: an update brings the
    // same, so that a page replaced whole is the document's markup exactly.
    return Frame.of(r.version(), r.document(), "\n" + r.main(), r.ended());
  }

  private void acceptLoop() {
    while (!closed) {
      Socket s;
      try {
        s = socket.accept();
      } catch (IOException e) {
        if (closed) {
          return;
        }
        continue; // One failed accept (a reset connection) does not end the server.
      }
      if (!connections.tryAcquire()) {
        refuse(s);
        continue;
      }
      Thread.ofVirtual().name("tributary-ui-connection").start(() -> {
        try (s) {
          serve(s);
        } catch (IOException e) {
          // The viewer went away or was dropped: nothing to tell anyone.
        } finally {
          connections.release();
        }
      });
    }
  }

  /**
   * Answers 503 to a connection over the bound, on the accepting thread: the answer is far
   * smaller than a fresh socket's send buffer, so the write does not block.
   */
  private static void refuse(Socket s) {
    try (s) {
      Responses.text(s.getOutputStream(), 503, "too many viewers", true);
    } catch (IOException e) {
      // Already gone.
    }
  }

  private void serve(Socket s) throws IOException {
    s.setSoTimeout((int) HEAD_TIMEOUT.toMillis());
    InputStream in = new BufferedInputStream(s.getInputStream(), 1024);
    OutputStream out = s.getOutputStream();
    RequestHead head;
    try {
      head = RequestHead.read(in, MAX_HEAD_BYTES, System.nanoTime() + HEAD_TIMEOUT.toNanos());
    } catch (SocketTimeoutException e) {
      Responses.text(out, 408, "the request head took too long", true);
      return;
    } catch (RequestHead.Refused e) {
      Responses.text(out, e.status(), e.getMessage(), true);
      return;
    }
    boolean body = !head.method().equals("HEAD");
    if (!head.method().equals("GET") && body) {
      Responses.text(out, 405, "the page is read-only: GET and HEAD only", true,
          "Allow: GET, HEAD");
      return;
    }
    switch (access.check(head)) {
      case Access.Deny d -> Responses.text(out, d.status(), d.message(), body);
      case Access.SetCookie c -> Responses.text(out, 303, "see " + c.location(), body,
          "Location: " + c.location(), "Set-Cookie: " + c.cookie());
      case Access.Allow a -> route(head, s, out, body);
    }
  }

  private void route(RequestHead head, Socket s, OutputStream out, boolean body)
      throws IOException {
    switch (head.path()) {
      case "/" -> {
        byte[] page = current().document();
        out.write(Responses.head(200, "text/html; charset=utf-8", page.length, pageCsp));
        if (body) {
          out.write(page);
        }
        out.flush();
      }
      case "/events" -> {
        if (!body) {
          out.write(Responses.head(200, "text/event-stream; charset=utf-8", -1,
              "default-src 'none'"));
          out.flush();
        } else if (!viewerSlots.tryAcquire()) {
          Responses.text(out, 503, "too many viewers (at most " + maxViewers + ")", true);
        } else {
          try {
            stream(s, out);
          } finally {
            viewerSlots.release();
          }
        }
      }
      default -> Responses.text(out, 404, "no such page: the run's page is /", body);
    }
  }

  /** Sends the latest frame whenever there is a newer one, until the viewer goes or is dropped. */
  private void stream(Socket s, OutputStream out) throws IOException {
    Viewer v = new Viewer(s);
    viewers.add(v);
    // Without viewers the renderer rests: ask it for the state as it is now.
    wakeRenderer();
    try {
      v.write(out, Responses.head(200, "text/event-stream; charset=utf-8", -1,
          "default-src 'none'"));
      long sent = -1;
      while (!closed) {
        Frame f = awaitNewer(sent);
        if (f == null) {
          v.write(out, COMMENT);
          continue;
        }
        v.write(out, f.event());
        sent = f.version();
        if (f.ended()) {
          return;
        }
      }
    } finally {
      viewers.remove(v);
    }
  }

  /** The frame newer than {@code version}, or null after a heartbeat's time without one. */
  private Frame awaitNewer(long version) throws IOException {
    long deadline = System.nanoTime() + HEARTBEAT.toNanos();
    lock.lock();
    try {
      while (frame.version() == version && !closed) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return null;
        }
        newFrame.awaitNanos(left);
      }
      return frame;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    } finally {
      lock.unlock();
    }
  }

  /**
   * The page as it is now: the latest frame, or a new one when the state has changed since (as
   * it may without viewers, for whom alone the renderer works).
   */
  private Frame current() {
    Frame f = frame;
    if (state.version() == f.version()) {
      return f;
    }
    Frame rendered = render();
    publish(rendered);
    return rendered;
  }

  /** Makes {@code f} the latest frame, unless a newer one is already. */
  private void publish(Frame f) {
    lock.lock();
    try {
      if (f.version() > frame.version() || f.ended()) {
        frame = f;
        newFrame.signalAll();
      }
    } finally {
      lock.unlock();
    }
  }

  private void wakeRenderer() {
    lock.lock();
    try {
      stateChanged.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Renders each new state (at most every {@link #MIN_RENDER_INTERVAL}) while there are viewers,
   * and drops stuck viewers. Without viewers it renders nothing: a run's events then cost no
   * rendering, and a request for the page renders it ({@link #current}).
   */
  private void publishLoop() {
    while (!closed) {
      if (!viewers.isEmpty() && state.version() != frame.version()) {
        publish(render());
      }
      for (Viewer v : viewers) {
        v.dropIfStuck(writeTimeout);
      }
      lock.lock();
      try {
        // Woken by changed(), unless a change came while rendering; the wait also paces the
        // stuck-viewer check.
        // Without viewers, only a viewer's arrival (or the timeout) wakes it, not each change.
        rendererWaiting = !viewers.isEmpty();
        if ((viewers.isEmpty() || state.version() == frame.version()) && !closed) {
          stateChanged.await(MIN_RENDER_INTERVAL.toMillis() * 5, TimeUnit.MILLISECONDS);
        }
      } catch (InterruptedException e) {
        return;
      } finally {
        rendererWaiting = false;
        lock.unlock();
      }
      try {
        Thread.sleep(MIN_RENDER_INTERVAL);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  /** Renders the last state for the viewers still connected, then stops serving. */
  public void finish() {
    Frame f = render();
    lock.lock();
    try {
      frame = f;
      newFrame.signalAll();
    } finally {
      lock.unlock();
    }
  }

  @Override
  public void close() throws IOException {
    // Open pages get the run's last state before their streams close.
    long deadline = System.nanoTime() + Duration.ofSeconds(1).toNanos();
    while (frame.ended() && !viewers.isEmpty() && System.nanoTime() < deadline) {
      try {
        Thread.sleep(10);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    closed = true;
    publisher.interrupt();
    wakeAll();
    try {
      socket.close();
    } finally {
      for (Viewer v : viewers) {
        v.drop();
      }
    }
    try {
      acceptor.join(Duration.ofSeconds(2));
      publisher.join(Duration.ofSeconds(2));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static String script() {
    try (InputStream in = PageServer.class.getResourceAsStream("live.js")) {
      if (in == null) {
        throw new IllegalStateException("live.js is missing from the jar");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalStateException("live.js cannot be read from the jar", e);
    }
  }

  private static String sha256(String text) {
    try {
      byte[] d = MessageDigest.getInstance("SHA-256").digest(
          text.getBytes(StandardCharsets.UTF_8));
      return "sha256-" + Base64.getEncoder().encodeToString(d);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }

  /** One open event stream and when its current write started. */
  private static final class Viewer {
    private final Socket socket;
    private volatile long writingSince;

    Viewer(Socket socket) {
      this.socket = socket;
    }

    void write(OutputStream out, byte[] bytes) throws IOException {
      writingSince = System.nanoTime();
      try {
        out.write(bytes);
        out.flush();
      } finally {
        writingSince = 0;
      }
    }

    void dropIfStuck(Duration timeout) {
      long since = writingSince;
      if (since != 0 && System.nanoTime() - since > timeout.toNanos()) {
        drop();
      }
    }

    /** Closes the connection: a write blocked on it fails, which ends the viewer's thread. */
    void drop() {
      try {
        socket.close();
      } catch (IOException e) {
        // Closed already.
      }
    }
  }
}
