package io.tributary.ui;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.learning.rounds.RoundListener;
import io.tributary.learning.rounds.RoundRecord;
import io.tributary.simulation.Byzantine;
import io.tributary.simulation.ModelKind;
import io.tributary.simulation.Simulation;
import io.tributary.simulation.SimulationResult;
import io.tributary.simulation.SimulationSettings;
import io.tributary.simulation.SimulationStoppedException;
import io.tributary.tensor.Tensor;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.SequencedMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A simulation's page counts the clients of the stage under way as each one ends. */
class LiveViewSimulationTest {
  @TempDir Path dir;

  /**
   * Holds the client thread that tells round 1's last fit client, after the page was told it,
   * so that the test reads the page while the fit stage is still under way.
   */
  private static final class LastClientGate implements RoundListener {
    final int cohort;
    final AtomicInteger told = new AtomicInteger();
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

  private static String page(HttpClient http, LiveView view, String text)
      throws IOException, InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(3).toNanos();
    String body;
    do {
      body = http.send(HttpRequest.newBuilder(view.uri()).build(),
          HttpResponse.BodyHandlers.ofString()).body();
    } while (!body.contains(text) && System.nanoTime() < deadline);
    return body;
  }

  @Test
  void simulate_fitStageUnderWay_pageShowsItsReportedAndFailedClientsWithTheReason()
      throws Exception {
    // Client updates scaled by 1e300 are infinite: the runtime refuses that client's work.
    SimulationSettings settings = SimulationSettings.builder().clients(6).clientsPerRound(4)
        .rounds(2).localEpochs(1).batchSize(16).learningRate(0.1).seed(3)
        .model(ModelKind.parse("mclr")).threads(2).byzantine(Byzantine.parse("1:scale:1e300"))
        .out(dir.resolve("run")).build();
    LastClientGate gate = new LastClientGate(4);
    try (LiveView view = LiveView.builder().address("127.0.0.1", 0).title("live counts").start();
        HttpClient http = HttpClient.newHttpClient()) {
      CompletableFuture<SimulationResult> run = CompletableFuture.supplyAsync(() -> {
        try {
          return Simulation.builder(settings).listener(view).listener(gate).build().run();
        } catch (IOException | SimulationStoppedException e) {
          throw new IllegalStateException(e);
        }
      });
      assertThat(gate.reached.await(60, TimeUnit.SECONDS)).as("round 1's clients ran").isTrue();

      String row = "<tr><td>fit</td><td class=\"n\">4</td><td class=\"n\">3</td>"
          + "<td class=\"n\">1</td><td>running</td></tr>";
      String body = page(http, view, row);
      assertThat(body).contains(row).contains("not finite");
      gate.release.countDown();

      SimulationResult result = run.get(60, TimeUnit.SECONDS);
      assertThat(result.history().rounds()).hasSize(2);
    } finally {
      gate.release.countDown();
    }
  }
}
