package io.tributary.ui.browser;

import io.tributary.learning.FederatedAlgorithm;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.flower.AbstractFlowerClient;
import io.tributary.flower.Backoff;
import io.tributary.flower.EvaluateIns;
import io.tributary.flower.EvaluateRes;
import io.tributary.flower.FitIns;
import io.tributary.flower.FitRes;
import io.tributary.flower.FlowerClientRunner;
import io.tributary.flower.Scalar;
import io.tributary.flower.server.FlowerServer;
import io.tributary.flower.server.InitialParameters;
import io.tributary.flower.server.RunResult;
import io.tributary.flower.server.ServerConfig;
import io.tributary.learning.rounds.RoundListener;
import io.tributary.learning.rounds.RoundListeners;
import io.tributary.learning.rounds.RoundRecord;
import io.tributary.privacy.aggregation.DpMode;
import io.tributary.privacy.aggregation.DpSettings;
import io.tributary.simulation.ModelKind;
import io.tributary.simulation.Simulation;
import io.tributary.simulation.SimulationResult;
import io.tributary.simulation.SimulationSettings;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import io.tributary.flower.fleet.SuperNode;
import io.tributary.flower.fleet.server.FleetApi;
import io.tributary.flower.fleet.server.FleetServer;
import io.tributary.flower.fleet.server.FlowerApp;
import io.tributary.flower.fleet.server.JavaNodes;
import io.tributary.flower.fleet.server.PlusK;
import io.tributary.ui.LiveView;
import io.tributary.ui.NodeView;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.SequencedMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The live page in a real browser (headless Chromium): a short simulation with differential
 * privacy and a short Flower server run with Java clients, one of which fails. The page must show
 * a round's accuracy within a second of the round ending, the failed client's reason and the
 * privacy spent, be accessible, and end as the run's report; a screenshot of each is kept in
 * {@code target/ui-screenshots}.
 */
class LiveViewBrowserTest {
  /** The round each run pauses after, so that the test can time the page against its end. */
  private static final int WATCHED = 2;
  private static final Duration WITHIN = Duration.ofSeconds(1);

  private static Chromium chromium;

  @TempDir Path dir;

  @BeforeAll
  static void startChromium() throws IOException {
    chromium = Chromium.start(1100, 900);
  }

  @AfterAll
  static void stopChromium() throws IOException {
    if (chromium != null) {
      chromium.close();
    }
  }

  /** Holds the run after round {@link #WATCHED} until released, noting when that round ended. */
  private static final class Gate implements RoundListener {
    final CountDownLatch reached = new CountDownLatch(1);
    final CountDownLatch release = new CountDownLatch(1);
    final AtomicLong endedAt = new AtomicLong();
    final AtomicReference<RoundRecord> record = new AtomicReference<>();

    @Override
    public void roundEnded(RoundRecord metrics, SequencedMap<String, Tensor> parameters)
        throws IOException {
      if (metrics.round() != WATCHED) {
        return;
      }
      endedAt.set(System.nanoTime());
      record.set(metrics);
      reached.countDown();
      try {
        if (!release.await(60, TimeUnit.SECONDS)) {
          throw new IOException("the test never released the run");
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted", e);
      }
    }

    RoundRecord awaitRound() throws InterruptedException {
      assertThat(reached.await(120, TimeUnit.SECONDS)).as("the run reached round " + WATCHED)
          .isTrue();
      return record.get();
    }
  }

  /**
   * Holds the client that fails in round {@link #WATCHED} on its failure, after the page was
   * told it, so that the test sees the page while the round is still under way.
   */
  private static final class FailureGate implements RoundListener {
    final CountDownLatch reached = new CountDownLatch(1);
    final CountDownLatch release = new CountDownLatch(1);
    final AtomicReference<String> reason = new AtomicReference<>();

    @Override
    public void roundEnded(RoundRecord metrics, SequencedMap<String, Tensor> parameters) {}

