package io.tributary.learning.graph;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.core.values.StructValue;
import io.tributary.data.Dataset;
import io.tributary.data.Digits;
import io.tributary.data.FederatedDataset;
import io.tributary.data.Partitioner;
import io.tributary.data.TrainTestSplit;
import io.tributary.graph.local.GraphBinder;
import io.tributary.graph.models.Model;
import io.tributary.graph.models.Models;
import io.tributary.learning.EvaluationOutput;
import io.tributary.learning.FederatedAlgorithm;
import io.tributary.learning.LearningProcess;
import io.tributary.learning.RoundOutput;
import io.tributary.learning.Topology;
import io.tributary.runtime.CardinalityException;
import io.tributary.runtime.Edges;
import io.tributary.runtime.ExecutionContext;
import io.tributary.runtime.LocalComputationException;
import io.tributary.runtime.RuntimeOptions;
import io.tributary.tensor.DType;
import io.tributary.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Hierarchical FedAvg on digits over ten clients in two edges of five. */
class HierarchicalFedAvgTest {
  private static final int CLIENTS = 10;
  private static final Model MODEL = Models.softmaxRegression("digits", 64, 10, DType.FLOAT32);
  private static FederatedDataset fed;
  private static List<Object> test;

  @BeforeAll
  static void load() throws Exception {
    TrainTestSplit split = Digits.load(0.25, 42);
    fed = FederatedDataset.partitioned("digits", split.train(),
        Partitioner.parse("iid").partition(split.train(), CLIENTS, 3));
    test = List.of(SequenceValues.of(split.test(), 100));
  }

  private static List<Object> data(int round) {
    List<Object> data = new ArrayList<>();
    for (int c = 0; c < CLIENTS; c++) {
      Dataset d = fed.train().get(c);
      data.add(SequenceValues.shuffled(d, 10, round * 1000L + c));
    }
    return data;
  }

  /** The accuracy before and after each round, and the last state. */
  private static List<Object> run(LearningProcess process, RuntimeOptions options, int rounds,
      List<Float> accuracies) throws Exception {
    LearningProcess bound = GraphLearning.bound(process, GraphBinder.standard());
    List<Object> states = new ArrayList<>();
    try (ExecutionContext ctx = ExecutionContext.create(options)) {
      Object state = ctx.invoke(bound.initialize());
      accuracies.add(accuracy(ctx, bound, state));
      for (int round = 0; round < rounds; round++) {
        RoundOutput out = RoundOutput.of(ctx.invoke(bound.next(), state, data(round)));
        assertThat(out.metrics().clients()).isEqualTo(CLIENTS);
        state = out.state();
        states.add(state);
        accuracies.add(accuracy(ctx, bound, state));
      }
    }
    return states;
  }

  private static float accuracy(ExecutionContext ctx, LearningProcess p, Object state) {
    Object model = ((StructValue) state).struct("model");
    return EvaluationOutput.of(ctx.invoke(p.evaluate(), model, test)).accuracy();
  }

  /** FedAvg composed in code to aggregate through two edges, {@code k2} edge rounds each. */
  private static LearningProcess tiered(int k2) {
    return GraphLearning.build(
        FederatedAlgorithm.fedAvg().withTopology(new Topology.Hierarchical(2, k2)), MODEL, 1, 10,
        0.3, 1);
  }

  private static RuntimeOptions twoEdges() {
    return RuntimeOptions.defaults().withThreads(2).withEdges(Edges.even(CLIENTS, 2));
  }

