package io.tributary.guide;

import io.tributary.data.Digits;
import io.tributary.data.FederatedDataset;
import io.tributary.data.Partitioner;
import io.tributary.data.TrainTestSplit;
import io.tributary.flower.FlowerClientRunner;
import io.tributary.flower.server.FlowerServer;
import io.tributary.flower.server.RunResult;
import io.tributary.flower.server.ServerConfig;
import io.tributary.flower.training.TrainingClient;
import io.tributary.flower.training.TrainingSettings;
import io.tributary.graph.models.Model;
import io.tributary.graph.models.Models;
import io.tributary.learning.rounds.RoundRecord;
import io.tributary.tensor.DType;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** A Flower server and two Java clients in one JVM, over gRPC on the loopback interface. */
public final class FlowerInProcess {
  private FlowerInProcess() {}

  public static void main(String[] args) throws Exception {
    Model model = Models.softmaxRegression("mclr", Digits.NUM_FEATURES, Digits.NUM_CLASSES,
        DType.FLOAT32);
    TrainTestSplit split = Digits.load(0.2, 1);
    FederatedDataset data = FederatedDataset.partitioned("digits", split.train(),
        Partitioner.parse("iid").partition(split.train(), 2, 1));
    TrainingSettings training = new TrainingSettings(1, 16, 0.05, 0, 7);

    ServerConfig config = ServerConfig.builder()
        .address("127.0.0.1", 0).rounds(3).minClients(2).seed(1).build();
    List<CompletableFuture<FlowerClientRunner.Outcome>> clients = new ArrayList<>();
    try (FlowerServer server = FlowerServer.start(config)) {
      for (int i = 0; i < 2; i++) {
        TrainingClient client =
            new TrainingClient(model, data.train().get(i), split.test(), training);
        clients.add(FlowerClientRunner.builder(client)
            .target("127.0.0.1:" + server.port()).build().start());
      }
      RunResult result = server.run();   // waits for two clients, then runs every round
      for (RoundRecord m : result.rounds()) {
        System.out.printf(Locale.ROOT, "round %d: %d clients, client loss %.4f, eval loss %.4f%n",
            m.round(), m.clients(), m.clientLoss(), m.evalLoss());
      }
      System.out.println("parameters: " + result.finalParameters().keySet());
    }   // close() tells the clients to disconnect
    for (CompletableFuture<FlowerClientRunner.Outcome> client : clients) {
      System.out.println("client: " + client.get(10, TimeUnit.SECONDS));
    }
  }
}
