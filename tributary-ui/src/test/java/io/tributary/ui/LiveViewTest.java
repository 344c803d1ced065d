package io.tributary.ui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.learning.rounds.RoundRecord;
import io.tributary.learning.rounds.RunEnd;
import io.tributary.learning.rounds.RunStart;
import io.tributary.tensor.Tensor;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Optional;
import java.util.SequencedMap;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class LiveViewTest {
  private final List<LiveView> views = new ArrayList<>();
  private final List<Socket> sockets = new ArrayList<>();

  @AfterEach
  void tearDown() throws IOException {
    for (Socket s : sockets) {
      s.close();
    }
    for (LiveView v : views) {
      v.close();
    }
  }

  private LiveView start(LiveView.Builder b) throws IOException {
    LiveView v = b.start();
    views.add(v);
    return v;
  }

  private static LiveView.Builder local() {
    return LiveView.builder().address("127.0.0.1", 0).title("fedavg on digits");
  }

  static RoundRecord round(int r, List<String> reasons) {
    return new RoundRecord(r, 1.0 / r, 0.5 + 0.01 * r, 1.1 / r, 0.4 + 0.01 * r, 1.2 / r, 5, 500,
        reasons.size(), 0.25, 1000L * r, 1200L * r, reasons, 0, new TreeMap<>());
  }

  static RunStart start(int rounds) {
    SequencedMap<String, String> s = new LinkedHashMap<>();
    s.put("algorithm", "fedavg");
    s.put("rounds", Integer.toString(rounds));
    return new RunStart() {
      @Override
      public int firstRound() {
        return 1;
      }

      @Override
      public int lastRound() {
        return rounds;
      }

      @Override
      public List<RoundRecord> previous() {
        return List.of();
      }

      @Override
      public SequencedMap<String, String> settingsDisplay() {
        return s;
      }
    };
  }

  static RunEnd end(String outcome) {
    return new RunEnd() {
      @Override
      public List<RoundRecord> rounds() {
        return List.of();
      }

      @Override
      public Optional<SequencedMap<String, Tensor>> finalParameters() {
        return Optional.empty();
      }

      @Override
      public String outcome() {
        return outcome;
      }
    };
  }

  /** Sends {@code request} as it is and returns the whole response. */
  private static String exchange(LiveView v, String request) throws IOException {
    try (Socket s = new Socket()) {
      s.connect(v.address(), 2000);
      s.setSoTimeout(5000);
      s.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
      s.getOutputStream().flush();
      return new String(s.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  private static String get(LiveView v, String path, String... headers) throws IOException {
    StringBuilder r = new StringBuilder("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1:"
        + v.address().getPort() + "\r\n");
    for (String h : headers) {
      r.append(h).append("\r\n");
    }
    return exchange(v, r.append("\r\n").toString());
  }

  @Test
  void get_page_isTheRunsPageWithOneHashedScriptAndNoFetches() throws IOException {
    LiveView v = start(local());
    v.started(start(5));
    v.roundEnded(round(1, List.of()), new LinkedHashMap<>());

    String response = awaitBody(v, "/", "round 1 ended");

    assertThat(response).startsWith("HTTP/1.1 200 OK\r\n")
        .contains("Content-Security-Policy: default-src 'none'; style-src 'sha256-")
        .contains("script-src 'sha256-").contains("X-Content-Type-Options: nosniff");
    String html = response.substring(response.indexOf("\r\n\r\n") + 4);
    assertThat(html).contains("<main id=\"run\">").contains("fedavg on digits")
        .contains("latest test accuracy").contains("1 of 5 rounds");
    assertThat(html.toLowerCase()).doesNotContain("src=").doesNotContain("<link")
        .doesNotContain("url(").doesNotContain("@import");
    // The only URL is the SVG namespace name, which browsers never fetch.
    assertThat(html.replace("http://www.w3.org/2000/svg", "")).doesNotContain("http://")
        .doesNotContain("https://");
    assertThat(html.split("<script", -1)).hasSize(2);
  }

  @Test
  void get_unknownPath_is404() throws IOException {
    LiveView v = start(local());

    assertThat(get(v, "/../etc/passwd")).startsWith("HTTP/1.1 404 ");
    assertThat(get(v, "/report.html")).startsWith("HTTP/1.1 404 ");
  }

  @Test
  void request_otherMethodOrBadLine_isRefused() throws IOException {
    LiveView v = start(local());

    assertThat(exchange(v, "POST / HTTP/1.1\r\nHost: localhost\r\nContent-Length: 0\r\n\r\n"))
        .startsWith("HTTP/1.1 405 ").contains("Allow: GET, HEAD");
    assertThat(exchange(v, "hello\r\n\r\n")).startsWith("HTTP/1.1 400 ");
    assertThat(exchange(v, "GET / HTTP/2.0\r\n\r\n")).startsWith("HTTP/1.1 505 ");
  }

  @Test
  void request_oversizedHeaders_is431() throws IOException {
    LiveView v = start(local());

    String big = "X-Big: " + "a".repeat(10_000);
    assertThat(get(v, "/", big)).startsWith("HTTP/1.1 431 ");
    List<String> many = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      many.add("X-H" + i + ": 1");
    }
    assertThat(get(v, "/", many.toArray(String[]::new))).startsWith("HTTP/1.1 431 ");
  }

  @Test
  void request_headSentAByteAtATime_isCutOffAfterFiveSeconds() throws Exception {
    LiveView v = start(local());
    try (Socket s = new Socket()) {
      s.connect(v.address(), 2000);
      s.setSoTimeout(10_000);
      long t0 = System.nanoTime();
      OutputStream out = s.getOutputStream();
      String head = "GET / HTTP/1.1\r\nX-Slow: " + "a".repeat(100);
      try {
        for (int i = 0; i < head.length(); i++) {
          out.write(head.charAt(i));
          out.flush();
          Thread.sleep(500);
        }
      } catch (IOException e) {
        // The server closed the connection: what this test expects.
      }
      String response = new String(s.getInputStream().readAllBytes(), StandardCharsets.UTF_8);

      assertThat(response).startsWith("HTTP/1.1 408 ");
      assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(8));
    }
  }

  @Test
  void request_foreignHostWithoutToken_is403() throws IOException {
    LiveView v = start(local());

    // A page of evil.example whose name was rebound to 127.0.0.1 sends its own name.
    assertThat(exchange(v, "GET / HTTP/1.1\r\nHost: evil.example:" + v.address().getPort()
        + "\r\n\r\n")).startsWith("HTTP/1.1 403 ");
    assertThat(exchange(v, "GET / HTTP/1.1\r\nHost: localhost:9999\r\n\r\n"))
        .startsWith("HTTP/1.1 200 ");
  }

  @Test
  void start_nonLoopbackWithoutToken_isRefused() {
    assertThatThrownBy(() -> LiveView.builder().address("0.0.0.0", 0).start())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("needs a token");
    assertThatThrownBy(() -> LiveView.builder().token("short"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("16 to 256");
  }

  @Test
  void request_withToken_needsItThenKeepsItInACookie() throws IOException {
    String token = LiveView.newToken();
    LiveView v = start(LiveView.builder().address("0.0.0.0", 0).token(token));

    assertThat(get(v, "/")).startsWith("HTTP/1.1 401 ");
    assertThat(get(v, "/?token=wrong-token-wrong-token")).startsWith("HTTP/1.1 401 ");
    assertThat(get(v, "/events?token=" + token)).startsWith("HTTP/1.1 401 ");
    String first = get(v, "/?token=" + token);
    assertThat(first).startsWith("HTTP/1.1 303 ").contains("Location: /\r\n")
        .contains("Set-Cookie: tributary-ui=" + token + "; Path=/; HttpOnly; SameSite=Strict");
    assertThat(get(v, "/", "Cookie: a=b; tributary-ui=" + token)).startsWith("HTTP/1.1 200 ");
    assertThat(get(v, "/", "Authorization: Bearer " + token)).startsWith("HTTP/1.1 200 ");
  }

  @Test
  void listen_specs_parseOrNameTheProblem() {
    assertThat(LiveView.builder().listen("0")).isNotNull();
    assertThatThrownBy(() -> LiveView.builder().listen("host:")).hasMessageContaining("port");
    assertThatThrownBy(() -> LiveView.builder().listen("::1:80")).hasMessageContaining("[::1]");
    assertThatThrownBy(() -> LiveView.builder().listen("70000")).hasMessageContaining("port");
    assertThatThrownBy(() -> LiveView.builder().listen(":80")).hasMessageContaining("empty");
  }

  @Test
  void events_roundEnds_reachAnOpenStreamWithinASecond() throws IOException {
    LiveView v = start(local());
    v.started(start(3));
    BufferedReader events = openEvents(v);
    awaitLine(events, "event: page", Duration.ofSeconds(2));

    long t0 = System.nanoTime();
    v.roundEnded(round(2, List.of("client 3: connection reset")), new LinkedHashMap<>());
    awaitLine(events, "data: <p class=\"outcome\" id=\"status\" role=\"status\">running: round 2"
        + " ended</p>", Duration.ofSeconds(1));
    assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(1));
    v.finished(end("completed 2 rounds"));
    awaitLine(events, "event: end", Duration.ofSeconds(2));
  }

  @Test
  void clientEvents_tenThousandFromFourThreadsWithAViewer_areCheapAndTheStreamShowsTheCounts()
      throws Exception {
    LiveView v = start(local().evaluation(RoundRecord.EvaluationKind.FEDERATED));
    v.started(start(3));
    BufferedReader events = openEvents(v);
    awaitLine(events, "event: page", Duration.ofSeconds(2));
    v.roundStarted(1);
    v.stage(1, "fit", 10_000);

    // A server's clients answer on their own threads; each answer is one event.
    long t0 = System.nanoTime();
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < 4; t++) {
      int from = t * 2500;
      threads.add(Thread.ofPlatform().start(() -> {
        for (int i = from; i < from + 2500; i++) {
          if (i % 100 == 0) {
            v.clientFailed(1, "c" + i, "timed out");
          } else {
            v.clientReported(1, "c" + i);
          }
          v.traffic(1, i, i);
        }
      }));
    }
    for (Thread t : threads) {
      t.join();
    }
    Duration took = Duration.ofNanos(System.nanoTime() - t0);

    // 20,000 events: far under a millisecond each, whatever the page does meanwhile.
    assertThat(took).isLessThan(Duration.ofSeconds(2));
    awaitLine(events, "data: <tr><td>fit</td><td class=\"n\">10000</td><td class=\"n\">9900</td>"
        + "<td class=\"n\">100</td><td>running</td></tr>", Duration.ofSeconds(2));
  }

  @Test
  void events_moreViewersThanTheBound_areAnswered503() throws IOException {
    LiveView v = start(local().maxViewers(2));
    openEvents(v);
    openEvents(v);
    long deadline = System.nanoTime() + Duration.ofSeconds(2).toNanos();
    while (v.viewers() < 2 && System.nanoTime() < deadline) {
      Thread.onSpinWait();
    }

    assertThat(get(v, "/events")).startsWith("HTTP/1.1 503 ");
    assertThat(get(v, "/")).startsWith("HTTP/1.1 200 ");
  }

  @Test
  void events_viewerThatNeverReads_isDroppedWithoutSlowingTheRun() throws Exception {
    LiveView v = start(local().writeTimeout(Duration.ofMillis(500)).historyBound(2000));
    v.started(start(100_000));
    Socket stuck = new Socket();
    stuck.setReceiveBufferSize(4096);
    sockets.add(stuck);
    stuck.connect(v.address());
    stuck.getOutputStream().write(("GET /events HTTP/1.1\r\nHost: localhost\r\n\r\n")
        .getBytes(StandardCharsets.ISO_8859_1));
    long slowest = 0;
    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    int r = 1;
    boolean seen = false;
    boolean dropped = false;
    // Pages grow with the rounds until the stuck viewer's buffers fill and its write blocks.
    while (!dropped && System.nanoTime() < deadline) {
      long t = System.nanoTime();
      v.roundEnded(round(r++, List.of("client 1: " + "x".repeat(200))), new LinkedHashMap<>());
      slowest = Math.max(slowest, System.nanoTime() - t);
      seen |= v.viewers() == 1;
      dropped = seen && v.viewers() == 0;
      Thread.sleep(2);
    }

    assertThat(dropped).as("the stuck viewer was dropped").isTrue();
    // Far below the write timeout: a run blocked by the viewer would wait at least that long.
    assertThat(Duration.ofNanos(slowest)).isLessThan(Duration.ofMillis(200));
    assertThat(get(v, "/")).startsWith("HTTP/1.1 200 ");
  }

  private BufferedReader openEvents(LiveView v) throws IOException {
    Socket s = new Socket();
    sockets.add(s);
    s.connect(v.address(), 2000);
    s.setSoTimeout(3000);
    OutputStream out = s.getOutputStream();
    out.write(("GET /events HTTP/1.1\r\nHost: localhost\r\n\r\n")
        .getBytes(StandardCharsets.ISO_8859_1));
    out.flush();
    BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(),
        StandardCharsets.UTF_8));
    assertThat(in.readLine()).isEqualTo("HTTP/1.1 200 OK");
    return in;
  }

  private static void awaitLine(BufferedReader in, String line, Duration within)
      throws IOException {
    long deadline = System.nanoTime() + within.toNanos();
    while (System.nanoTime() < deadline) {
      String l = in.readLine();
      if (l == null) {
        break;
      }
      if (l.equals(line)) {
        return;
      }
    }
    throw new AssertionError("no line '" + line + "' within " + within);
  }

  private static String awaitBody(LiveView v, String path, String text) throws IOException {
    long deadline = System.nanoTime() + Duration.ofSeconds(2).toNanos();
    String r = get(v, path);
    while (!r.contains(text) && System.nanoTime() < deadline) {
      r = get(v, path);
    }
    return r;
  }

  @Test
  void address_portZero_picksAFreePort() throws IOException {
    LiveView v = start(local());

    assertThat(v.address()).isInstanceOf(InetSocketAddress.class);
    assertThat(v.address().getPort()).isPositive();
    assertThat(v.uri().toString()).isEqualTo("http://127.0.0.1:" + v.address().getPort() + "/");
  }
}
