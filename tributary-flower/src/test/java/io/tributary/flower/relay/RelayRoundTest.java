package io.tributary.flower.relay;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.core.values.StructValue;
import io.tributary.flower.server.InitialParameters;
import io.tributary.flower.server.RunResult;
import io.tributary.flower.server.ServerConfig;
import io.tributary.flower.server.internal.ModelSpec;
import io.tributary.flower.server.internal.RemoteClientWork;
import io.tributary.learning.HierarchicalFedAvg;
import io.tributary.learning.LearningProcess;
import io.tributary.runtime.Edges;
import io.tributary.runtime.ExecutionContext;
import io.tributary.runtime.RuntimeOptions;
import io.tributary.tensor.Tensor;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A deployed round over relays against the same round simulated: hierarchical FedAvg with the
 * same k2, whose edges are the relays' clients. The server's model after each round has the
 * simulation's bits, for any split of the clients.
 */
class RelayRoundTest {
  @ParameterizedTest(name = "relays of {0} clients, k2 = {1}")
  @CsvSource({"4 4, 1", "2 2 2, 1", "5, 1", "4 4 4 4, 1", "3 3, 1", "5 5 5, 1", "1 6 2, 1",
      "3 5 2, 1", "3 3, 2", "5 5 5, 3", "2 7, 2"})
  void rounds_relaysOfClients_equalTheSimulatedHierarchicalRoundsBitForBit(String split,
      int edgeRounds) throws Exception {
    int[] sizes = Arrays.stream(split.split(" ")).mapToInt(Integer::parseInt).toArray();
    int rounds = 2;
    List<Tensor> init = EdgeClients.initial();
    List<Tensor> simulated = simulate(sizes, edgeRounds, rounds, init);
    try (RelayRig rig = new RelayRig()) {
      rig.server(server(rounds, sizes.length, init));
      rig.joinInOrder(rig.edges(edgeRounds, sizes));
      assertThat(rig.server.connectedClients()).allSatisfy(id -> assertThat(id)
          .startsWith("relay-"));

      RunResult result = rig.server.run();

      assertThat(result.rounds()).allSatisfy(r -> assertThat(r.failureReasons()).isEmpty());
      assertThat(result.rounds()).allSatisfy(r -> assertThat(r.clients())
          .isEqualTo(sizes.length));
      assertThat(result.finalParameters().get("kernel")).isEqualTo(simulated.get(0));
      assertThat(result.finalParameters().get("bias")).isEqualTo(simulated.get(1));
      // Not a coincidence of the model: one round moves it.
      assertThat(simulated.get(0)).isNotEqualTo(init.get(0));
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

  /** {@link #simulate(int[], int, int, List)} over relays of {@code perRelay} clients, k2 = 1. */
  static List<Tensor> simulate(int relays, int perRelay, int rounds, List<Tensor> init) {
    int[] sizes = new int[relays];
    Arrays.fill(sizes, perRelay);
    return simulate(sizes, 1, rounds, init);
  }

  /**
   * Hierarchical FedAvg's cloud rounds ({@code simulate --algorithm hierfavg --edge-rounds K2}'s
   * round) over the relays' clients, edge r holding relay r's clients in the order they joined.
   */
  static List<Tensor> simulate(int[] sizes, int edgeRounds, int rounds, List<Tensor> init) {
    ModelSpec spec = ModelSpec.of(init);
    LearningProcess process = new LearningProcess("hierarchical_fedavg",
        RemoteClientWork.initialize(spec, init),
        HierarchicalFedAvg.next(EdgeClients.simulatedUpdate(spec), edgeRounds),
        EdgeClients.simulatedEvaluate(spec));
    List<Tensor> data = new ArrayList<>();
    for (int k = 0; k < Arrays.stream(sizes).sum(); k++) {
      data.add(RemoteClientWork.clientValue(Integer.toString(k)));
    }
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
