package io.tributary.flower.secagg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.flower.app.ClientApp;
import io.tributary.flower.fleet.SuperNode;
import io.tributary.flower.fleet.server.FleetApi;
import io.tributary.flower.fleet.server.FleetServer;
import io.tributary.flower.fleet.server.FleetTransport;
import io.tributary.flower.fleet.server.JavaNodes;
import io.tributary.flower.fleet.server.PlusK;
import io.tributary.flower.fleet.server.SimulatedNodes;
import io.tributary.flower.fleet.server.FlowerApp;
import io.tributary.flower.passes.NodeComputation;
import io.tributary.flower.passes.NodePasses;
import io.tributary.flower.passes.SecurePassNode;
import io.tributary.flower.records.Message;
import io.tributary.flower.server.InitialParameters;
import io.tributary.flower.server.RunResult;
import io.tributary.flower.server.SecureAggregation;
import io.tributary.flower.server.ServerConfig;
import io.tributary.learning.FederatedAlgorithm;
import io.tributary.privacy.aggregation.DpAggregator;
import io.tributary.privacy.aggregation.DpNoise;
import io.tributary.privacy.secagg.SecAggException;
import io.tributary.privacy.secagg.SecAggMessage;
import io.tributary.privacy.secagg.SecAggPlus;
import io.tributary.privacy.secagg.SecAggSettings;
import io.tributary.privacy.secagg.SecAggWire;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SequencedMap;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * DP-FedAvg with {@code DpAggregator.withSecureSum} on a Fleet server with four real Java SuperNodes:
 * each node computes its own client's clipped, quantized update and enters it into SecAgg+ over
 * Fleet messages, the server unmasks the survivors' sum only, and the model equals, bit for bit,
 * the simulated run of the same process with SecAgg+ as the runtime's secure summation.
 */
@Timeout(240)
class FleetSecurePassTest {
  private static final double[] INIT = {0.5, -0.25, 1.0};
  private static final double[] KS = {0.1, -0.2, 0.3, 0.05};
  private static final Duration TIMEOUT = Duration.ofSeconds(8);

  @TempDir Path dir;

  /** DP-FedAvg with client-side clipping whose sums are secure, seeded noise. */
  private static FederatedAlgorithm algorithm() {
    DpAggregator dp = DpAggregator.fixed(0.5, 1.0, KS.length,
        DpNoise.seededForExperimentsOnlyNotPrivate(5)).clientSide().withSecureSum(12);
    return FederatedAlgorithm.fedAvg().withAggregator(dp);
  }

  /** Adds k to every element and claims 3 examples; {@code beforeTraining} sees each fit. */
  private static ClientApp plusK(double k, UnaryOperator<Message> beforeTraining) {
    return PlusK.adding(k).examples(3).beforeTraining(beforeTraining).answerQueryWith(init())
        .build();
  }

  private static SequencedMap<String, Tensor> init() {
    SequencedMap<String, Tensor> init = new LinkedHashMap<>();
    init.put("w", Tensor.ofDoubles(Shape.of(INIT.length), INIT.clone()));
    return init;
  }

  private ServerConfig config(int rounds) {
    return ServerConfig.builder().minSuccessFraction(0.5).address("127.0.0.1", 0).rounds(rounds).minClients(KS.length)
        .algorithm(algorithm()).roundTimeout(TIMEOUT).clientWait(Duration.ofSeconds(60))
        .seed(11).initial(InitialParameters.fromClient()).build();
  }

  private FleetApi fleet() throws Exception {
    Path app = JavaNodes.project(dir, "plus-k");
    return FleetApi.builder(FlowerApp.load(app)).address("127.0.0.1", 0)
        .transport(FleetTransport.GRPC_RERE).serveJoin(false)
        // Four nodes, each every other's neighbour; two of a node's three neighbours recover
        // its secrets, so a round survives one node that drops out.
        .securePasses(new SecureAggregation(3, 2, 16, 1.0, 20)).build();
  }

  private static SuperNode node(FleetServer server, ClientApp app, SecurePassNode secure)
      throws Exception {
    ClientApp served = NodePasses.of(NodeComputation.builder().algorithm(algorithm()).build(),
        secure).serve(app);
    return JavaNodes.start(server.fleetPort(), served);
  }

