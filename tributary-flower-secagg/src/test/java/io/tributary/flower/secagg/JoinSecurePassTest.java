package io.tributary.flower.secagg;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.flower.AbstractFlowerClient;
import io.tributary.flower.EvaluateIns;
import io.tributary.flower.EvaluateRes;
import io.tributary.flower.FitIns;
import io.tributary.flower.FitRes;
import io.tributary.flower.FlowerClient;
import io.tributary.flower.FlowerClientException;
import io.tributary.flower.FlowerClientRunner;
import io.tributary.flower.Scalar;
import io.tributary.flower.app.ClientApp;
import io.tributary.flower.app.Context;
import io.tributary.flower.fleet.SuperNode;
import io.tributary.flower.fleet.server.FleetApi;
import io.tributary.flower.fleet.server.FleetServer;
import io.tributary.flower.fleet.server.FleetTransport;
import io.tributary.flower.fleet.server.FlowerApp;
import io.tributary.flower.fleet.server.JavaNodes;
import io.tributary.flower.fleet.server.SimulatedNodes;
import io.tributary.flower.passes.JoinPassLayout;
import io.tributary.flower.passes.NodeComputation;
import io.tributary.flower.passes.NodePasses;
import io.tributary.flower.passes.SecurePassReplyException;
import io.tributary.flower.records.ArrayRecord;
import io.tributary.flower.records.Message;
import io.tributary.flower.records.MetricRecord;
import io.tributary.flower.records.RecordDict;
import io.tributary.flower.server.FlowerServer;
import io.tributary.flower.server.InitialParameters;
import io.tributary.flower.server.RunResult;
import io.tributary.flower.server.SecureAggregation;
import io.tributary.flower.server.ServerConfig;
import io.tributary.learning.FederatedAlgorithm;
import io.tributary.privacy.aggregation.DpAggregator;
import io.tributary.privacy.aggregation.DpNoise;
import io.tributary.privacy.secagg.SecAggPlus;
import io.tributary.privacy.secagg.SecAggSettings;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * DP-FedAvg with {@code DpAggregator.withSecureSum} over the legacy Join transport: four real
 * Java Join clients ({@code FlowerClientRunner} over gRPC on localhost), each served by {@code
 * NodePasses}, compute their own clients' clipped, quantized updates and enter them into SecAgg+
 * with every stage carried in FitIns/FitRes; the server unmasks the survivors' sum only, and the
 * model equals, bit for bit, the simulated run with SecAgg+ as the runtime's secure summation,
 * with Join clients alone (on a Join {@code FlowerServer}) and beside Fleet SuperNodes in one
 * round (on a {@code FleetServer} that serves Join).
 */
@Timeout(240)
class JoinSecurePassTest {
  private static final double[] INIT = {0.5, -0.25, 1.0};
  private static final double[] KS = {0.1, -0.2, 0.3, 0.05};
  private static final Duration TIMEOUT = Duration.ofSeconds(8);

  @TempDir Path dir;

  private final List<FlowerClientRunner> runners = new ArrayList<>();

  private static FederatedAlgorithm algorithm() {
    DpAggregator dp = DpAggregator.fixed(0.5, 1.0, KS.length,
        DpNoise.seededForExperimentsOnlyNotPrivate(5)).clientSide().withSecureSum(12);
    return FederatedAlgorithm.fedAvg().withAggregator(dp);
  }

  /** A Join client adding k to every element, claiming 3 examples; {@code before} runs first. */
  private static FlowerClient plusK(double k, Runnable before) {
    return new AbstractFlowerClient() {
      @Override
      public List<Tensor> getParameters(Map<String, Scalar> config) {
        return List.of(Tensor.ofDoubles(Shape.of(INIT.length), INIT.clone()));
      }

      @Override
      public FitRes fit(FitIns ins) {
        before.run();
        List<Tensor> out = new ArrayList<>();
        for (Tensor t : ins.parameters()) {
          double[] v = new double[(int) t.size()];
          for (int i = 0; i < v.length; i++) {
            v[i] = t.getAsDouble(i) + k;
          }
          out.add(Tensor.ofDoubles(t.shape(), v));
        }
        return new FitRes(out, 3, Map.of("loss", Scalar.of(Math.abs(k))));
      }

      @Override
      public EvaluateRes evaluate(EvaluateIns ins) {
        return new EvaluateRes(0.5f, 1, Map.of());
      }
    };
  }

  /** The same client as a Fleet node's ClientApp. */
  private static ClientApp plusKApp(double k) {
    return ClientApp.builder().train((Message m, Context c) -> {
      ArrayRecord in = (ArrayRecord) m.content().get("arrays");
      Map<String, Tensor> out = new LinkedHashMap<>();
      for (var e : in.toTensors().entrySet()) {
        Tensor t = e.getValue();
        double[] v = new double[(int) t.size()];
        for (int i = 0; i < v.length; i++) {
          v[i] = t.getAsDouble(i) + k;
        }
        out.put(e.getKey(), Tensor.ofDoubles(t.shape(), v));
      }
      return m.reply(RecordDict.of("arrays", ArrayRecord.fromTensors(out), "metrics",
          new MetricRecord(Map.of("num-examples", 3L, "loss", Math.abs(k)))));
    }).evaluate((Message m, Context c) -> m.reply(RecordDict.of("metrics",
        new MetricRecord(Map.of("num-examples", 1L, "loss", 0.5)))))
        .query((m, c) -> m.reply(RecordDict.of("arrays", ArrayRecord.fromTensors(Map.of("w",
            Tensor.ofDoubles(Shape.of(INIT.length), INIT.clone())))))).build();
  }

