package io.tributary.guide;

import io.tributary.data.Digits;
import io.tributary.data.FederatedDataset;
import io.tributary.data.Partitioner;
import io.tributary.data.TrainTestSplit;
import io.tributary.graph.GraphBuilder;
import io.tributary.graph.local.GraphBinder;
import io.tributary.graph.models.Model;
import io.tributary.learning.EvaluationOutput;
import io.tributary.learning.FederatedAlgorithm;
import io.tributary.learning.LearningProcess;
import io.tributary.learning.RoundOutput;
import io.tributary.learning.graph.GraphLearning;
import io.tributary.learning.graph.SequenceValues;
import io.tributary.runtime.ExecutionContext;
import io.tributary.runtime.RuntimeOptions;
import io.tributary.tensor.DType;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Trains a model built op by op with GraphBuilder, with FedAvg over four clients' digits. */
public final class CustomModel {
  private static final int CLIENTS = 4;
  private static final int ROUNDS = 5;

  private CustomModel() {}

  /** A 64-32-10 classifier with a tanh hidden layer: its graph and the names of its parts. */
  static Model tanhNetwork() {
    GraphBuilder b = new GraphBuilder();
    String x = b.placeholder("x", DType.FLOAT32, -1, Digits.NUM_FEATURES);
    String labels = b.placeholder("labels", DType.INT64, -1);
    String w1 = b.trainable("hidden/kernel", DType.FLOAT32, Digits.NUM_FEATURES, 32);
    String b1 = b.trainable("hidden/bias", DType.FLOAT32, 32);
    String hidden = b.op("tanh", b.op("add", b.op("matmul", x, w1), b1));
    String w2 = b.trainable("output/kernel", DType.FLOAT32, 32, Digits.NUM_CLASSES);
    String b2 = b.trainable("output/bias", DType.FLOAT32, Digits.NUM_CLASSES);
    String logits = b.op("add", b.op("matmul", hidden, w2), b2);
    String loss = b.op("reduce_mean", b.op("sparse_softmax_cross_entropy", logits, labels));
    String accuracy = b.op("accuracy", logits, labels);
    return new Model("tanh-net", b.build(), x, labels, logits, loss, accuracy);
  }

  public static void main(String[] args) throws Exception {
    Model model = tanhNetwork();
    System.out.println(model.name() + ": " + model.parameterCount() + " parameters "
        + model.trainableNames());
    TrainTestSplit split = Digits.load(0.2, 42);
    FederatedDataset clients = FederatedDataset.partitioned("digits", split.train(),
        Partitioner.parse("iid").partition(split.train(), CLIENTS, 1));
    LearningProcess fedAvg = GraphLearning.bound(
        GraphLearning.build(FederatedAlgorithm.fedAvg(), model, 1, 16, 0.1, 1),
        GraphBinder.standard());
    List<Object> test = List.of(SequenceValues.of(split.test(), 100));

    try (ExecutionContext ctx = ExecutionContext.create(RuntimeOptions.defaults().withSeed(1))) {
      Object state = ctx.invoke(fedAvg.initialize());
      for (int round = 1; round <= ROUNDS; round++) {
        List<Object> data = new ArrayList<>();
        for (int c = 0; c < CLIENTS; c++) {
          data.add(SequenceValues.shuffled(clients.train().get(c), 16, 1000L * round + c));
        }
        RoundOutput out = RoundOutput.of(ctx.invoke(fedAvg.next(), state, data));
        state = out.state();
        EvaluationOutput eval =
            EvaluationOutput.of(ctx.invoke(fedAvg.evaluate(), out.model(), test));
        System.out.printf(Locale.ROOT, "round %d: train loss %.4f, test accuracy %.3f%n",
            round, out.metrics().trainLoss(), eval.accuracy());
      }
    }
  }
}
