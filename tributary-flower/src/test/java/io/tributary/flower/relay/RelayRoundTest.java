package io.tributary.flower.relay;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.core.values.StructValue;
import io.tributary.flower.server.InitialParameters;
import io.tributary.flower.server.RunResult;
import io.tributary.flower.server.ServerConfig;
import io.tributary.flower.server.internal.ModelSpec;
import io.tributary.flower.server.internal.RemoteClientWork;
import io.tributary.learning.FederatedAlgorithm;
import io.tributary.learning.LearningProcess;
import io.tributary.runtime.Edges;
import io.tributary.runtime.ExecutionContext;
import io.tributary.runtime.RuntimeOptions;
import io.tributary.tensor.Tensor;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A deployed round over relays against the same round simulated with the {@code EDGES}
 * placement: the server's model after each round has the simulation's bits.
 */
class RelayRoundTest {
  @ParameterizedTest(name = "{0} relays x {1} clients")
  @CsvSource({"2, 4", "3, 2", "1, 5", "4, 4"})
  void rounds_relaysOfClients_equalTheSimulatedEdgeRoundsBitForBit(int relays, int perRelay)
      throws Exception {
    int rounds = 2;
    int[] sizes = new int[relays];
    java.util.Arrays.fill(sizes, perRelay);
    // Each relay folds its clients by its own pass's tree, the simulation each edge by the
    // subtree of the whole pass's: the same when the edges follow that tree.
    assertThat(Edges.contiguous(sizes).followsReductionTree()).isTrue();
    List<Tensor> init = EdgeClients.initial();
    List<Tensor> simulated = simulate(relays, perRelay, rounds, init);
    try (RelayRig rig = new RelayRig()) {
      rig.server(server(rounds, relays, init));
      rig.joinInOrder(rig.edges(relays, perRelay));
      assertThat(rig.server.connectedClients()).allSatisfy(id -> assertThat(id)
          .startsWith("relay-"));

      RunResult result = rig.server.run();

      assertThat(result.rounds()).allSatisfy(r -> assertThat(r.failureReasons()).isEmpty());
      assertThat(result.rounds()).allSatisfy(r -> assertThat(r.clients()).isEqualTo(relays));
      assertThat(result.finalParameters().get("kernel")).isEqualTo(simulated.get(0));
      assertThat(result.finalParameters().get("bias")).isEqualTo(simulated.get(1));
      // Not a coincidence of the model: one round moves it.
      assertThat(simulated.get(0)).isNotEqualTo(init.get(0));
    }
  }

  /**
   * Edges across the reduction tree (two of three clients: the simulation adds the second edge's
   * clients as {@code c3 + (c4 + c5)}, its relay as {@code (c3 + c4) + c5}) are only promised
   * the simulated model within float rounding: the float64 sums may differ in their last bits,
   * which the float32 mean hides unless the updates cancel (here it hides them, but that is the
   * data's doing, not a guarantee).
   */
  @org.junit.jupiter.api.Test
  void rounds_edgesAcrossTheReductionTree_equalTheSimulatedRoundsWithinRounding()
      throws Exception {
    assertThat(Edges.contiguous(3, 3).followsReductionTree()).isFalse();
    List<Tensor> init = EdgeClients.initial();
    List<Tensor> simulated = simulate(2, 3, 1, init);
    try (RelayRig rig = new RelayRig()) {
      rig.server(server(1, 2, init));
      rig.joinInOrder(rig.edges(2, 3));
      RunResult result = rig.server.run();
      assertThat(result.rounds().get(0).failureReasons()).isEmpty();
      for (int t = 0; t < 2; t++) {
        Tensor got = result.finalParameters().get(t == 0 ? "kernel" : "bias");
        for (int i = 0; i < got.size(); i++) {
          float want = simulated.get(t).getFloat(i);
          assertThat(got.getFloat(i)).isCloseTo(want,
              org.assertj.core.data.Offset.offset(4 * Math.ulp(want)));
        }
      }
    }
  }

  static ServerConfig server(int rounds, int relays, List<Tensor> init) {
    LinkedHashMap<String, Tensor> named = new LinkedHashMap<>();
    named.put("kernel", init.get(0));
    named.put("bias", init.get(1));
    return ServerConfig.builder().address("localhost", 0).rounds(rounds).minClients(relays)
        .initial(new InitialParameters.Given(named)).clientWait(Duration.ofSeconds(20))
        .roundTimeout(Duration.ofSeconds(30)).shutdownGrace(Duration.ofSeconds(1)).build();
  }

  /**
   * FedAvg's rounds with the weighted mean through the edges, over {@code relays * perRelay}
   * simulated clients whose edges are the relays' clients, in the order they joined.
   */
  static List<Tensor> simulate(int relays, int perRelay, int rounds, List<Tensor> init) {
    ModelSpec spec = ModelSpec.of(init);
    LearningProcess process = FederatedAlgorithm.fedAvg().withAggregator(new EdgeWeightedMean())
        .process(RemoteClientWork.initialize(spec, init), EdgeClients.simulatedFit(spec),
            EdgeClients.simulatedEvaluate(spec));
    List<Tensor> data = new ArrayList<>();
    for (int k = 0; k < relays * perRelay; k++) {
      data.add(RemoteClientWork.clientValue(Integer.toString(k)));
    }
    int[] sizes = new int[relays];
    java.util.Arrays.fill(sizes, perRelay);
    RuntimeOptions options = RuntimeOptions.defaults().withThreads(2)
        .withEdges(Edges.contiguous(sizes));
    try (ExecutionContext ctx = ExecutionContext.create(options)) {
      Object state = ctx.invoke(process.initialize());
      for (int r = 0; r < rounds; r++) {
        state = ((StructValue) ctx.invoke(process.next(), state, data)).get(0);
      }
      return ModelSpec.tensors((StructValue) ((StructValue) state).get(0));
    }
  }
}
