package io.tributary.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.tributary.flower.FlowerClientRunner;
import io.tributary.flower.server.FlowerServer;
import io.tributary.flower.server.RunResult;
import io.tributary.flower.server.ServerConfig;
import io.tributary.flower.training.TrainingClient;
import io.tributary.flower.training.TrainingSettings;
import io.tributary.graph.models.Model;
import io.tributary.learning.FederatedAlgorithm;
import io.tributary.simulation.ModelKind;
import io.tributary.simulation.Seeds;
import io.tributary.simulation.Simulation;
import io.tributary.simulation.SimulationData;
import io.tributary.simulation.SimulationResult;
import io.tributary.simulation.SimulationSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The simulator and the Flower server run their rounds through one round loop: the same
 * algorithm, seed and deterministic clients give the same model bit for bit, whether the clients
 * are simulated datasets or Java clients connected to a server over gRPC.
 */
class SimulatorServerParityTest {
  private static final long SEED = 5;
  private static final int CLIENTS = 4;
  private static final int PER_ROUND = 2;
  private static final int ROUNDS = 3;

  @ParameterizedTest
  @ValueSource(strings = {"fedavg", "fedadam", "fedtrimmedavg"})
  void run_sameSeedAndClients_simulatorAndServerGiveTheSameModelBitForBit(String algorithm)
      throws Exception {
    SimulationSettings settings = SimulationSettings.builder().model(ModelKind.MCLR)
        .algorithm(FederatedAlgorithm.named(algorithm))
        .clients(CLIENTS).clientsPerRound(PER_ROUND).rounds(ROUNDS).seed(SEED).threads(2)
        .localEpochs(2).batchSize(16).learningRate(0.1).build();
    SimulationResult simulated = Simulation.builder(settings).build().run();

    // The same clients, each its own Flower client: the simulation's data, initial model
    // (Seeds.model) and per-round shuffling (Seeds.shuffle, by the server_round the server
    // sends); the server samples with the simulation's sampler seed.
    SimulationData data = SimulationData.load(settings);
    Model model = settings.model().build(data.name(), data.exampleShape(), data.numClasses());
    ServerConfig config = ServerConfig.builder().address("127.0.0.1", 0).rounds(ROUNDS)
        .minClients(PER_ROUND).fractionFit((double) PER_ROUND / CLIENTS)
        .seed(Seeds.sampler(SEED))
        .algorithm(settings.algorithm()).build();
    List<CompletableFuture<FlowerClientRunner.Outcome>> runs = new ArrayList<>();
    RunResult served;
    try (FlowerServer server = FlowerServer.start(config)) {
      for (int k = 0; k < CLIENTS; k++) {
        int client = k;
        TrainingClient c = new TrainingClient(model, data.clientTrain().get(k), data.test(),
            new TrainingSettings(2, 16, 0.1, 0, Seeds.model(SEED)),
            round -> Seeds.shuffle(SEED, round, client));
        runs.add(FlowerClientRunner.builder(c).target("127.0.0.1:" + server.port()).build()
            .start());
        // One at a time, so that the server's client order is the simulation's.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (server.connectedClients().size() < k + 1 && System.nanoTime() < deadline) {
          Thread.sleep(10);
        }
        assertThat(server.connectedClients()).hasSize(k + 1);
      }
      served = server.run();
    }
    for (CompletableFuture<FlowerClientRunner.Outcome> r : runs) {
      r.get(30, TimeUnit.SECONDS);
    }

    assertThat(served.rounds()).hasSize(ROUNDS);
    // Flower's Parameters carry no names (the server calls them arr_0, arr_1, ...); the order is
    // the model's.
    assertThat(List.copyOf(served.finalParameters().values()))
        .isEqualTo(List.copyOf(simulated.finalParameters().values()));
    // The clients' mean training loss: both the round computation's train_loss in float32, the
    // server's weighted by loss_weight (every client reports a loss here), the simulator's by
    // num_examples.
    assertThat(served.rounds().getLast().clientLoss())
        .isCloseTo(simulated.history().last().clientLoss(), within(1e-6));
  }
}
