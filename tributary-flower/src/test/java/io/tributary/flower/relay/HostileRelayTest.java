package io.tributary.flower.relay;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.core.computation.Computation;
import io.tributary.core.computation.Federated;
import io.tributary.core.computation.Intrinsics;
import io.tributary.core.types.Types;
import io.tributary.flower.FitIns;
import io.tributary.flower.FitRes;
import io.tributary.flower.FlowerClientRunner;
import io.tributary.flower.Scalar;
import io.tributary.flower.server.InitialParameters;
import io.tributary.flower.server.RunResult;
import io.tributary.flower.server.ServerConfig;
import io.tributary.flower.server.internal.ModelSpec;
import io.tributary.learning.FederatedAlgorithm;
import io.tributary.learning.aggregation.CoordinateMedian;
import io.tributary.learning.aggregation.TrimmedMean;
import io.tributary.learning.aggregation.Aggregator;
import io.tributary.runtime.Edges;
import io.tributary.runtime.ExecutionContext;
import io.tributary.runtime.RuntimeOptions;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.TensorMath;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A relay that lies: its answer fails that relay alone, named in the round's failure reasons,
 * and a robust aggregator counts each edge as one update, so that one lying edge of three moves
 * the coordinate median or trimmed mean no further than the honest edges' updates.
 */
class HostileRelayTest {
  /** What the hostile relay answers. */
  enum Lie {
    /** A NaN in its update. */
    NAN,
    /** An update of the wrong shape. */
    WRONG_SHAPE,
    /** Fewer tensors than the model has. */
    MISSING_TENSOR
  }

  /** A relay (it announces itself so) with no clients, answering {@code lie}. */
  private static final class Liar implements io.tributary.flower.FlowerClient {
    private final Lie lie;
    private final float huge;

    Liar(Lie lie, float huge) {
      this.lie = lie;
      this.huge = huge;
    }

    @Override
    public List<Tensor> getParameters(Map<String, Scalar> config) {
      return List.of();
    }

    @Override
    public FitRes fit(FitIns ins) {
      List<Tensor> out = new ArrayList<>();
      for (Tensor t : ins.parameters()) {
        float[] v = new float[(int) t.size()];
        Arrays.fill(v, huge);
        out.add(Tensor.ofFloats(t.shape(), v));
      }
      if (lie == Lie.NAN) {
        float[] v = new float[(int) out.get(1).size()];
        v[1] = Float.NaN;
        out.set(1, Tensor.ofFloats(out.get(1).shape(), v));
      } else if (lie == Lie.WRONG_SHAPE) {
        out.set(0, Tensor.ofFloats(Shape.of(2, 3), 1, 2, 3, 4, 5, 6));
      } else if (lie == Lie.MISSING_TENSOR) {
        out.remove(1);
      }
      return new FitRes(out, 10_000_000, Map.of());
    }

    @Override
    public io.tributary.flower.EvaluateRes evaluate(io.tributary.flower.EvaluateIns ins) {
      return new io.tributary.flower.EvaluateRes(1f, 1, Map.of());
    }
  }

  private static ServerConfig server(FederatedAlgorithm algorithm) {
    List<Tensor> init = EdgeClients.initial();
    LinkedHashMap<String, Tensor> named = new LinkedHashMap<>();
    named.put("kernel", init.get(0));
    named.put("bias", init.get(1));
    return ServerConfig.builder().address("localhost", 0).rounds(1).minClients(3)
        .algorithm(algorithm).minSuccessFraction(0.5)
        .initial(new InitialParameters.Given(named)).clientWait(Duration.ofSeconds(20))
        .roundTimeout(Duration.ofSeconds(30)).shutdownGrace(Duration.ofSeconds(1)).build();
  }

  /** Two honest relays of two clients each, then the liar: relay-1, relay-2, relay-3. */
  private static void deploy(RelayRig rig, Lie lie, float huge) throws Exception {
    rig.joinInOrder(rig.edges(2, 2));
    FlowerClientRunner liar = FlowerClientRunner.builder(new Liar(lie, huge))
        .channel(rig.toServer()).relay(true).backoff(RelayRig.QUICK)
        .serializers(RelayRig.REGISTRY).build();
    CompletableFuture<FlowerClientRunner.Outcome> unused = liar.start();
    RelayRig.await(() -> rig.server.connectedClients().size(), 3, "relays on the server");
    rig.closeLater(liar);
  }