  @Test
  void next_oneEdgeRound_equalsFedAvgWithinRounding() throws Exception {
    List<Object> tiered = run(tiered(1), twoEdges(), 2,
        new ArrayList<>());
    List<Object> flat = run(GraphLearning.build(FederatedAlgorithm.fedAvg(), MODEL, 1, 10, 0.3, 1),
        twoEdges(), 2,
        new ArrayList<>());
    List<Tensor> a = leaves(((StructValue) tiered.get(1)).struct("model"));
    List<Tensor> b = leaves(((StructValue) flat.get(1)).struct("model"));
    assertThat(a).hasSameSizeAs(b).isNotEmpty();
    for (int i = 0; i < a.size(); i++) {
      Tensor x = a.get(i);
      Tensor y = b.get(i);
      for (int j = 0; j < x.shape().size(); j++) {
        assertThat(x.getFloat(j)).isCloseTo(y.getFloat(j),
            org.assertj.core.data.Offset.offset(1e-5f));
      }
    }
  }

  private static List<Tensor> leaves(Object v) {
    List<Tensor> out = new ArrayList<>();
    if (v instanceof StructValue s) {
      for (Object e : s.values()) {
        out.addAll(leaves(e));
      }
    } else {
      out.add((Tensor) v);
    }
    return out;
  }

  @Test
  void next_twoEdgeRoundsPerCloudRound_accuracyRises() throws Exception {
    List<Float> acc = new ArrayList<>();
    run(tiered(2), twoEdges(), 2, acc);
    assertThat(acc.get(0)).as(acc.toString()).isLessThan(0.3f);
    assertThat(acc.get(1)).as(acc.toString()).isGreaterThan(acc.get(0));
    assertThat(acc.get(2)).as(acc.toString()).isGreaterThan(0.8f);
  }

  @Test
  void next_typeIsFedAvgsRoundType() {
    LearningProcess h = tiered(3);
    assertThat(h.next().type()).isEqualTo(
        GraphLearning.build(FederatedAlgorithm.fedAvg(), MODEL, 1, 10, 0.3, 1).next().type());
    assertThat(h.next().print()).contains("federated_broadcast_to_edges")
        .contains("federated_weighted_mean_from_edges");
  }

  @Test
  void next_withoutEdgesOrWithAnEmptyEdge_isRefused() {
    LearningProcess p = tiered(1);
    assertThatThrownBy(() -> run(p, RuntimeOptions.defaults().withThreads(2), 1,
        new ArrayList<>()))
        .isInstanceOf(CardinalityException.class).hasMessageContaining("RuntimeOptions.withEdges");
    assertThatThrownBy(() -> run(p, RuntimeOptions.defaults().withThreads(2)
        .withEdges(Edges.contiguous(5, 5, 0)), 1, new ArrayList<>()))
        .isInstanceOf(LocalComputationException.class)
        .hasMessageContaining("edge 2 has no clients");
  }

  @Test
  void registeredHierfavg_buildsTheSameRoundAsComposedFedAvg_bitForBit() throws Exception {
    FederatedAlgorithm registered = FederatedAlgorithm.named("hierfavg",
        java.util.Map.of("edges", 2.0, "edge_rounds", 3.0));
    assertThat(registered.topology()).isEqualTo(new Topology.Hierarchical(2, 3));

    List<Object> viaRegistry = run(GraphLearning.build(registered, MODEL, 1, 10, 0.3, 1), twoEdges(), 1,
        new ArrayList<>());
    List<Object> direct = run(tiered(3), twoEdges(), 1,
        new ArrayList<>());

    assertThat(leaves(((StructValue) viaRegistry.get(0)).struct("model")))
        .isEqualTo(leaves(((StructValue) direct.get(0)).struct("model")));
  }

  @Test
  void process_hierarchicalWithAnotherAggregator_isRefusedNamingBoth() {
    FederatedAlgorithm robust = FederatedAlgorithm.named("fedmedian")
        .withTopology(new Topology.Hierarchical(2, 2));

    assertThatThrownBy(() -> GraphLearning.build(robust, MODEL, 1, 10, 0.3, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("aggregation through edges takes the example-weighted mean")
        .hasMessageContaining("median");
  }

  @Test
  void tiered_edgeRoundsOutOfRange_isRefused() {
    assertThatThrownBy(() -> tiered(0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("got 0");
  }
}
