package io.tributary.flower.secagg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.grpc.ManagedChannel;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.tributary.flower.Backoff;
import io.tributary.flower.FlowerClient;
import io.tributary.flower.FlowerClientRunner;
import io.tributary.flower.fleet.server.FleetApi;
import io.tributary.flower.fleet.server.FlowerApp;
import io.tributary.flower.fleet.server.JavaNodes;
import io.tributary.flower.internal.proto.ClientMessage;
import io.tributary.flower.relay.Relay;
import io.tributary.flower.relay.RelayConfig;
import io.tributary.flower.secagg.SecureAggregationRoundsTest.DiesOnTraining;
import io.tributary.flower.secagg.SecureAggregationRoundsTest.Shifting;
import io.tributary.flower.server.FlowerServer;
import io.tributary.flower.server.InitialParameters;
import io.tributary.flower.server.RunResult;
import io.tributary.flower.server.SecureAggregation;
import io.tributary.flower.server.ServerConfig;
import io.tributary.learning.rounds.RoundRecord;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.serialization.SerializerRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A relay that aggregates its Join clients with SecAgg+ in every edge round, under a plain
 * server, over in-process gRPC. As in {@link SecureAggregationRoundsTest}, updates are odd
 * multiples of 1/32 on the quantization grid of 8 bits over [-255/32, 255/32] (step 1/16), so
 * the secure edge's mean is the plain one up to float rounding.
 */
class RelaySecureAggregationTest {
  private static final SerializerRegistry REGISTRY = SerializerRegistry.load();
  private static final Backoff QUICK = new Backoff(Duration.ofMillis(20), Duration.ofMillis(200),
      2, 0, Integer.MAX_VALUE, 0);
  private static final SecureAggregation SECURE =
      new SecureAggregation(4, 3, 8, 255.0 / 32, 8);
  private static final double[] SHIFTS = {5 / 32.0, 9 / 32.0, -7 / 32.0, 15 / 32.0};
  private static final long[] EXAMPLES = {1, 2, 3, 4};

  private final String serverName = InProcessServerBuilder.generateName();
  private final String relayName = InProcessServerBuilder.generateName();
  private final InProcessClients clientRunners = new InProcessClients(
      runner -> runner.backoff(QUICK).serializers(REGISTRY));
  private final List<Relay> relays = new ArrayList<>();
  /** Every message the relay received from a client. */
  private final List<ClientMessage> atRelay = new CopyOnWriteArrayList<>();
  private FlowerServer server;

  @AfterEach
  void tearDown() throws InterruptedException {
    clientRunners.stopRunners();
    for (Relay r : relays) {
      r.close();
    }
    if (server != null) {
      server.close();
    }
    clientRunners.close();
  }

  @Test
  void run_secureRelayOfFourClients_modelIsThePlainEdgeMeanAndTheRelaySeesNoUpdate()
      throws Exception {
    RunResult secure = round(true, false);
    RoundRecord r = secure.rounds().get(0);
    assertThat(r.failures()).isZero();
    assertThat(r.examples()).isEqualTo(10);
    // What the relay received from its clients: SecAgg+ messages only, no parameters, no counts.
    List<ClientMessage> fits = atRelay.stream().filter(ClientMessage::hasFitRes).toList();
    assertThat(fits).hasSize(16).allSatisfy(m -> {
      assertThat(m.getFitRes().getParameters().getTensorsCount()).isZero();
      assertThat(m.getFitRes().getNumExamples()).isZero();
      assertThat(m.getFitRes().getMetricsMap().keySet())
          .allSatisfy(k -> assertThat(k).startsWith("secagg_"));
    });
    float mean = mean(SHIFTS, EXAMPLES);
    assertModel(secure, mean);

    RelaySecureAggregationTest other = new RelaySecureAggregationTest();
    RunResult plain;
    try {
      plain = other.round(false, false);
    } finally {
      other.tearDown();
    }
    // The same round with plain aggregation: the updates are on the quantization grid, so the
    // two differ by float rounding only.
    for (String name : List.of("w", "b")) {
      Tensor a = secure.finalParameters().get(name);
      Tensor b = plain.finalParameters().get(name);
      for (int i = 0; i < a.size(); i++) {
        assertThat(a.getAsDouble(i)).isCloseTo(b.getAsDouble(i),
            org.assertj.core.data.Offset.offset(1e-6));
      }
    }
  }

  @Test
  void run_oneClientDropsMidRound_edgeRoundSurvivesWithTheOthersMean() throws Exception {
    RunResult result = round(true, true);

    RoundRecord r = result.rounds().get(0);
    assertThat(r.failureReasons()).isEmpty();
    // The survivors' examples: the dropped client's are not in the edge's sum.
    assertThat(r.examples()).isEqualTo(10);
    assertModel(result, mean(SHIFTS, EXAMPLES));
  }

