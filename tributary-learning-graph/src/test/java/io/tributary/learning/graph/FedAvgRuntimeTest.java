package io.tributary.learning.graph;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.core.values.StructValue;
import io.tributary.data.Dataset;
import io.tributary.data.Digits;
import io.tributary.data.FederatedDataset;
import io.tributary.data.Partitioner;
import io.tributary.data.TrainTestSplit;
import io.tributary.graph.local.GraphBinder;
import io.tributary.graph.models.Model;
import io.tributary.graph.models.Models;
import io.tributary.learning.ClientSampler;
import io.tributary.learning.EvaluationOutput;
import io.tributary.learning.FederatedAlgorithm;
import io.tributary.learning.LearningProcess;
import io.tributary.learning.RoundOutput;
import io.tributary.runtime.ExecutionContext;
import io.tributary.runtime.Outcome;
import io.tributary.runtime.RuntimeOptions;
import io.tributary.tensor.DType;
import io.tributary.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** FedAvg and FedProx run by the runtime's ExecutionContext on digits split over 10 clients. */
class FedAvgRuntimeTest {
  private static final int CLIENTS = 10;
  private static final int PER_ROUND = 5;

  record Run(List<Float> accuracies, List<Float> trainLosses, Object finalState) {}

  static Run run(LearningProcess process, int rounds, int threads) throws Exception {
    TrainTestSplit split = Digits.load(0.25, 42);
    FederatedDataset fed = FederatedDataset.partitioned("digits", split.train(),
        Partitioner.parse("iid").partition(split.train(), CLIENTS, 3));
    List<Object> test = List.of(SequenceValues.of(split.test(), 100));
    ClientSampler sampler = new ClientSampler(17);
    LearningProcess bound = GraphLearning.bound(process, GraphBinder.standard());
    List<Float> accuracies = new ArrayList<>();
    List<Float> losses = new ArrayList<>();
    try (ExecutionContext ctx = ExecutionContext.create(
        RuntimeOptions.defaults().withThreads(threads))) {
      Object state = ctx.invoke(bound.initialize());
      accuracies.add(accuracy(ctx, bound, state, test));
      for (int round = 0; round < rounds; round++) {
        List<Object> data = new ArrayList<>();
        for (int c : sampler.sample(round, CLIENTS, PER_ROUND)) {
          Dataset d = fed.train().get(c);
          data.add(SequenceValues.shuffled(d, 10, round * 1000L + c));
        }
        Outcome out = ctx.invokeWithReport(bound.next(), state, data);
        RoundOutput result = RoundOutput.of(out.value());
        // The typed output reads the same numbers as the positional struct.
        StructValue raw = (StructValue) out.value();
        assertThat(result.state()).isSameAs(raw.get(0));
        assertThat(result.metrics().trainLoss())
            .isEqualTo(((Tensor) ((StructValue) raw.get(1)).get("train_loss")).getFloat(0));
        state = result.state();
        assertThat(out.report().clients()).isEqualTo(PER_ROUND);
        assertThat(result.metrics().clients()).isEqualTo(PER_ROUND);
        assertThat(result.metrics().numExamples()).isPositive();
        losses.add(result.metrics().trainLoss());
        accuracies.add(accuracy(ctx, bound, state, test));
      }
      return new Run(accuracies, losses, state);
    }
  }

  private static float accuracy(ExecutionContext ctx, LearningProcess p, Object state,
      List<Object> test) {
    Object model = ((StructValue) state).struct("model");
    return EvaluationOutput.of(ctx.invoke(p.evaluate(), model, test)).accuracy();
  }

  @Test
  void fedAvg_threeRoundsOnDigitsOverTenClients_accuracyRises() throws Exception {
    Model model = Models.softmaxRegression("digits", 64, 10, DType.FLOAT32);
    Run r = run(GraphLearning.build(FederatedAlgorithm.fedAvg(), model, 2, 10, 0.3, 1), 3, 4);
    List<Float> acc = r.accuracies();
    for (int i = 1; i < acc.size(); i++) {
      assertThat(acc.get(i)).as("accuracy after round %d: %s", i, acc)
          .isGreaterThan(acc.get(i - 1));
    }
    assertThat(acc.get(0)).as(acc.toString()).isLessThan(0.3f);
    assertThat(acc.get(3)).as(acc.toString()).isGreaterThan(0.8f);
    assertThat(r.trainLosses().get(2)).isLessThan(r.trainLosses().get(0));
  }

  @Test
  void fedProx_sameSeedOneOrEightThreads_bitIdenticalState() throws Exception {
    Model model = Models.softmaxRegression("digits", 64, 10, DType.FLOAT32);
    LearningProcess p = GraphLearning.build(
        FederatedAlgorithm.named("fedprox", java.util.Map.of("proximal_mu", 0.5)), model, 1, 10, 0.1,
        1);
    Run one = run(p, 2, 1);
    Run eight = run(p, 2, 8);
    assertThat(eight.finalState()).isEqualTo(one.finalState());
    assertThat(eight.accuracies()).isEqualTo(one.accuracies());
  }
}
