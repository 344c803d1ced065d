package io.tributary.flower.server;

import io.tributary.learning.FederatedAlgorithm;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.ManagedChannel;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.tributary.flower.AbstractFlowerClient;
import io.tributary.flower.Backoff;
import io.tributary.flower.EvaluateIns;
import io.tributary.flower.EvaluateRes;
import io.tributary.flower.FitIns;
import io.tributary.flower.FitRes;
import io.tributary.flower.FlowerClient;
import io.tributary.flower.FlowerClientRunner;
import io.tributary.flower.Scalar;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The Java server with Java SDK clients ({@link FlowerClientRunner}s over their own channels):
 * FedProx's {@code proximal_mu} reaches them. (Graph-backed training clients with a dying and a
 * garbage client: {@code TrainingClientEndToEndTest} in tributary-flower-training.)
 */
class SdkEndToEndTest {
  private static final Backoff QUICK = new Backoff(Duration.ofMillis(20), Duration.ofMillis(50),
      2, 0, 2, 0);

  private final String name = InProcessServerBuilder.generateName();
  private final List<ManagedChannel> channels = new ArrayList<>();
  private final List<FlowerClientRunner> runners = new ArrayList<>();
  private FlowerServer server;

  @AfterEach
  void tearDown() throws InterruptedException {
    if (server != null) {
      server.close();
    }
    for (FlowerClientRunner r : runners) {
      r.close();
    }
    for (ManagedChannel c : channels) {
      c.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
  }

  @Test
  void run_fedProx_deliversProximalMuToSdkClients() throws Exception {
    List<Tensor> init = List.of(Tensor.ofFloats(Shape.of(2), 1, 2));
    server = start(ServerConfig.builder().rounds(2).minClients(2)
        .algorithm(FederatedAlgorithm.named("fedprox", java.util.Map.of("proximal_mu", 0.25))).initial(named(init)));
    RecordingClient a = new RecordingClient();
    RecordingClient b = new RecordingClient();
    join(a, List.of("numpy.ndarray"));
    join(b, List.of("proto.ndarray"));
    awaitClients(2);

    RunResult result = server.run();

    assertThat(result.rounds()).allSatisfy(m -> assertThat(m.failures()).isZero());
    for (RecordingClient c : List.of(a, b)) {
      assertThat(c.fitConfigs).hasSize(2).allSatisfy(config ->
          assertThat(config).containsEntry("proximal_mu", Scalar.of(0.25)));
    }
    // Each client adds 1: the mean update is 1 per round.
    assertThat(result.finalParameters().get("kernel"))
        .isEqualTo(Tensor.ofFloats(Shape.of(2), 3, 4));
  }

  private FlowerServer start(ServerConfig.Builder config) throws Exception {
    return FlowerServer.start(config.address("localhost", 0).clientWait(Duration.ofSeconds(20))
        .roundTimeout(Duration.ofSeconds(30)).shutdownGrace(Duration.ofSeconds(2)).build(),
        InProcessServerBuilder.forName(name), Behaviours.REGISTRY);
  }

  /** Starts a runner for {@code client} on its own channel and returns the channel. */
  private ManagedChannel join(FlowerClient client, List<String> types) throws Exception {
    ManagedChannel channel = InProcessChannelBuilder.forName(name).build();
    channels.add(channel);
    FlowerClientRunner runner = FlowerClientRunner.builder(client).channel(channel)
        .tensorTypes(types).backoff(QUICK).build();
    runners.add(runner);
    CompletableFuture<FlowerClientRunner.Outcome> unused = runner.start();
    return channel;
  }

  private void awaitClients(int n) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (server.connectedClients().size() < n) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("expected " + n + " clients, have "
            + server.connectedClients());
      }
      Thread.sleep(5);
    }
  }

  private static InitialParameters.Given named(List<Tensor> tensors) {
    LinkedHashMap<String, Tensor> m = new LinkedHashMap<>();
    m.put("kernel", tensors.get(0));
    if (tensors.size() > 1) {
      m.put("bias", tensors.get(1));
    }
    return new InitialParameters.Given(m);
  }

  /** Adds 1 to every parameter and records the fit configs it receives. */
  private static final class RecordingClient extends AbstractFlowerClient {
    final List<Map<String, Scalar>> fitConfigs = new CopyOnWriteArrayList<>();

    @Override
    public List<Tensor> getParameters(Map<String, Scalar> config) {
      return List.of();
    }

    @Override
    public FitRes fit(FitIns ins) {
      fitConfigs.add(ins.config());
      float[] v = new float[2];
      for (int i = 0; i < 2; i++) {
        v[i] = ins.parameters().get(0).getFloat(i) + 1;
      }
      return new FitRes(List.of(Tensor.ofFloats(Shape.of(2), v)), 5, Map.of());
    }

    @Override
    public EvaluateRes evaluate(EvaluateIns ins) {
      return new EvaluateRes(0.5f, 5, Map.of());
    }
  }
}
