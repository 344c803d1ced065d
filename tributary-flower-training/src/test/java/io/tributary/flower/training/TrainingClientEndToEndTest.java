package io.tributary.flower.training;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.ManagedChannel;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.tributary.data.Dataset;
import io.tributary.data.Digits;
import io.tributary.data.Partition;
import io.tributary.data.Partitioner;
import io.tributary.data.TrainTestSplit;
import io.tributary.flower.AbstractFlowerClient;
import io.tributary.flower.Backoff;
import io.tributary.flower.EvaluateIns;
import io.tributary.flower.EvaluateRes;
import io.tributary.flower.FitIns;
import io.tributary.flower.FitRes;
import io.tributary.flower.FlowerClient;
import io.tributary.flower.FlowerClientRunner;
import io.tributary.flower.OperationNotImplementedException;
import io.tributary.flower.Scalar;
import io.tributary.flower.server.FlowerServer;
import io.tributary.flower.server.InitialParameters;
import io.tributary.flower.server.RunResult;
import io.tributary.flower.server.ServerConfig;
import io.tributary.graph.models.Model;
import io.tributary.graph.models.Models;
import io.tributary.learning.rounds.RoundRecord;
import io.tributary.tensor.DType;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.serialization.SerializerRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The Java server with Java SDK clients ({@link FlowerClientRunner}s over their own channels):
 * graph-backed training clients on digits partitions, one that dies mid-fit and one that answers
 * garbage.
 */
class TrainingClientEndToEndTest {
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
  void run_trainingClientsWithADyingAndAGarbageClient_trainsAndCountsFailures()
      throws Exception {
    Model model = Models.softmaxRegression("mclr", 64, 10, DType.FLOAT32);
    TrainTestSplit split = Digits.load(0.2, 1);
    Partition trainParts = new Partitioner.Iid().partition(split.train(), 3, 1);
    Partition testParts = new Partitioner.Iid().partition(split.test(), 3, 1);
    TrainingSettings settings = new TrainingSettings(1, 16, 0.05, 0, 7);
    List<Tensor> init = new TrainingClient(model, split.train(), split.test(), settings)
        .getParameters(Map.of());
    server = start(ServerConfig.builder().rounds(3).minClients(4).seed(3)
        .initial(named(init)));

    for (int i = 0; i < 3; i++) {
      Dataset train = split.train().subset("train-" + i, trainParts.client(i));
      Dataset test = split.test().subset("test-" + i, testParts.client(i));
      // Clients of both tensor types share the rounds.
      join(new TrainingClient(model, train, test, settings),
          i == 0 ? List.of("proto.ndarray") : List.of("numpy.ndarray"));
    }
    DyingClient dying = new DyingClient(init);
    dying.channel = join(dying, List.of("numpy.ndarray"));
    join(new GarbageClient(init), List.of("proto.ndarray", "numpy.ndarray"));
    awaitClients(5);

    RunResult result = server.run();

    List<RoundRecord> rounds = result.rounds();
    assertThat(rounds).extracting(RoundRecord::round).containsExactly(1, 2, 3);
    // Round 1: the dying client's fit, the garbage client's fit and its evaluate fail.
    assertThat(rounds.get(0).clients()).isEqualTo(5);
    assertThat(rounds.get(0).failures()).isEqualTo(3);
    assertThat(rounds.get(0).failureReasons()).anySatisfy(r -> assertThat(r)
        .startsWith("fit: ").contains("stream ended"));
    assertThat(rounds.get(0).failureReasons()).anySatisfy(r -> assertThat(r)
        .startsWith("fit: ").contains("do not fit the model"));
    assertThat(rounds.get(0).failureReasons()).anySatisfy(r -> assertThat(r)
        .startsWith("evaluate: ").contains("EVALUATE_NOT_IMPLEMENTED"));
    // The dying client is gone for good; the garbage client fails fit and evaluate each round.
    for (RoundRecord m : rounds.subList(1, 3)) {
      assertThat(m.clients()).isEqualTo(4);
      assertThat(m.failures()).isEqualTo(2);
    }
    assertThat(server.connectedClients()).hasSize(4);
    double fit1 = rounds.get(0).clientLoss();
    double fit3 = rounds.get(2).clientLoss();
    double eval1 = rounds.get(0).evalLoss();
    double eval3 = rounds.get(2).evalLoss();
    assertThat(fit3).isLessThan(fit1);
    assertThat(eval3).isLessThan(eval1);
    assertThat(eval3).as("eval loss round 3 vs round 1 (%s)", eval1).isLessThan(0.8 * eval1);
    assertThat(result.finalParameters().keySet()).containsExactly("kernel", "bias");
    for (Tensor t : result.finalParameters().values()) {
      for (long i = 0; i < t.shape().size(); i++) {
        assertThat(Double.isFinite(t.getAsDouble(i))).as("parameter %d is finite", i).isTrue();
      }
    }
    assertThat(result.finalParameters().get("kernel").shape()).isEqualTo(Shape.of(64, 10));
    assertThat(dying.fits).isEqualTo(1);
  }

  private FlowerServer start(ServerConfig.Builder config) throws Exception {
    return FlowerServer.start(config.address("localhost", 0).clientWait(Duration.ofSeconds(20))
        .roundTimeout(Duration.ofSeconds(30)).shutdownGrace(Duration.ofSeconds(2)).build(),
        InProcessServerBuilder.forName(name), SerializerRegistry.load());
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

  /** Shuts its own channel down abruptly while fitting, as a crashing process would. */
  private static final class DyingClient extends AbstractFlowerClient {
    private final List<Tensor> init;
    volatile ManagedChannel channel;
    volatile int fits;

    DyingClient(List<Tensor> init) {
      this.init = init;
    }

    @Override
    public List<Tensor> getParameters(Map<String, Scalar> config) {
      return init;
    }

    @Override
    public FitRes fit(FitIns ins) {
      fits++;
      channel.shutdownNow();
      return new FitRes(ins.parameters(), 10, Map.of());
    }

    @Override
    public EvaluateRes evaluate(EvaluateIns ins) {
      return new EvaluateRes(0, 10, Map.of());
    }
  }

  /** Answers fit with tensors of the wrong shape, and implements no evaluate. */
  private static final class GarbageClient extends AbstractFlowerClient {
    private final List<Tensor> init;

    GarbageClient(List<Tensor> init) {
      this.init = init;
    }

    @Override
    public List<Tensor> getParameters(Map<String, Scalar> config) {
      return init;
    }

    @Override
    public FitRes fit(FitIns ins) {
      Tensor kernel = ins.parameters().get(0);
      return new FitRes(List.of(kernel.reshape(10, 64), ins.parameters().get(1)),
          1_000_000, Map.of("loss", Scalar.of(-1e9)));
    }

    @Override
    public EvaluateRes evaluate(EvaluateIns ins) throws OperationNotImplementedException {
      throw new OperationNotImplementedException("evaluate");
    }
  }
}
