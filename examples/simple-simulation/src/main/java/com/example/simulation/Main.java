package com.example.simulation;

import io.tributary.core.computation.Computation;
import io.tributary.core.computation.Federated;
import io.tributary.core.computation.Intrinsics;
import io.tributary.core.types.Types;
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
import io.tributary.learning.graph.GraphLearning;
import io.tributary.learning.graph.SequenceValues;
import io.tributary.runtime.ExecutionContext;
import io.tributary.runtime.RuntimeOptions;
import io.tributary.tensor.DType;
import io.tributary.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;

/**
 * Uses Tributary as a library: a federated mean, then a short FedAvg simulation on the embedded
 * digits, printing each round's metrics.
 */
public final class Main {
  private static final int CLIENTS = 10;
  private static final int PER_ROUND = 5;
  private static final int ROUNDS = 3;

  private Main() {}

  public static void main(String[] args) throws Exception {
    try (ExecutionContext ctx = ExecutionContext.create(
        RuntimeOptions.defaults().withThreads(2).withSeed(1))) {
      // A federated computation typed with the builders: ({float32}@CLIENTS -> float32@SERVER).
      Computation mean = Federated.computation(
          Types.atClients(Types.tensor(DType.FLOAT32)), Intrinsics::federatedMean);
      Tensor average = (Tensor) ctx.invoke(mean,
          List.of(Tensor.scalar(20.5f), Tensor.scalar(22f), Tensor.scalar(19f)));
      System.out.println("mean of the clients' readings: " + average.floatItem());

      // FedAvg with an MLP over the 8x8 digits, split IID over 10 clients.
      TrainTestSplit split = Digits.load(0.2, 42);
      FederatedDataset clients = FederatedDataset.partitioned("digits", split.train(),
          Partitioner.parse("iid").partition(split.train(), CLIENTS, 1));
      Model model = Models.mlp("mlp", Digits.NUM_FEATURES, 32, Digits.NUM_CLASSES, DType.FLOAT32);
      LearningProcess fedAvg = GraphLearning.bound(
          GraphLearning.build(FederatedAlgorithm.fedAvg(), model, 2, 16, 0.3, 1),
          GraphBinder.standard());
      List<Object> test = List.of(SequenceValues.of(split.test(), 100));
      ClientSampler sampler = new ClientSampler(7);

      Object state = ctx.invoke(fedAvg.initialize());
      for (int round = 1; round <= ROUNDS; round++) {
        List<Object> data = new ArrayList<>();
        for (int c : sampler.sample(round, CLIENTS, PER_ROUND)) {
          data.add(SequenceValues.shuffled(clients.train().get(c), 16, 1000L * round + c));
        }
        RoundOutput out = RoundOutput.of(ctx.invoke(fedAvg.next(), state, data));
        state = out.state();
        EvaluationOutput eval =
            EvaluationOutput.of(ctx.invoke(fedAvg.evaluate(), out.model(), test));
        System.out.println("round " + round + ": train_loss=" + out.metrics().trainLoss()
            + " examples=" + out.metrics().numExamples() + " clients=" + out.metrics().clients()
            + " test_loss=" + eval.loss() + " test_accuracy=" + eval.accuracy());
      }
    }
  }
}
