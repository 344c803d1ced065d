package io.tributary.ui.browser;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;

/**
 * Debian's headless Chromium, driven over the Chrome DevTools protocol (a WebSocket, the JDK's
 * client): one page, navigated, evaluated in, typed into and photographed.
 *
 * <p>Where Chromium is not installed the tests that need it are skipped with the reason, except
 * under {@code TRIBUTARY_REQUIRE_INTEROP=1} ({@code .ci/run}, which installs it), where they fail.
 */
final class Chromium implements AutoCloseable {
  private static final Pattern LISTENING = Pattern.compile("DevTools listening on (ws://\\S+)");
  private static final Duration CALL_TIMEOUT = Duration.ofSeconds(30);

  private final Process process;
  private final Path profile;
  private final WebSocket socket;
  private final AtomicInteger ids = new AtomicInteger();
  private final Map<Integer, CompletableFuture<Map<String, Object>>> pending =
      new ConcurrentHashMap<>();
  private final List<String> log = java.util.Collections.synchronizedList(new ArrayList<>());

  private Chromium(Process process, Path profile, URI page) throws IOException {
    this.process = process;
    this.profile = profile;
    try {
      this.socket = HttpClient.newHttpClient().newWebSocketBuilder()
          .buildAsync(page, new Listener()).get(30, TimeUnit.SECONDS);
    } catch (InterruptedException | ExecutionException | TimeoutException e) {
      throw new IOException("cannot connect to Chromium's page at " + page, e);
    }
  }

