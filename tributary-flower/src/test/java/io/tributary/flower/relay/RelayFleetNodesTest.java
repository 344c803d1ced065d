package io.tributary.flower.relay;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.flower.app.ClientApp;
import io.tributary.flower.fleet.SuperNode;
import io.tributary.flower.fleet.server.FleetApi;
import io.tributary.flower.fleet.server.FleetTransport;
import io.tributary.flower.fleet.server.JavaNodes;
import io.tributary.flower.fleet.server.FlowerApp;
import io.tributary.flower.records.ArrayRecord;
import io.tributary.flower.records.Message;
import io.tributary.flower.records.MetricRecord;
import io.tributary.flower.records.RecordDict;
import io.tributary.flower.server.RunResult;
import io.tributary.tensor.Tensor;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Java SuperNodes joining relays over the Fleet API (grpc-rere or HTTP), beside Join clients: each relay's
 * edge is its clients and nodes in the order they came, and the server's model has the simulated
 * hierarchical round's bits.
 */
@Timeout(120)
class RelayFleetNodesTest {
  @TempDir Path dir;

  /** Client {@code k} of {@link EdgeClients} as a Message-API ClientApp. */
  static ClientApp trainer(int k) {
    return ClientApp.builder().train((Message m, io.tributary.flower.app.Context c) -> {
      Map<String, Tensor> in = ((ArrayRecord) m.content().get("arrays")).toTensors();
      List<Tensor> trained = EdgeClients.train(new ArrayList<>(in.values()), k);
      Map<String, Tensor> out = new LinkedHashMap<>();
      int i = 0;
      for (String name : in.keySet()) {
        out.put(name, trained.get(i++));
      }
      Map<String, Object> metrics = new LinkedHashMap<>();
      metrics.put("num-examples", EdgeClients.examples(k));
      metrics.put("loss", (double) EdgeClients.loss(k));
      return m.reply(RecordDict.of("arrays", ArrayRecord.fromTensors(out), "metrics",
          new MetricRecord(metrics)));
    }).evaluate((Message m, io.tributary.flower.app.Context c) -> m.reply(RecordDict.of(
        "metrics", new MetricRecord(Map.of("num-examples", EdgeClients.examples(k), "loss",
            (double) EdgeClients.loss(k)))))).build();
  }

  @ParameterizedTest(name = "k2 = {0}, {1}")
  @CsvSource({"1, GRPC_RERE", "2, GRPC_RERE", "2, HTTP"})
  void rounds_joinClientsAndSuperNodesBehindRelays_equalTheSimulatedRoundsBitForBit(
      int edgeRounds, FleetTransport transport) throws Exception {
    io.tributary.flower.fleet.FleetTransport nodeTransport = transport == FleetTransport.HTTP
        ? io.tributary.flower.fleet.FleetTransport.http()
        : io.tributary.flower.fleet.FleetTransport.grpcRere();
    FlowerApp flowerApp = FlowerApp.load(JavaNodes.project(dir, "edge-trainer"));
    // Relay 0: Join client 0, nodes 1 and 2; relay 1: node 3, Join client 4.
    boolean[][] isNode = {{false, true, true}, {true, false}};
    List<SuperNode> nodes = new ArrayList<>();
    int rounds = 2;
    try (RelayRig rig = new RelayRig()) {
      rig.server(RelayRoundTest.server(rounds, 2, EdgeClients.initial()));
      List<Relay> relays = new ArrayList<>();
      int client = 0;
      for (boolean[] members : isNode) {
        String name = io.grpc.inprocess.InProcessServerBuilder.generateName();
        FleetApi fleet = FleetApi.builder(flowerApp).address("127.0.0.1", 0)
            .transport(transport).build();
        Relay relay = rig.relay(RelayRig.config(members.length).edgeRounds(edgeRounds)
            .fleet(fleet).build(), name);
        for (int k = 0; k < members.length; k++) {
          if (members[k]) {
            nodes.add(JavaNodes.node(relay.fleetPort().orElseThrow()).transport(nodeTransport)
                .clientApp(trainer(client)).build().start());
          } else {
            rig.join(new EdgeClients.Trainer(client), name);
          }
          client++;
          int joined = k + 1;
          RelayRig.await(() -> relay.connectedClients().size(), joined, "clients on a relay");
        }
        relays.add(relay);
      }
      assertThat(relays.get(0).connectedClients()).satisfiesExactly(
          id -> assertThat(id).startsWith("client-"), id -> assertThat(id).startsWith("node-"),
          id -> assertThat(id).startsWith("node-"));
      rig.joinInOrder(relays);

      RunResult result = rig.server.run();

      assertThat(result.rounds()).allSatisfy(r -> assertThat(r.failureReasons()).isEmpty());
      List<Tensor> simulated = RelayRoundTest.simulate(new int[] {3, 2}, edgeRounds, rounds,
          EdgeClients.initial());
      assertThat(result.finalParameters().get("kernel")).isEqualTo(simulated.get(0));
      assertThat(result.finalParameters().get("bias")).isEqualTo(simulated.get(1));
    } finally {
      JavaNodes.closeAll(nodes);
    }
  }
}