    @Override
    public void clientFailed(int round, String client, String why) {
      if (round != WATCHED || !reason.compareAndSet(null, why)) {
        return;
      }
      reached.countDown();
      try {
        release.await(30, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private static String percent(double v) {
    return String.format(Locale.ROOT, "%.2f%%", v * 100);
  }

  /** The time from the round's end until the page showed {@code expression} as {@code value}. */
  private static Duration shownAfterRoundEnd(Gate gate, String expression, String value)
      throws IOException {
    PageChecks.await(chromium, expression, value::equals, Duration.ofSeconds(5));
    return Duration.ofNanos(System.nanoTime() - gate.endedAt.get());
  }

  @Test
  void simulate_dpRun_showsEachRoundsAccuracyAndEpsilonLiveAndEndsAsTheReport() throws Exception {
    SimulationSettings settings = SimulationSettings.builder().clients(10).clientsPerRound(5)
        .rounds(8).localEpochs(2).batchSize(16).learningRate(0.1).seed(3)
        .model(ModelKind.parse("mclr")).threads(2).out(dir.resolve("run"))
        .dp(new DpSettings(DpMode.CENTRAL, 0.3, 2.0, Optional.empty(), 0, 1e-5, true)).build();
    Gate gate = new Gate();
    try (LiveView view = LiveView.builder().address("127.0.0.1", 0)
        .title("fedavg on digits (mclr, 10 clients)").start()) {
      chromium.navigate(view.uri());
      PageChecks.await(chromium, "document.getElementById('status').textContent",
          s -> s.contains("waiting for the first round"), Duration.ofSeconds(5));
      CompletableFuture<SimulationResult> run = CompletableFuture.supplyAsync(() -> {
        try {
          return Simulation.builder(settings).writeFiles().listener(view).listener(gate).build()
              .run();
        } catch (IOException | io.tributary.simulation.SimulationStoppedException e) {
          throw new IllegalStateException(e);
        }
      });
      RoundRecord r = gate.awaitRound();

      Duration accuracy = shownAfterRoundEnd(gate,
          "document.querySelector('[data-key=\"latest test accuracy\"] .v')?.textContent",
          percent(r.testAccuracy()));
      assertThat(accuracy).as("round " + WATCHED + "'s accuracy on the page").isLessThan(WITHIN);
      assertThat(PageChecks.figure(chromium, "privacy spent (epsilon)"))
          .isEqualTo(String.format(Locale.ROOT, "%.4f", r.algorithmMetric("epsilon")));
      assertThat(chromium.eval("document.querySelectorAll('svg[aria-label=\"Privacy spent\"]')"
          + ".length")).isEqualTo("1");
      assertThat(chromium.eval("document.getElementById('status').textContent"))
          .isEqualTo("running: round " + WATCHED + " ended");
      assertThat(chromium.eval("document.getElementById('rounds-done').value"))
          .isEqualTo(Integer.toString(WATCHED));
      PageChecks.accessible(chromium);
      gate.release.countDown();

      SimulationResult result = run.get(120, TimeUnit.SECONDS);
      PageChecks.await(chromium, "document.getElementById('connection').textContent",
          s -> s.contains("ended; this is the final state"), Duration.ofSeconds(5));
      assertThat(chromium.eval("document.getElementById('status').textContent"))
          .isEqualTo(result.outcome());
      // The page's final state is the report: the same markup in <main>.
      String report = Files.readString(dir.resolve("run").resolve("report.html"));
      String main = report.substring(report.indexOf("<main id=\"run\">") + 15,
          report.indexOf("</main>"));
      assertThat(chromium.eval("document.getElementById('run').innerHTML"))
          .isEqualTo(chromium.eval("(() => { const t = document.createElement('template');"
              + " t.innerHTML = " + MiniJson.quote(main) + "; return t.innerHTML; })()"));
      chromium.screenshot(PageChecks.SCREENSHOTS.resolve("simulate.png"));
      // The top of the page, as docs/images/live-view.png shows it.
      chromium.screenshot(PageChecks.SCREENSHOTS.resolve("simulate-top.png"), 720);
    } finally {
      gate.release.countDown();
    }
  }

  /**
   * Holds the client thread that tells the last of round 1's first {@code cohort} client events
   * (its fit stage's), after the page was told it: the page has no earlier frame that could
   * show the same counts.
   */
  private static final class LastClientGate implements RoundListener {
    final int cohort;
    final java.util.concurrent.atomic.AtomicInteger told =
        new java.util.concurrent.atomic.AtomicInteger();
    final CountDownLatch reached = new CountDownLatch(1);
    final CountDownLatch release = new CountDownLatch(1);

    LastClientGate(int cohort) {
      this.cohort = cohort;
    }

    @Override
    public void roundEnded(RoundRecord metrics, SequencedMap<String, Tensor> parameters) {}

    @Override
    public void clientReported(int round, String client) {
      told(round);
    }

    @Override
    public void clientFailed(int round, String client, String reason) {
      told(round);
    }

    private void told(int round) {
      if (round != 1 || told.incrementAndGet() != cohort) {
        return;
      }
      reached.countDown();
      try {
        release.await(30, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  @Test
  void simulate_fitStageUnderWay_showsItsClientsCountedAndTheFailureReasonLive()
      throws Exception {
    // One client a round scales its update by 1e300: infinite, so the runtime refuses it.
    SimulationSettings settings = SimulationSettings.builder().clients(6).clientsPerRound(4)
        .rounds(2).localEpochs(1).batchSize(16).learningRate(0.1).seed(3)
        .model(ModelKind.parse("mclr")).threads(2)
        .byzantine(io.tributary.simulation.Byzantine.parse("1:scale:1e300"))
        .out(dir.resolve("run")).build();
    LastClientGate gate = new LastClientGate(4);
    try (LiveView view = LiveView.builder().address("127.0.0.1", 0)
        .title("fedavg with an overflowing client").start()) {
      chromium.navigate(view.uri());
      CompletableFuture<SimulationResult> run = CompletableFuture.supplyAsync(() -> {
        try {
          return Simulation.builder(settings).listener(view).listener(gate).build().run();
        } catch (IOException | io.tributary.simulation.SimulationStoppedException e) {
          throw new IllegalStateException(e);
        }
      });
      assertThat(gate.reached.await(120, TimeUnit.SECONDS)).as("round 1's fit clients ran")
          .isTrue();

      // The fit stage is still running: every client counted, the failure with its reason.
      PageChecks.await(chromium, "[...document.querySelectorAll('#stages tr')].slice(1)"
          + ".map(r => [...r.cells].map(c => c.textContent).join('|')).join(';')",
          "fit|4|3|1|running"::equals, WITHIN);
      assertThat(chromium.eval("document.getElementById('current-heading').textContent"))
          .isEqualTo("Round 1 under way");
      assertThat(chromium.eval("document.getElementById('current-failures')?.textContent ?? ''"))
          .contains("not finite");
      PageChecks.accessible(chromium);
      chromium.screenshot(PageChecks.SCREENSHOTS.resolve("simulate-round.png"));
      gate.release.countDown();

      assertThat(run.get(120, TimeUnit.SECONDS).history().rounds()).hasSize(2);
    } finally {
      gate.release.countDown();
    }
  }

  @Test
  void server_runWithAFailingClient_showsAccuracyAndTheFailureReasonLive() throws Exception {
    LinkedHashMap<String, Tensor> init = new LinkedHashMap<>();
    init.put("kernel", Tensor.ofFloats(Shape.of(2), 1, 2));
    ServerConfig config = ServerConfig.builder().address("127.0.0.1", 0).rounds(WATCHED)
        .minClients(3).algorithm(FederatedAlgorithm.fedAvg()).clientWait(Duration.ofSeconds(30))
        .roundTimeout(Duration.ofSeconds(20)).minSuccessFraction(0.5)
        .shutdownGrace(Duration.ofSeconds(2)).initial(new InitialParameters.Given(init)).build();
    Gate gate = new Gate();
    FailureGate failing = new FailureGate();
    List<FlowerClientRunner> runners = new ArrayList<>();
    try (FlowerServer server = FlowerServer.start(config);
        LiveView view = LiveView.builder().address("127.0.0.1", 0)
            .evaluation(RoundRecord.EvaluationKind.FEDERATED).title("fedavg server").start()) {
      chromium.navigate(view.uri());
      for (int i = 0; i < 3; i++) {
        FlowerClientRunner runner = FlowerClientRunner.builder(new Client(i == 2))
            .target("127.0.0.1:" + server.port())
            .backoff(new Backoff(Duration.ofMillis(20), Duration.ofMillis(50), 2, 0, 2, 0))
            .build();
        runners.add(runner);
        CompletableFuture<FlowerClientRunner.Outcome> unused = runner.start();
      }
      CompletableFuture<RunResult> run = CompletableFuture.supplyAsync(() -> {
        try {
          return server.run(RoundListeners.of(view, failing, gate));
        } catch (io.tributary.flower.server.FlowerServerException | InterruptedException e) {
          throw new IllegalStateException(e);
        }
      });
      // While round 2 is under way: the failing client's reason, as it happened.
      assertThat(failing.reached.await(120, TimeUnit.SECONDS)).as("a client failed in round "
          + WATCHED).isTrue();
      PageChecks.await(chromium, "document.getElementById('current-failures')?.textContent ?? ''",
          s -> s.contains("simulated disk failure"), WITHIN);
      assertThat(chromium.eval("document.getElementById('current-heading').textContent"))
          .isEqualTo("Round " + WATCHED + " under way");
      assertThat(chromium.eval("document.getElementById('status').textContent"))
          .isEqualTo("running: round " + WATCHED + " under way");
      // The fit stage: 3 clients sampled, 1 failed so far.
      assertThat(chromium.eval("[...document.querySelectorAll('#stages tr')].slice(1)"
          + ".map(r => [...r.cells].map(c => c.textContent).join('|')).join(';')"))
          .matches("fit\\|3\\|[0-2]\\|1\\|running");
      PageChecks.accessible(chromium);
      chromium.screenshot(PageChecks.SCREENSHOTS.resolve("server-round.png"));
      // The top of the page, as docs/images/live-view-round.png shows it.
      chromium.screenshot(PageChecks.SCREENSHOTS.resolve("server-round-top.png"), 560);
      failing.release.countDown();

      RoundRecord r = gate.awaitRound();
      assertThat(r.failureReasons()).as("round " + WATCHED + " had a failed client").isNotEmpty();

      Duration accuracy = shownAfterRoundEnd(gate,
          "document.querySelector('[data-key=\"latest evaluation accuracy\"] .v')?.textContent",
          percent(r.algorithmMetric("evaluate_accuracy")));
      assertThat(accuracy).as("round " + WATCHED + "'s accuracy on the page").isLessThan(WITHIN);
      String reason = "round " + WATCHED + ": " + r.failureReasons().getFirst();
      assertThat(chromium.eval("[...document.querySelectorAll('#failures li')]"
          + ".map(l => l.textContent).join('\\n')")).contains(reason)
          .contains("simulated disk failure");
      PageChecks.accessible(chromium);
      chromium.screenshot(PageChecks.SCREENSHOTS.resolve("server.png"));
      gate.release.countDown();

      run.get(60, TimeUnit.SECONDS);
    } finally {
      failing.release.countDown();
      gate.release.countDown();
      for (FlowerClientRunner runner : runners) {
        runner.close();
      }
    }
  }

  @Test
  void supernode_appFailsInRound2_pageShowsEachMessageAndTheError() throws Exception {
    SequencedMap<String, Tensor> init = new LinkedHashMap<>();
    init.put("w", Tensor.ofDoubles(Shape.of(3), new double[] {1, 2, 3}));
    ServerConfig config = ServerConfig.builder().address("127.0.0.1", 0).rounds(2)
        .minClients(2).roundTimeout(Duration.ofSeconds(30)).clientWait(Duration.ofSeconds(30))
        .minSuccessFraction(0.5).initial(InitialParameters.given(init)).build();
    FleetApi fleet = FleetApi.builder(FlowerApp.load(JavaNodes.project(dir, "plus-one", 2)))
        .address("127.0.0.1", 0).transport(io.tributary.flower.fleet.server.FleetTransport.HTTP)
        .serveJoin(false).build();
    io.tributary.flower.fleet.FleetTransport nodeHttp =
        io.tributary.flower.fleet.FleetTransport.http();
    try (NodeView view = NodeView.builder().address("127.0.0.1", 0)
            .title("SuperNode with a failing app").start();
        FleetServer server = FleetServer.start(config, fleet);
        SuperNode watched = JavaNodes.node(server.fleetPort()).transport(nodeHttp)
            .clientApp(PlusK.adding(1).failInRound(2).build()).observer(view).build().start();
        SuperNode other = JavaNodes.node(server.fleetPort()).transport(nodeHttp)
            .clientApp(PlusK.adding(1).build()).build().start()) {
      chromium.navigate(view.uri());
      PageChecks.await(chromium, "document.getElementById('status').textContent",
          s -> s.startsWith("active: node "), Duration.ofSeconds(30));
      RunResult result = server.run();
      assertThat(result.rounds().get(1).failureReasons()).as("round 2's failure")
          .anyMatch(f -> f.contains("disk full in round 2"));

      // Round 1's train replied, round 2's failed in the app; both evaluations replied.
      String rows = "[...document.querySelectorAll('#messages tr')].slice(1).map(r => "
          + "[...r.cells].slice(2, 6).map(c => c.textContent).join('|')).join(';')";
      PageChecks.await(chromium, rows, s -> s.contains("train|2|error reply|")
          && s.contains("train|1|replied|"), Duration.ofSeconds(10));
      assertThat(chromium.eval(rows)).contains("disk full in round 2")
          .contains("evaluate|1|replied|");
      assertThat(PageChecks.figure(chromium, "failed")).isEqualTo("1");
      assertThat(Long.parseLong(PageChecks.figure(chromium, "messages handled")))
          .isGreaterThanOrEqualTo(3);
      assertThat(chromium.eval("[...document.querySelectorAll('#messages tr')].slice(1)"
          + ".every(r => /^[0-9.]+ (B|KiB)$/.test(r.cells[7].textContent))")).isEqualTo("true");
      PageChecks.labelledAndLegible(chromium);
      chromium.screenshot(PageChecks.SCREENSHOTS.resolve("supernode.png"));
    }
  }

  @Test
  void token_firstVisitWithTheToken_keepsItAsACookieForThePageAndItsEvents() throws Exception {
    String token = LiveView.newToken();
    try (LiveView view = LiveView.builder().address("127.0.0.1", 0).token(token)
        .title("with a token").start()) {
      chromium.navigate(view.uri());
      assertThat(chromium.eval("document.body.textContent")).contains("needs its token");

      chromium.navigate(java.net.URI.create(view.uri() + "?token=" + token));
      assertThat(chromium.eval("location.href")).as("the token leaves the address")
          .isEqualTo(view.uri().toString());
      assertThat(chromium.eval("document.cookie")).as("the cookie is HttpOnly").isEmpty();
      LiveViewTestRuns.start(view, 3);
      view.roundEnded(LiveViewTestRuns.round(1), new LinkedHashMap<>());
      PageChecks.await(chromium, "document.getElementById('status').textContent",
          "running: round 1 ended"::equals, Duration.ofSeconds(2));
      assertThat(chromium.eval("document.getElementById('connection').textContent"))
          .startsWith("live: updated");
    }
  }

  /** Adds 1 to the model and reports an accuracy; the failing one fails its fit in round 2. */
  private static final class Client extends AbstractFlowerClient {
    private final boolean failing;
    private int fits;

    Client(boolean failing) {
      this.failing = failing;
    }

    @Override
    public List<Tensor> getParameters(Map<String, Scalar> config) {
      return List.of();
    }

    @Override
    public FitRes fit(FitIns ins) {
      fits++;
      if (failing && fits == WATCHED) {
        throw new IllegalStateException("simulated disk failure on this client");
      }
      Tensor k = ins.parameters().get(0);
      return new FitRes(List.of(Tensor.ofFloats(Shape.of(2), k.getFloat(0) + 1,
          k.getFloat(1) + 1)), 5, Map.of());
    }

    @Override
    public EvaluateRes evaluate(EvaluateIns ins) {
      return new EvaluateRes(0.5f, 5, Map.of("accuracy", Scalar.of(0.5 + 0.1 * fits)));
    }
  }
}