  /** The Chromium binary, or skips (fails under TRIBUTARY_REQUIRE_INTEROP=1) without one. */
  static Path binary() {
    for (String name : List.of("chromium", "chromium-browser")) {
      for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin").split(":")) {
        Path p = Path.of(dir, name);
        if (Files.isExecutable(p)) {
          return p;
        }
      }
    }
    String reason = "headless Chromium is not installed (Debian: apt-get install chromium; "
        + ".ci/run installs it)";
    if ("1".equals(System.getenv("TRIBUTARY_REQUIRE_INTEROP"))) {
      fail(reason + ", and TRIBUTARY_REQUIRE_INTEROP=1 requires the browser tests");
    }
    Assumptions.abort(reason);
    throw new AssertionError("unreachable");
  }

  /** Starts a headless Chromium with a fresh profile and one blank page of {@code width} px. */
  static Chromium start(int width, int height) throws IOException {
    Path binary = binary();
    Path profile = Files.createTempDirectory("tributary-chromium");
    // --no-sandbox: CI runs as root, where Chromium's sandbox refuses to start.
    Process p = new ProcessBuilder(binary.toString(), "--headless=new", "--no-sandbox",
        "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
        "--no-default-browser-check", "--disable-extensions", "--disable-background-networking",
        "--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0",
        "--user-data-dir=" + profile, "--window-size=" + width + "," + height, "about:blank")
        .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    BufferedReader err = new BufferedReader(new InputStreamReader(p.getErrorStream(),
        StandardCharsets.UTF_8));
    String browser = null;
    List<String> lines = new ArrayList<>();
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (browser == null && System.nanoTime() < deadline) {
      String line = err.readLine();
      if (line == null) {
        break;
      }
      lines.add(line);
      Matcher m = LISTENING.matcher(line);
      if (m.find()) {
        browser = m.group(1);
      }
    }
    if (browser == null) {
      p.destroyForcibly();
      throw new IOException("Chromium did not start: " + String.join("\n", lines));
    }
    // Keep reading its stderr, or Chromium blocks once the pipe is full.
    Thread.ofPlatform().daemon().start(() -> {
      try {
        while (err.readLine() != null) {
          // Dropped: dbus and GPU noise.
        }
      } catch (IOException e) {
        // Chromium has exited.
      }
    });
    URI ws = URI.create(browser);
    URI list = URI.create("http://" + ws.getHost() + ":" + ws.getPort() + "/json/list");
    String page = null;
    try {
      for (int tries = 0; page == null && tries < 50; tries++) {
        String json = HttpClient.newHttpClient().send(HttpRequest.newBuilder(list).build(),
            HttpResponse.BodyHandlers.ofString()).body();
        for (Object t : (List<?>) MiniJson.parse(json)) {
          Map<?, ?> target = (Map<?, ?>) t;
          if ("page".equals(target.get("type"))) {
            page = (String) target.get("webSocketDebuggerUrl");
            break;
          }
        }
        if (page == null) {
          Thread.sleep(100);
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
    if (page == null) {
      p.destroyForcibly();
      throw new IOException("Chromium has no page target");
    }
    Chromium c = new Chromium(p, profile, URI.create(page));
    c.call("Page.enable", "{}");
    c.call("Runtime.enable", "{}");
    c.call("Emulation.setDeviceMetricsOverride", "{\"width\": " + width + ", \"height\": "
        + height + ", \"deviceScaleFactor\": 1, \"mobile\": false}");
    return c;
  }

  /** Sends a command and returns its result; a protocol error fails the test. */
  Map<String, Object> call(String method, String params) throws IOException {
    int id = ids.incrementAndGet();
    CompletableFuture<Map<String, Object>> answer = new CompletableFuture<>();
    pending.put(id, answer);
    socket.sendText("{\"id\": " + id + ", \"method\": " + MiniJson.quote(method)
        + ", \"params\": " + params + "}", true).join();
    Map<String, Object> m;
    try {
      m = answer.get(CALL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException | ExecutionException | TimeoutException e) {
      throw new IOException(method + " got no answer", e);
    } finally {
      pending.remove(id);
    }
    if (m.containsKey("error")) {
      throw new AssertionError(method + " failed: " + m.get("error"));
    }
    @SuppressWarnings("unchecked")
    Map<String, Object> result = (Map<String, Object>) m.get("result");
    return result;
  }

  /** Loads {@code url} and waits for its load event's effects (the document complete). */
  void navigate(URI url) throws IOException {
    call("Page.navigate", "{\"url\": " + MiniJson.quote(url.toString()) + "}");
    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    while (!"complete".equals(eval("document.readyState"))) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("the page did not load: " + url);
      }
      pause(20);
    }
  }

  /** The value of a JavaScript expression, as a string ("" for undefined or null). */
  String eval(String expression) throws IOException {
    Map<String, Object> r = call("Runtime.evaluate", "{\"expression\": "
        + MiniJson.quote("String((() => { return " + expression.strip() + "; })() ?? '')")
        + ", \"returnByValue\": true}");
    if (r.containsKey("exceptionDetails")) {
      throw new AssertionError("script failed: " + expression + ": " + r.get("exceptionDetails"));
    }
    Object value = ((Map<?, ?>) r.get("result")).get("value");
    return value == null ? "" : value.toString();
  }

  /** Presses and releases a key, as a keyboard would (so :focus-visible applies). */
  void press(String key, String code, int keyCode) throws IOException {
    for (String type : List.of("rawKeyDown", "keyUp")) {
      call("Input.dispatchKeyEvent", "{\"type\": \"" + type + "\", \"key\": "
          + MiniJson.quote(key) + ", \"code\": " + MiniJson.quote(code)
          + ", \"windowsVirtualKeyCode\": " + keyCode + ", \"nativeVirtualKeyCode\": " + keyCode
          + "}");
    }
    if (key.equals("Enter")) {
      call("Input.dispatchKeyEvent", "{\"type\": \"char\", \"text\": \"\\r\"}");
    }
  }

  /** A PNG of the whole page, written to {@code file}. */
  void screenshot(Path file) throws IOException {
    screenshot(file, Integer.MAX_VALUE);
  }

  /** A PNG of the page's top {@code maxHeight} pixels at most, written to {@code file}. */
  void screenshot(Path file, int maxHeight) throws IOException {
    String height = eval("Math.min(" + maxHeight
        + ", Math.ceil(document.documentElement.scrollHeight))");
    String width = eval("Math.ceil(document.documentElement.clientWidth)");
    Map<String, Object> r = call("Page.captureScreenshot", "{\"format\": \"png\", "
        + "\"captureBeyondViewport\": true, \"clip\": {\"x\": 0, \"y\": 0, \"width\": " + width
        + ", \"height\": " + height + ", \"scale\": 1}}");
    Files.createDirectories(file.getParent());
    Files.write(file, Base64.getDecoder().decode((String) r.get("data")));
  }

  /** What the page's console said, for a failure's message. */
  List<String> console() {
    return List.copyOf(log);
  }

  static void pause(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted", e);
    }
  }

  @Override
  public void close() throws IOException {
    socket.abort();
    process.destroy();
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    try (Stream<Path> files = Files.walk(profile)) {
      files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
    }
  }

  /** Collects each message's fragments and completes the call it answers. */
  private final class Listener implements WebSocket.Listener {
    private final StringBuilder text = new StringBuilder();

    @Override
    public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
      text.append(data);
      if (last) {
        String message = text.toString();
        text.setLength(0);
        @SuppressWarnings("unchecked")
        Map<String, Object> m = (Map<String, Object>) MiniJson.parse(message);
        Object id = m.get("id");
        if (id instanceof Double d) {
          CompletableFuture<Map<String, Object>> f = pending.get(d.intValue());
          if (f != null) {
            f.complete(m);
          }
        } else if ("Runtime.consoleAPICalled".equals(m.get("method"))
            || "Runtime.exceptionThrown".equals(m.get("method"))) {
          log.add(String.valueOf(m.get("params")));
        }
      }
      ws.request(1);
      return null;
    }
  }
}