  @ParameterizedTest
  @EnumSource(Lie.class)
  void round_relaySendsABadAggregate_failsThatRelayOnlyAndKeepsTheHonestEdges(Lie lie)
      throws Exception {
    List<Tensor> honest = RelayRoundTest.simulate(2, 2, 1, EdgeClients.initial());
    try (RelayRig rig = new RelayRig()) {
      rig.server(server(FederatedAlgorithm.fedAvg()));
      deploy(rig, lie, 1f);

      RunResult result = rig.server.run();

      List<String> reasons = result.rounds().get(0).failureReasons();
      assertThat(reasons).hasSize(1);
      assertThat(reasons.get(0)).startsWith("fit: client 2 (relay-3) ").contains(switch (lie) {
        case NAN -> "not finite";
        case WRONG_SHAPE, MISSING_TENSOR -> "do not fit the model";
      });
      assertThat(result.finalParameters().get("kernel")).isEqualTo(honest.get(0));
      assertThat(result.finalParameters().get("bias")).isEqualTo(honest.get(1));
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"median", "trimmed_mean"})
  void round_robustAggregatorAndAHugeEdge_takesTheHonestEdgesMiddle(String rule)
      throws Exception {
    Aggregator aggregator = rule.equals("median") ? new CoordinateMedian()
        : new TrimmedMean(1.0 / 3);
    List<List<Tensor>> edges = honestEdgeUpdates();
    List<Tensor> init = EdgeClients.initial();
    try (RelayRig rig = new RelayRig()) {
      rig.server(server(FederatedAlgorithm.fedAvg()
          .withAggregator(aggregator)));
      deploy(rig, null, 1e30f);

      RunResult result = rig.server.run();

      assertThat(result.rounds().get(0).failureReasons()).isEmpty();
      assertThat(result.rounds().get(0).clients()).isEqualTo(3);
      // Of the three edges' updates, per coordinate, the middle one is the larger honest one:
      // the huge edge counts once, like any other.
      for (int t = 0; t < init.size(); t++) {
        Tensor a = edges.get(0).get(t);
        Tensor b = edges.get(1).get(t);
        float[] middle = new float[(int) a.size()];
        for (int i = 0; i < middle.length; i++) {
          middle[i] = Math.max(a.getFloat(i), b.getFloat(i));
        }
        Tensor want = TensorMath.add(init.get(t), Tensor.ofFloats(a.shape(), middle));
        assertThat(result.finalParameters().get(t == 0 ? "kernel" : "bias")).isEqualTo(want);
      }
    }
  }

  /**
   * The two honest edges' example-weighted mean updates from the initial model, as the
   * simulation computes them ({@code federated_weighted_mean_to_edges}).
   */
  @SuppressWarnings("unchecked")
  private static List<List<Tensor>> honestEdgeUpdates() {
    List<Tensor> init = EdgeClients.initial();
    ModelSpec spec = ModelSpec.of(init);
    Computation fit = EdgeClients.simulatedFit(spec);
    Computation perEdge = Federated.computation(
        new io.tributary.core.types.FederatedType(spec.type(),
            io.tributary.core.types.Placement.SERVER, true),
        Types.parse("{string}@CLIENTS"), (m, d) -> {
          var out = Intrinsics.federatedMap(fit,
              Federated.struct(Intrinsics.federatedBroadcast(m), d));
          return Intrinsics.federatedWeightedMeanToEdges(out.get("delta"),
              out.get("num_examples"));
        });
    List<Tensor> data = new ArrayList<>();
    for (int k = 0; k < 4; k++) {
      data.add(io.tributary.flower.server.internal.RemoteClientWork.clientValue(
          Integer.toString(k)));
    }
    try (ExecutionContext ctx = ExecutionContext.create(RuntimeOptions.defaults()
        .withEdges(Edges.contiguous(2, 2)))) {
      List<Object> got = (List<Object>) ctx.invoke(perEdge, spec.value(init), data);
      return got.stream().map(v -> ModelSpec.tensors(
          (io.tributary.core.values.StructValue) v)).toList();
    }
  }
}