  @Test
  void run_twoEdgeRounds_eachIsOneSecAggRoundAndTheEdgeAddsBothMeans() throws Exception {
    RunResult result = round(true, false, 2);

    RoundRecord r = result.rounds().get(0);
    assertThat(r.failureReasons()).isEmpty();
    assertThat(r.examples()).isEqualTo(10);
    // Four SecAgg+ stages of four clients, twice.
    assertThat(atRelay.stream().filter(ClientMessage::hasFitRes)).hasSize(32)
        .allSatisfy(m -> assertThat(m.getFitRes().getParameters().getTensorsCount()).isZero());
    // Each client adds its shift to whatever model it gets: the edge's update is twice the mean.
    assertModel(result, 2 * mean(SHIFTS, EXAMPLES));
  }

  @Test
  void build_secureAggregationWithFleetApi_refusedNamingBoth(@TempDir Path dir) throws Exception {
    Path app = JavaNodes.project(dir, "edge-trainer");
    RelayConfig.Builder b = RelayConfig.builder().upstream("h:1").secureAggregation(SECURE)
        .fleet(FleetApi.builder(FlowerApp.load(app)).address("127.0.0.1", 0).build());

    assertThatThrownBy(b::build).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("secure aggregation on a relay").hasMessageContaining("Fleet API");
  }

  private static void assertModel(RunResult result, float mean) {
    Tensor w = result.finalParameters().get("w");
    assertThat(w.getAsDouble(0)).isCloseTo(mean, org.assertj.core.data.Offset.offset(1e-6));
    assertThat(w.getAsDouble(1)).isCloseTo(mean, org.assertj.core.data.Offset.offset(1e-6));
    assertThat(result.finalParameters().get("b").getAsDouble(0)).isCloseTo(1 + mean,
        org.assertj.core.data.Offset.offset(1e-6));
  }

  /**
   * One round of a plain server over one relay of the four shifting clients (and a fifth that
   * drops its connection when asked to train, when {@code dropping}), with SecAgg+ on the relay
   * when {@code secure}.
   */
  private RunResult round(boolean secure, boolean dropping) throws Exception {
    return round(secure, dropping, 1);
  }

  /** {@link #round(boolean, boolean)} with {@code edgeRounds} edge rounds per fit. */
  private RunResult round(boolean secure, boolean dropping, int edgeRounds) throws Exception {
    LinkedHashMap<String, Tensor> init = new LinkedHashMap<>();
    init.put("w", Tensor.ofFloats(Shape.of(2), 0, 0));
    init.put("b", Tensor.scalar(1f));
    server = FlowerServer.start(ServerConfig.builder().address("localhost", 0).rounds(1)
        .minClients(1).initial(new InitialParameters.Given(init))
        .clientWait(Duration.ofSeconds(20)).roundTimeout(Duration.ofSeconds(60))
        .shutdownGrace(Duration.ofSeconds(2)).build(),
        InProcessServerBuilder.forName(serverName), REGISTRY);
    int clients = SHIFTS.length + (dropping ? 1 : 0);
    RelayConfig.Builder config = RelayConfig.builder().address("localhost", 0)
        .upstream("in-process").minClients(SHIFTS.length).clientWait(Duration.ofSeconds(20))
        .backoff(QUICK).roundTimeout(Duration.ofSeconds(20))
        .shutdownGrace(Duration.ofSeconds(1)).edgeRounds(edgeRounds);
    if (secure) {
      config.secureAggregation(SECURE);
    }
    ManagedChannel toServer = clientRunners.closeLater(
        InProcessChannelBuilder.forName(serverName).build());
    Relay relay = Relay.start(config.build(), InProcessServerBuilder.forName(relayName)
        .intercept(InProcessClients.recording(atRelay)), toServer, REGISTRY);
    relays.add(relay);
    for (int i = 0; i < SHIFTS.length; i++) {
      Shifting s = new Shifting(SHIFTS[i], EXAMPLES[i]);
      join(secure ? new SecAggClientAdapter(s) : s);
    }
    if (dropping) {
      DiesOnTraining.channel = join(new SecAggClientAdapter(new DiesOnTraining()));
    }
    // Every client, the dropping one too, is in the edge before the relay joins the server; the
    // edge's minimum is the clients that stay, so that the evaluation after the fit has enough.
    long joined = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (relay.connectedClients().size() < clients) {
      if (System.nanoTime() > joined) {
        throw new AssertionError("expected " + clients + " clients at the relay, have "
            + relay.connectedClients());
      }
      Thread.sleep(5);
    }
    CompletableFuture<FlowerClientRunner.Outcome> ran = new CompletableFuture<>();
    Thread.ofPlatform().name("relay").daemon().start(() -> {
      try {
        ran.complete(relay.run());
      } catch (Exception | Error e) {
        ran.completeExceptionally(e);
      }
    });
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (server.connectedClients().isEmpty()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("the relay did not join the server");
      }
      Thread.sleep(5);
    }
    return server.run();
  }

  private ManagedChannel join(FlowerClient client) throws Exception {
    return clientRunners.join(relayName, client);
  }

  /** The example-weighted mean of the shifts (on the quantization grid, so exact). */
  private static float mean(double[] shifts, long[] examples) {
    double sum = 0;
    long total = 0;
    for (int i = 0; i < shifts.length; i++) {
      sum += shifts[i] * examples[i];
      total += examples[i];
    }
    return (float) (sum / total);
  }
}
