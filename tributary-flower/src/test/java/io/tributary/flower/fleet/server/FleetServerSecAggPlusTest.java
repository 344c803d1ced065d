package io.tributary.flower.fleet.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.tributary.flower.app.ClientApp;
import io.tributary.flower.app.Mod;
import io.tributary.flower.fleet.FlowerPeer;
import io.tributary.flower.fleet.SuperNode;
import io.tributary.flower.records.ConfigRecord;
import io.tributary.flower.records.Message;
import io.tributary.flower.records.Record;
import io.tributary.flower.records.RecordDict;
import io.tributary.flower.secaggplus.SecAggPlusSettings;
import io.tributary.flower.secaggplus.internal.ConfigValues;
import io.tributary.flower.server.InitialParameters;
import io.tributary.flower.server.RunResult;
import io.tributary.flower.server.SecureAggregation;
import io.tributary.flower.server.ServerConfig;
import io.tributary.learning.rounds.RoundRecord;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.SequencedMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A {@link FleetServer} with {@link FleetApi#secAggPlus()}: Flower's SecAgg+ workflow, run in
 * Java, over real Flower 1.27 {@code flower-supernode}s whose numpy ClientApp (a NumPyClient
 * adding {@code np.random.rand}, as quickstart-numpy does) wears Flower's own
 * {@code secaggplus_mod}, and Java SuperNodes wearing {@code SecAggPlusMod} ({@link
 * SecAggPlusNodes}); one Python node drops in the middle of the round. The model must move to the
 * example-weighted mean of the survivors' replies, as Flower's workflow defines it (weights are
 * the example counts).
 */
@Timeout(480)
class FleetServerSecAggPlusTest {
  private static final double[] INIT = {1, 2, 3};
  /** Max weight 10, so that the quantized weights (count / 10 * 2^22) are nearly exact. */
  private static final SecAggPlusSettings SETTINGS = new SecAggPlusSettings(5, 3, 8.0, 1L << 22,
      1L << 32, 10.0);

  @TempDir Path dir;

  private static final String CLIENT_APP = """
      \"\"\"A numpy ClientApp with Flower's secaggplus_mod (Tributary's tests).\"\"\"
      import time

      import numpy as np
      from flwr.client import ClientApp, NumPyClient
      from flwr.client.mod import secaggplus_mod
      from flwr.common import Context


      class FlowerClient(NumPyClient):
          def __init__(self, examples, drop):
              self.examples = examples
              self.drop = drop

          def fit(self, parameters, config):
              if self.drop:
                  time.sleep(600)
              return [p + np.random.rand(*p.shape) for p in parameters], self.examples, {}

          def evaluate(self, parameters, config):
              return 0.5, self.examples, {}


      def client_fn(context: Context):
          return FlowerClient(int(context.node_config["examples"]),
                              int(context.node_config.get("drop", 0)) == 1).to_client()


      app = ClientApp(client_fn=client_fn, mods=[secaggplus_mod])
      """;

  private Path app() throws Exception {
    Path app = dir.resolve("secagg-numpy");
    Files.createDirectories(app.resolve("secaggnumpy"));
    Files.writeString(app.resolve("pyproject.toml"), """
        [build-system]
        requires = ["hatchling"]
        build-backend = "hatchling.build"

        [project]
        name = "secagg-numpy"
        version = "1.0.0"
        dependencies = ["flwr>=1.27", "numpy>=2.0.2"]

        [tool.hatch.build.targets.wheel]
        packages = ["."]

        [tool.flwr.app]
        publisher = "tributary"

        [tool.flwr.app.components]
        serverapp = "secaggnumpy.server_app:app"
        clientapp = "secaggnumpy.client_app:app"

        [tool.flwr.app.config]
        num-server-rounds = 1
        """);
    Files.writeString(app.resolve("secaggnumpy/__init__.py"), "");
    Files.writeString(app.resolve("secaggnumpy/client_app.py"), CLIENT_APP);
    // Flower's SuperNode requires the component; the Tributary server is the server.
    Files.writeString(app.resolve("secaggnumpy/server_app.py"), "app = None\n");
    return app;
  }

  private static ServerConfig config(int minClients, Duration stageTimeout) {
    SequencedMap<String, Tensor> init = new LinkedHashMap<>();
    init.put("w", Tensor.ofDoubles(Shape.of(3), INIT));
    return ServerConfig.builder().address("127.0.0.1", 0).rounds(1).minClients(minClients)
        .roundTimeout(stageTimeout).clientWait(Duration.ofSeconds(120))
        .initial(InitialParameters.given(init)).build();
  }

  private static SuperNode javaNode(FleetServer server, ClientApp app) {
    return SecAggPlusNodes.start("127.0.0.1:" + server.fleetPort(), app);
  }

  private static List<String> fitReasons(RoundRecord r) {
    return r.failureReasons().stream().filter(s -> s.startsWith("fit:")).toList();
  }

  @Test
  void run_pythonSecaggplusModNodesAndJavaNodesOneDropping_meanOfTheSurvivors()
      throws Exception {
    FlowerPeer flower = FlowerPeer.require();
    FleetApi fleet = FleetApi.builder(FlowerApp.load(app())).address("127.0.0.1", 0)
        .serveJoin(false).secAggPlus(SETTINGS).build();
    try (PythonSuperNodes py = new PythonSuperNodes(flower, dir);
        FleetServer server = FleetServer.start(config(5, Duration.ofSeconds(40)), fleet)) {
      double[] u41 = py.rand(41, 3);
      double[] u42 = py.rand(42, 3);
      String at = "127.0.0.1:" + server.fleetPort();
      py.start("py-a", at, 41, "--node-config", "examples=1");
      py.start("py-b", at, 42, "--node-config", "examples=2");
      py.start("py-drop", at, 43, "--node-config", "examples=4 drop=1");
      try (SuperNode j3 = javaNode(server, SecAggPlusNodes.app(3));
          SuperNode j5 = javaNode(server, SecAggPlusNodes.app(5))) {
        RunResult r;
        try {
          r = server.run();
        } catch (io.tributary.flower.server.FlowerServerException e) {
          throw new AssertionError(e + "\n--- py-a:\n" + py.tail("py-a"), e);
        }
        RoundRecord rec = r.rounds().getFirst();
        List<String> reasons = fitReasons(rec);
        assertThat(reasons).as(py.tail("py-a")).hasSize(1);
        assertThat(reasons.getFirst()).contains("SecAgg+: node-", "collect_masked_vectors")
            .doesNotContain(Long.toUnsignedString(j3.nodeId()))
            .doesNotContain(Long.toUnsignedString(j5.nodeId()));
        assertThat(rec.examples()).isEqualTo(11);
        // survivors: INIT + u41 (1 example), INIT + u42 (2), INIT + 3 (3), INIT + 5 (5)
        Tensor w = r.finalParameters().get("w");
        for (int i = 0; i < 3; i++) {
          double expected = INIT[i] + (u41[i] + 2 * u42[i] + 3 * 3 + 5 * 5) / 11.0;
          assertThat(w.getAsDouble(i)).as("w[%d]", i).isCloseTo(expected, within(1e-4));
        }
      }
    }
  }

  /**
   * Sends its share_keys ciphertexts to itself as well as to its neighbours: the server refuses
   * that reply, so only this node leaves the round.
   */
  static final class MisaddressedShares implements Mod {
    @Override
    public Message apply(Message message, io.tributary.flower.app.Context context,
        io.tributary.flower.app.MessageHandler next) throws Exception {
      Message reply = next.handle(message, context);
      if (!(reply.content().get("secaggplus_configs") instanceof ConfigRecord c)
          || c.get("dsts") == null) {
        return reply;
      }
      List<Long> dsts = new ArrayList<>(ConfigValues.nodeIds(c, "dsts"));
      dsts.set(0, message.metadata().dstNodeId());
      LinkedHashMap<String, Object> values = new LinkedHashMap<>(c.values());
      values.put("dsts", dsts.stream().map(ConfigValues::nodeIdValue).toList());
      LinkedHashMap<String, Record> content = new LinkedHashMap<>(reply.content().records());
      content.put("secaggplus_configs", new ConfigRecord(values));
      return message.reply(new RecordDict(content));
    }
  }

  /**
   * Appends an array to its masked vector: the server refuses the vector, drops the node after
   * it shared its keys, and recovers its pairwise masks from its neighbours' shares.
   */
  static final class ExtraMaskedArray implements Mod {
    @Override
    public Message apply(Message message, io.tributary.flower.app.Context context,
        io.tributary.flower.app.MessageHandler next) throws Exception {
      Message reply = next.handle(message, context);
      if (!(reply.content().get("secaggplus_configs") instanceof ConfigRecord c)
          || c.get("masked_params") == null) {
        return reply;
      }
      List<byte[]> masked = new ArrayList<>(ConfigValues.bytesList(c, "masked_params"));
      masked.add(masked.getLast());
      LinkedHashMap<String, Object> values = new LinkedHashMap<>(c.values());
      values.put("masked_params", masked);
      LinkedHashMap<String, Record> content = new LinkedHashMap<>(reply.content().records());
      content.put("secaggplus_configs", new ConfigRecord(values));
      return message.reply(new RecordDict(content));
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"share_keys", "collect_masked_vectors"})
  void run_javaNodeHostileAtAStage_failsOnlyThatNodeNamedInTheReasons(String stage)
      throws Exception {
    FleetApi fleet = FleetApi.builder(FlowerApp.load(JavaNodes.project(dir, "plus-k", 2)))
        .address("127.0.0.1", 0).serveJoin(false).secAggPlus(SETTINGS).build();
    Mod tamper = stage.equals("share_keys") ? new MisaddressedShares() : new ExtraMaskedArray();
    try (FleetServer server = FleetServer.start(config(5, Duration.ofSeconds(30)), fleet)) {
      List<SuperNode> honest = new ArrayList<>();
      try (SuperNode hostile = javaNode(server, SecAggPlusNodes.app(7, tamper))) {
        for (int k = 1; k <= 4; k++) {
          honest.add(javaNode(server, SecAggPlusNodes.app(k)));
        }
        RunResult r = server.run();
        RoundRecord rec = r.rounds().getFirst();
        assertThat(fitReasons(rec)).singleElement().asString().contains(
            "node-" + Long.toUnsignedString(hostile.nodeId()), stage,
            stage.equals("share_keys") ? "not a neighbour" : "other shapes than the model's");
        assertThat(rec.examples()).isEqualTo(10);
        Tensor w = r.finalParameters().get("w");
        for (int i = 0; i < 3; i++) {
          // survivors add k = 1..4 with k examples: INIT + (1 + 4 + 9 + 16) / 10
          assertThat(w.getAsDouble(i)).isCloseTo(INIT[i] + 3.0, within(1e-4));
        }
      } finally {
        for (SuperNode n : honest) {
          n.close();
        }
      }
    }
  }

  @Test
  void start_secAggPlusWithJoinOrTheJoinServersProtocol_refusedNamingWhy() throws Exception {
    FlowerApp app = FlowerApp.load(JavaNodes.project(dir, "plus-k", 2));
    assertThatThrownBy(() -> FleetApi.builder(app).secAggPlus(SETTINGS).build())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("serveJoin(false)");
    ServerConfig legacy = ServerConfig.builder().address("127.0.0.1", 0).rounds(1).minClients(2)
        .secureAggregation(SecureAggregation.defaults()).build();
    FleetApi fleet = FleetApi.builder(app).address("127.0.0.1", 0).serveJoin(false).build();
    assertThatThrownBy(() -> FleetServer.start(legacy, fleet))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("secAggPlus");
  }
}
