package io.tributary.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.flower.FlowerClientRunner;
import io.tributary.flower.server.FlowerServer;
import io.tributary.flower.server.ServerConfig;
import io.tributary.flower.training.TrainingClient;
import io.tributary.flower.training.TrainingSettings;
import io.tributary.graph.models.Model;
import io.tributary.learning.rounds.RoundListener;
import io.tributary.learning.rounds.RoundRecord;
import io.tributary.learning.rounds.RunEnd;
import io.tributary.learning.rounds.RunStart;
import io.tributary.simulation.ModelKind;
import io.tributary.simulation.Seeds;
import io.tributary.simulation.Simulation;
import io.tributary.simulation.SimulationData;
import io.tributary.simulation.SimulationSettings;
import io.tributary.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;
import java.util.SequencedMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * One {@link RoundListener}, written once, attached to a simulation and to a Flower server with
 * Java clients: both tell it the run's start, each round, the run's end and to close, in order.
 */
class RoundListenerBindingsTest {
  private static final long SEED = 5;
  private static final int CLIENTS = 2;
  private static final int ROUNDS = 2;

  /** Records what it is told, one line an event. */
  static final class Recorder implements RoundListener {
    final List<String> events = new ArrayList<>();
    RunStart start;
    RunEnd end;

    @Override
    public void started(RunStart start) {
      this.start = start;
      events.add("started " + start.firstRound());
    }

    @Override
    public void roundEnded(RoundRecord metrics, SequencedMap<String, Tensor> parameters) {
      events.add("round " + metrics.round());
    }

    @Override
    public void finished(RunEnd end) {
      this.end = end;
      events.add("finished");
    }

    @Override
    public void close() {
      events.add("close");
    }
  }

  private static SimulationSettings settings() {
    return SimulationSettings.builder().model(ModelKind.MCLR).clients(CLIENTS)
        .clientsPerRound(CLIENTS).rounds(ROUNDS).seed(SEED).threads(2).localEpochs(1)
        .batchSize(16).learningRate(0.1).build();
  }

  private static void assertToldInOrder(Recorder r) {
    assertThat(r.events).containsExactly("started 1", "round 1", "round 2", "finished", "close");
    assertThat(r.start.previous()).isEmpty();
    assertThat(r.start.settingsDisplay()).isNotEmpty();
    assertThat(r.end.rounds()).extracting(RoundRecord::round).containsExactly(1, 2);
    assertThat(r.end.finalParameters()).isPresent();
    assertThat(r.end.finalParameters().get()).isNotEmpty();
    assertThat(r.end.outcome()).containsIgnoringCase("completed " + ROUNDS + " rounds");
  }

  @Test
  void simulationRun_roundListenerAttached_toldStartRoundsEndAndCloseInOrder() throws Exception {
    Recorder recorder = new Recorder();
    Simulation.builder(settings()).listener(recorder).build().run();

    assertToldInOrder(recorder);
  }

  @Test
  void flowerServerRun_roundListenerWithJavaClients_toldStartRoundsEndAndCloseInOrder()
      throws Exception {
    SimulationSettings settings = settings();
    SimulationData data = SimulationData.load(settings);
    Model model = settings.model().build(data.name(), data.exampleShape(), data.numClasses());
    ServerConfig config = ServerConfig.builder().address("127.0.0.1", 0).rounds(ROUNDS)
        .minClients(CLIENTS).seed(Seeds.sampler(SEED))
        .algorithm(settings.algorithm()).build();
    Recorder recorder = new Recorder();
    List<CompletableFuture<FlowerClientRunner.Outcome>> runs = new ArrayList<>();
    try (FlowerServer server = FlowerServer.start(config)) {
      for (int k = 0; k < CLIENTS; k++) {
        int client = k;
        TrainingClient c = new TrainingClient(model, data.clientTrain().get(k), data.test(),
            new TrainingSettings(1, 16, 0.1, 0, Seeds.model(SEED)),
            round -> Seeds.shuffle(SEED, round, client));
        runs.add(FlowerClientRunner.builder(c).target("127.0.0.1:" + server.port()).build()
            .start());
      }
      server.run(recorder);
    }
    for (CompletableFuture<FlowerClientRunner.Outcome> r : runs) {
      r.get(30, TimeUnit.SECONDS);
    }

    assertToldInOrder(recorder);
    assertThat(recorder.start.settingsDisplay()).containsEntry("rounds", "2");
  }
}