  private static NodePasses passes() {
    return NodePasses.of(NodeComputation.builder().algorithm(algorithm()).build(),
        new SecAggPassNode());
  }

  private static ServerConfig config(int rounds, int clients) {
    return ServerConfig.builder().minSuccessFraction(0.5).address("127.0.0.1", 0).rounds(rounds)
        .minClients(clients).algorithm(algorithm()).roundTimeout(TIMEOUT)
        .clientWait(Duration.ofSeconds(60)).seed(11).initial(InitialParameters.fromClient())
        .build();
  }

  /** A Fleet server that serves Join too, its secure passes tolerating one dropout of four. */
  private FleetApi fleet() throws Exception {
    return FleetApi.builder(FlowerApp.load(JavaNodes.project(dir, "plus-k")))
        .address("127.0.0.1", 0).transport(FleetTransport.GRPC_RERE).serveJoin(true)
        .securePasses(new SecureAggregation(3, 2, 16, 1.0, 20)).build();
  }

  /**
   * Joins {@code client} to the server at {@code port} and waits until the server has it; its
   * server-given id.
   */
  private String join(int port, FlowerClient client, Supplier<List<String>> connected)
      throws Exception {
    Set<String> before = new HashSet<>(connected.get());
    FlowerClientRunner runner = FlowerClientRunner.builder(client).target("127.0.0.1:" + port)
        .build();
    runners.add(runner);
    runner.start();
    return await(before, connected);
  }