  /**
   * The simulated run: the same process over the same apps in one JVM, SecAgg+ as the runtime's
   * secure summation among the simulated clients; {@code failing} clients' training throws.
   */
  private static double[] simulated(Map<String, ClientApp> apps, Set<String> failing,
      ServerConfig config, int rounds) {
    return SimulatedNodes.run(algorithm(), init(), apps, failing, config, rounds,
        SecAggPlus.secureSummation(SecAggSettings.of(16, 9, 16, 3)));
  }

  /** The final model's first tensor's elements. */
  private static double[] first(RunResult result) {
    return SimulatedNodes.doubles(result.finalParameters().values().iterator().next());
  }

  @Test
  void run_dpFedAvgWithSecureSumOnFourNodes_equalsTheSimulatedRunBitForBit()
      throws Exception {
    ServerConfig config = config(2);
    try (FleetServer server = FleetServer.start(config, fleet())) {
      List<SuperNode> nodes = new ArrayList<>();
      List<ClientApp> plain = new ArrayList<>();
      try {
        for (double k : KS) {
          ClientApp app = plusK(k, m -> m);
          nodes.add(node(server, app, new SecAggPassNode()));
          plain.add(app);
        }
        RunResult result = server.run();
        Map<String, ClientApp> apps = JavaNodes.byId(nodes, plain);

        assertThat(result.rounds()).hasSize(2);
        double[] got = first(result);
        assertThat(got).isEqualTo(simulated(apps, Set.of(), config, 2));
        assertThat(got).isNotEqualTo(INIT);
      } finally {
        JavaNodes.closeAll(nodes);
      }
    }
  }

  /**
   * A node whose training outlasts the stage's timeout drops out of SecAgg+ after the others
   * shared keys with it: the survivors' sum is unmasked without it, and the model equals the
   * simulated run in which its client fails.
   */
  @Test
  void run_nodeTimesOutWhileMasking_equalsTheSimulatedRunWhereItsClientFails()
      throws Exception {
    ServerConfig config = config(1);
    java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
    try (FleetServer server = FleetServer.start(config, fleet())) {
      List<SuperNode> nodes = new ArrayList<>();
      List<ClientApp> plain = new ArrayList<>();
      try {
        for (int i = 0; i < KS.length; i++) {
          boolean slow = i == 1;
          ClientApp app = plusK(KS[i], m -> {
            if (slow) {
              try {
                release.await(TIMEOUT.toSeconds() * 4, java.util.concurrent.TimeUnit.SECONDS);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            }
            return m;
          });
          nodes.add(node(server, app, new SecAggPassNode()));
          plain.add(app);
        }
        RunResult result = server.run();
        release.countDown();
        Map<String, ClientApp> apps = JavaNodes.byId(nodes, plain);
        String slow = List.copyOf(apps.keySet()).get(1);

        double[] got = first(result);
        assertThat(got).isEqualTo(simulated(apps, Set.of(slow), config, 1));
        assertThat(got).isNotEqualTo(simulated(apps, Set.of(), config, 1));
        // Its fit failed as a dropped-out client (its evaluation, which waits on the same busy
        // node, may fail too).
        assertThat(result.rounds().get(0).failureReasons().stream()
            .filter(r -> r.startsWith("fit: ")).toList()).singleElement().satisfies(r ->
                assertThat(r).contains(slow));
      } finally {
        release.countDown();
        JavaNodes.closeAll(nodes);
      }
    }
  }

  /**
   * A node that sends a tampered masked input (one element short) fails the pass with the
   * protocol's typed error naming the node; no sum is revealed.
   */
  @Test
  void run_nodeSendsATamperedMaskedInput_failsTypedNamingTheNode() throws Exception {
    ServerConfig config = config(1);
    SecAggPassNode honest = new SecAggPassNode();
    SecurePassNode tampering = (values, replay, context) -> {
      Map<String, Object> reply = new LinkedHashMap<>(honest.stage(values, replay, context));
      if (reply.get(SecAggFlower.MESSAGE) instanceof byte[] b
          && SecAggWire.decode(b) instanceof SecAggMessage.MaskedInput m) {
        reply.put(SecAggFlower.MESSAGE, SecAggWire.encode(new SecAggMessage.MaskedInput(
            m.client(), Arrays.copyOf(m.masked(), m.masked().length - 1))));
      }
      return reply;
    };
    try (FleetServer server = FleetServer.start(config, fleet())) {
      List<SuperNode> nodes = new ArrayList<>();
      try {
        nodes.add(node(server, plusK(KS[0], m -> m), tampering));
        for (int i = 1; i < KS.length; i++) {
          nodes.add(node(server, plusK(KS[i], m -> m), new SecAggPassNode()));
        }
        Throwable thrown = org.assertj.core.api.Assertions.catchThrowable(server::run);
        String bad = JavaNodes.id(nodes.get(0));
        assertThat(thrown).isInstanceOfSatisfying(SecAggException.class, e -> {
          assertThat(e.reason()).isEqualTo(SecAggException.Reason.MALFORMED_MESSAGE);
          assertThat(e.getMessage()).contains(bad).contains("masked input has 3 elements, "
              + "expected 4");
        });
      } finally {
        JavaNodes.closeAll(nodes);
      }
    }
  }

  /**
   * A node whose reply carries bytes that are no SecAgg+ message fails the pass with a typed
   * error naming the node and the stage, before anything is unmasked.
   */
  @Test
  void run_nodeRepliesWithMalformedKeyBytes_failsTypedNamingTheNodeAndStage()
      throws Exception {
    ServerConfig config = config(1);
    SecurePassNode garbage = (values, replay, context) -> {
      Map<String, Object> reply = new LinkedHashMap<>(values);
      reply.put(SecAggFlower.MESSAGE, new byte[] {'S', 2, 1, 0x7f, 0x7f, 0x7f, 0x7f});
      return reply;
    };
    try (FleetServer server = FleetServer.start(config, fleet())) {
      List<SuperNode> nodes = new ArrayList<>();
      try {
        nodes.add(node(server, plusK(KS[0], m -> m), garbage));
        for (int i = 1; i < KS.length; i++) {
          nodes.add(node(server, plusK(KS[i], m -> m), new SecAggPassNode()));
        }
        Throwable thrown = org.assertj.core.api.Assertions.catchThrowable(server::run);
        String bad = JavaNodes.id(nodes.get(0));
        assertThat(thrown).isInstanceOfSatisfying(
            io.tributary.flower.passes.SecurePassReplyException.class, e -> {
              assertThat(e.node()).isEqualTo(bad);
              assertThat(e.stage()).isEqualTo("advertise_keys");
              assertThat(e.getMessage()).contains(bad + "'s reply at stage advertise_keys is "
                  + "malformed");
            });
      } finally {
        JavaNodes.closeAll(nodes);
      }
    }
  }

  /**
   * A node that connects after the first round's capability query is asked when a pass first
   * samples it; one that cannot run client passes is sent no stage and fails as a dropped-out
   * client, while the others' round goes on.
   */
  @Test
  void run_incapableNodeJoinsAfterTheFirstRound_droppedFromTheSecondRoundsPass()
      throws Exception {
    ServerConfig config = config(2);
    List<SuperNode> late = new ArrayList<>();
    try (FleetServer server = FleetServer.start(config, fleet())) {
      List<SuperNode> nodes = new ArrayList<>();
      try {
        for (double k : KS) {
          nodes.add(node(server, plusK(k, m -> m), new SecAggPassNode()));
        }
        RunResult result = server.run(new io.tributary.learning.rounds.RoundListener() {
          @Override
          public void roundEnded(io.tributary.learning.rounds.RoundRecord metrics,
              SequencedMap<String, Tensor> parameters) {
            if (metrics.round() != 1) {
              return;
            }
            try {
              SuperNode plain = JavaNodes.start(server.fleetPort(), plusK(0.7, m -> m));
              late.add(plain);
              long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
              while (plain.nodeId() == 0 && System.nanoTime() < deadline) {
                Thread.sleep(20);
              }
              Thread.sleep(500);
            } catch (Exception e) {
              throw new IllegalStateException(e);
            }
          }
        });
        String lateId = JavaNodes.id(late.get(0));

        assertThat(result.rounds()).hasSize(2);
        assertThat(result.rounds().get(1).clients()).isEqualTo(KS.length + 1);
        assertThat(result.rounds().get(1).failureReasons().stream()
            .filter(r -> r.startsWith("fit: ")).toList()).singleElement().satisfies(r ->
                assertThat(r).contains(lateId));
        assertThat(Arrays.stream(first(result))
            .allMatch(Double::isFinite)).isTrue();
      } finally {
        JavaNodes.closeAll(nodes);
        JavaNodes.closeAll(late);
      }
    }
  }
}