  private static String await(Set<String> before, Supplier<List<String>> connected)
      throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (System.nanoTime() < deadline) {
      for (String id : connected.get()) {
        if (!before.contains(id)) {
          return id;
        }
      }
      Thread.sleep(20);
    }
    throw new IllegalStateException("no client joined within 30 s");
  }

  private void closeRunners() throws InterruptedException {
    for (FlowerClientRunner r : runners) {
      r.close();
    }
    runners.clear();
  }

  /**
   * The simulated run: the same process over the same clients in one JVM, each client's work
   * answered as its transport answers it (a Join client's FlowerClient, a node's ClientApp through
   * the Fleet message layout), SecAgg+ as the runtime's secure summation; {@code failing}
   * clients' training throws.
   */
  private static double[] simulated(Map<String, Object> clients, Set<String> failing,
      ServerConfig config, int rounds) {
    java.util.SequencedMap<String, Tensor> init = new LinkedHashMap<>();
    init.put("w", Tensor.ofDoubles(Shape.of(INIT.length), INIT.clone()));
    return SimulatedNodes.runClients(algorithm(), init, clients, failing, config, rounds,
        SecAggPlus.secureSummation(SecAggSettings.of(16, 9, 16, 3)));
  }

  private static double[] doubles(Tensor t) {
    double[] out = new double[(int) t.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = t.getAsDouble(i);
    }
    return out;
  }

  private static double[] model(RunResult r) {
    return doubles(r.finalParameters().values().iterator().next());
  }

  @Test
  void run_dpFedAvgWithSecureSumOnFourJoinClients_equalsTheSimulatedRunBitForBit()
      throws Exception {
    ServerConfig config = config(2, KS.length);
    try (FlowerServer server = FlowerServer.start(config)) {
      Map<String, Object> clients = new LinkedHashMap<>();
      try {
        for (double k : KS) {
          FlowerClient plain = plusK(k, () -> { });
          clients.put(join(server.port(), passes().serve(plain), server::connectedClients),
              plain);
        }
        RunResult result = server.run();

        assertThat(result.rounds()).hasSize(2);
        assertThat(result.rounds()).allSatisfy(r -> assertThat(r.failureReasons()).isEmpty());
        double[] got = model(result);
        assertThat(got).isEqualTo(simulated(clients, Set.of(), config, 2));
        assertThat(got).isNotEqualTo(INIT);
      } finally {
        closeRunners();
      }
    }
  }

  /**
   * A Join client whose training outlasts the stage's timeout drops out of SecAgg+ after the
   * others shared keys with it: the survivors' sum is unmasked without it, and the model equals
   * the simulated run in which its client fails.
   */
  @Test
  void run_joinClientTimesOutWhileMasking_equalsTheSimulatedRunWhereItsClientFails()
      throws Exception {
    ServerConfig config = config(1, KS.length);
    CountDownLatch release = new CountDownLatch(1);
    // Four clients, each every other's neighbour; two of a client's three neighbours recover
    // its secrets, so a round survives one client that drops out.
    try (FlowerServer server = FlowerServer.start(config, new SecureAggregation(3, 2, 16, 1.0,
        20))) {
      Map<String, Object> clients = new LinkedHashMap<>();
      String slow = null;
      try {
        for (int i = 0; i < KS.length; i++) {
          boolean isSlow = i == 1;
          FlowerClient plain = plusK(KS[i], () -> {
            if (isSlow) {
              try {
                release.await(TIMEOUT.toSeconds() * 4, TimeUnit.SECONDS);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            }
          });
          String id = join(server.port(), passes().serve(plain), server::connectedClients);
          clients.put(id, plain);
          if (isSlow) {
            slow = id;
          }
        }
        RunResult result = server.run();
        release.countDown();

        double[] got = model(result);
        assertThat(got).isEqualTo(simulated(clients, Set.of(slow), config, 1));
        assertThat(got).isNotEqualTo(simulated(clients, Set.of(), config, 1));
        String slowId = slow;
        assertThat(result.rounds().get(0).failureReasons().stream()
            .filter(r -> r.startsWith("fit: ")).toList()).singleElement().satisfies(r ->
                assertThat(r).contains(slowId));
      } finally {
        release.countDown();
        closeRunners();
      }
    }
  }

  /**
   * Two Fleet SuperNodes and two Join clients in one round: each takes its stages over its own
   * transport, and the model equals the simulated run of the four clients bit for bit.
   */
  @Test
  void run_superNodesAndJoinClientsInOneRound_equalsTheSimulatedRunBitForBit()
      throws Exception {
    ServerConfig config = config(2, KS.length);
    try (FleetServer server = FleetServer.start(config, fleet())) {
      Map<String, Object> clients = new LinkedHashMap<>();
      List<SuperNode> nodes = new ArrayList<>();
      try {
        for (int i = 0; i < KS.length; i++) {
          if (i % 2 == 0) {
            ClientApp app = plusKApp(KS[i]);
            Set<String> before = new HashSet<>(server.connectedClients());
            nodes.add(JavaNodes.start(server.fleetPort(), passes().serve(app)));
            clients.put(await(before, server::connectedClients), app);
          } else {
            FlowerClient plain = plusK(KS[i], () -> { });
            clients.put(join(server.joinPort().orElseThrow(), passes().serve(plain),
                server::connectedClients), plain);
          }
        }
        RunResult result = server.run();

        assertThat(result.rounds()).hasSize(2);
        assertThat(result.rounds()).allSatisfy(r -> assertThat(r.failureReasons()).isEmpty());
        assertThat(model(result)).isEqualTo(simulated(clients, Set.of(), config, 2));
      } finally {
        closeRunners();
        JavaNodes.closeAll(nodes);
      }
    }
  }

  /**
   * A Join client whose FitRes carries an entry of no reply record fails the pass with a typed
   * error naming the client and the stage, before anything is unmasked.
   */
  @Test
  void run_joinClientRepliesWithAForeignEntry_failsTypedNamingTheClientAndStage()
      throws Exception {
    ServerConfig config = config(1, KS.length);
    try (FleetServer server = FleetServer.start(config, fleet())) {
      String bad = null;
      try {
        for (int i = 0; i < KS.length; i++) {
          FlowerClient served = passes().serve(plusK(KS[i], () -> { }));
          if (i == 0) {
            served = new Tampering(served);
          }
          String id = join(server.joinPort().orElseThrow(), served, server::connectedClients);
          if (i == 0) {
            bad = id;
          }
        }
        Throwable thrown = org.assertj.core.api.Assertions.catchThrowable(server::run);
        String badId = bad;
        assertThat(thrown).isInstanceOfSatisfying(SecurePassReplyException.class, e -> {
          assertThat(e.node()).isEqualTo(badId);
          assertThat(e.stage()).isEqualTo("advertise_keys");
          assertThat(e.getMessage()).contains(badId + "'s reply at stage advertise_keys is "
              + "malformed").contains("tributary.model/w");
        });
      } finally {
        closeRunners();
      }
    }
  }

  /** A served client whose stage replies carry one entry more, under no reply record. */
  private record Tampering(FlowerClient served) implements FlowerClient {
    @Override
    public Map<String, Scalar> getProperties(Map<String, Scalar> config)
        throws FlowerClientException {
      return served.getProperties(config);
    }

    @Override
    public List<Tensor> getParameters(Map<String, Scalar> config) throws FlowerClientException {
      return served.getParameters(config);
    }

    @Override
    public FitRes fit(FitIns ins) throws FlowerClientException {
      FitRes res = served.fit(ins);
      if (!JoinPassLayout.isStage(ins.config())) {
        return res;
      }
      Map<String, Scalar> metrics = new LinkedHashMap<>(res.metrics());
      metrics.put("tributary.model/w", Scalar.of(1.0));
      return new FitRes(res.parameters(), res.numExamples(), metrics);
    }

    @Override
    public EvaluateRes evaluate(EvaluateIns ins) throws FlowerClientException {
      return served.evaluate(ins);
    }
  }
}
