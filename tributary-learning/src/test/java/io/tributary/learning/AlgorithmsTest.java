package io.tributary.learning;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.core.computation.Computation;
import io.tributary.core.computation.Federated;
import io.tributary.core.computation.Intrinsics;
import io.tributary.core.types.FunctionType;
import io.tributary.core.types.Placement;
import io.tributary.core.types.StructType;
import io.tributary.core.types.Types;
import io.tributary.core.values.StructValue;
import io.tributary.learning.aggregation.ClientUpdates;
import io.tributary.learning.aggregation.QFedAvg;
import io.tributary.learning.aggregation.WeightedMean;
import io.tributary.learning.aggregation.WholeRoundAggregator;
import io.tributary.learning.serveropt.ServerOptimizer;
import io.tributary.runtime.ExecutionContext;
import io.tributary.runtime.LocalComputationException;
import io.tributary.runtime.RuntimeOptions;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every algorithm of the suite, composed into one federated {@code next}, moves the model as its
 * aggregation rule and server optimizer do when applied by hand (FlowerFormulasTest checks those
 * against Flower's formulas in numpy).
 */
class AlgorithmsTest {
  private static final StructType M = (StructType) Types.parse("<a=float32[3],b=<c=float32[2]>>");
  private static final int CLIENTS = 11;
  private static final int ROUNDS = 3;

  /** Client i's update in round r: fixed Gaussian numbers, clients 0 and 1 far off. */
  private static List<Tensor> update(int client, int round) {
    SplittableRandom rnd = new SplittableRandom(1000L * round + client);
    double scale = client < 2 ? 30 : 0.5;
    float[] a = new float[3];
    float[] c = new float[2];
    for (int i = 0; i < 3; i++) {
      a[i] = (float) (rnd.nextGaussian() * scale);
    }
    for (int i = 0; i < 2; i++) {
      c[i] = (float) (rnd.nextGaussian() * scale);
    }
    return List.of(Tensor.ofFloats(Shape.of(3), a), Tensor.ofFloats(Shape.of(2), c));
  }

  private static long examples(int client) {
    return 1 + client * 7L % 13;
  }

  /** D is {@code <client=int64,round=int64>}; the update ignores the model, like a Byzantine. */
  private static final io.tributary.core.compiler.LocalFunction CLIENT_FN = arg -> {
        StructValue d = ((StructValue) arg).struct(1);
        int c = (int) d.tensor(0).longItem();
        List<Tensor> u = update(c, (int) d.tensor(1).longItem());
        return StructValue.named("delta", StructValue.named("a", u.get(0), "b",
            StructValue.named("c", u.get(1))), "num_examples",
            Tensor.ofLongs(Shape.scalar(), examples(c)), "loss", Tensor.scalar(1f));
      };

  private static final Computation CLIENT = Federated.local("fixed_update",
      FunctionType.of(StructType.named("model", M, "data", Types.parse("<client=int64,round=int64>")),
          Types.parse("<delta=" + M + ",num_examples=int64,loss=float32>")), CLIENT_FN);

  private static final Computation EVAL = Federated.local("no_eval",
      FunctionType.of(StructType.named("model", M, "data", Types.parse("<client=int64,round=int64>")),
          Types.parse("<loss=float32,num_examples=int64>")),
      arg -> StructValue.named("loss", Tensor.scalar(0f), "num_examples",
          Tensor.ofLongs(Shape.scalar(), 1)));

  private static final List<Tensor> START = List.of(Tensor.ofFloats(Shape.of(3), 1, -2, 3),
      Tensor.ofFloats(Shape.of(2), 0.5f, 0.25f));

  private static final Computation INIT = Federated.computation(() -> Intrinsics.federatedEval(
      Federated.local("start", FunctionType.noParameter(StructType.named("model", M)),
          x -> StructValue.named("model", StructValue.named("a", START.get(0), "b",
              StructValue.named("c", START.get(1))))), Placement.SERVER));

  private static List<Tensor> leaves(StructValue model) {
    return List.of(model.tensor("a"), model.struct("b").tensor("c"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"fedavg", "fedavgm", "fedprox", "fedadam", "fedyogi", "fedadagrad",
      "fedmedian", "fedtrimmedavg", "krum", "multikrum", "bulyan", "qfedavg"})
  void next_suiteAlgorithm_movesTheModelAsItsPartsByHand(String name) {
    Map<String, Double> h = switch (name) {
      case "fedavgm" -> Map.of("server_learning_rate", 0.7, "server_momentum", 0.9);
      case "krum" -> Map.of("num_malicious_clients", 2.0);
      case "multikrum" -> Map.of("num_malicious_clients", 2.0, "num_clients_to_keep", 4.0);
      case "bulyan" -> Map.of("num_malicious_clients", 2.0);
      default -> Map.of();
    };
    FederatedAlgorithm algorithm = FederatedAlgorithm.named(name, h);
    LearningProcess p = algorithm.process(INIT, CLIENT, EVAL);
    List<Tensor> model = START;
    List<Tensor> optState = algorithm.serverOptimizer().initialState(START);
    try (ExecutionContext ctx = ExecutionContext.create(RuntimeOptions.defaults())) {
      StructValue state = (StructValue) ctx.invoke(p.initialize());
      for (int r = 1; r <= ROUNDS; r++) {
        List<Object> data = new ArrayList<>();
        List<List<Tensor>> updates = new ArrayList<>();
        long[] ex = new long[CLIENTS];
        for (int c = 0; c < CLIENTS; c++) {
          data.add(StructValue.named("client", Tensor.ofLongs(Shape.scalar(), c), "round",
              Tensor.ofLongs(Shape.scalar(), r)));
          updates.add(update(c, r));
          ex[c] = examples(c);
        }
        RoundOutput out = RoundOutput.of(ctx.invoke(p.next(), state, data));
        state = out.state();
        ClientUpdates u = new ClientUpdates(updates, ex);
        List<Tensor> agg = algorithm.aggregator() instanceof WholeRoundAggregator w
            ? w.aggregate(u) : algorithm.aggregator() instanceof QFedAvg q ? qfflByHand(q, updates)
            : WeightedMean.of(u);
        ServerOptimizer.Step step = algorithm.serverOptimizer().apply(r, model, agg, optState);
        model = step.model();
        optState = step.state();
        List<Tensor> got = leaves(out.model());
        for (int l = 0; l < 2; l++) {
          float[] want = model.get(l).toFloatArray();
          float[] have = got.get(l).toFloatArray();
          for (int i = 0; i < want.length; i++) {
            assertThat(have[i]).as("%s round %d layer %d element %d", name, r, l, i)
                .isCloseTo(want[i], org.assertj.core.data.Offset.offset(
                    1e-5f * Math.max(1, Math.abs(want[i]))));
          }
        }
      }
    }
  }

  /** q-FFL's update with every client's loss 1 (the fixed client's), in double. */
  private static List<Tensor> qfflByHand(QFedAvg q, List<List<Tensor>> updates) {
    double f = 1 + 1e-10;
    double lip = 1 / q.learningRate();
    double[][] sum = {new double[3], new double[2]};
    double h = 0;
    for (List<Tensor> u : updates) {
      double norm = 0;
      for (int l = 0; l < 2; l++) {
        float[] v = u.get(l).toFloatArray();
        for (int i = 0; i < v.length; i++) {
          norm += (v[i] * lip) * (v[i] * lip);
          sum[l][i] += Math.pow(f, q.q()) * v[i] * lip;
        }
      }
      h += q.q() * Math.pow(f, q.q() - 1) * norm + lip * Math.pow(f, q.q());
    }
    float[] a = new float[3];
    float[] c = new float[2];
    for (int i = 0; i < 3; i++) {
      a[i] = (float) (sum[0][i] / h);
    }
    for (int i = 0; i < 2; i++) {
      c[i] = (float) (sum[1][i] / h);
    }
    return List.of(Tensor.ofFloats(Shape.of(3), a), Tensor.ofFloats(Shape.of(2), c));
  }

  @Test
  void fedAdam_state_carriesRoundAndMomentsAndPrintsAsDocumented() {
    LearningProcess p = FederatedAlgorithm.named("fedadam").process(INIT, CLIENT, EVAL);
    String s = "<model=" + M + ",optimizer=<round=int64,m=" + M + ",v=" + M + ">>";
    assertThat(p.initialize().type().toString()).isEqualTo("( -> " + s + "@SERVER)");
    assertThat(p.next().type().toString()).isEqualTo("(<" + s
        + "@SERVER,{<client=int64,round=int64>}@CLIENTS> -> <" + s
        + "@SERVER,<train_loss=float32,num_examples=int64,clients=int64>@SERVER>)");
  }

  @ParameterizedTest
  @org.junit.jupiter.params.provider.CsvSource(delimiter = '|', value = {
      "fedavg|<model=M>", "fedprox|<model=M>", "fedmedian|<model=M>",
      "fedtrimmedavg|<model=M>", "krum|<model=M>", "multikrum|<model=M>", "bulyan|<model=M>", "qfedavg|<model=M>",
      "fedavgm|<model=M>",
      "fedavgm:0.9|<model=M,optimizer=<round=int64,momentum=M>>",
      "fedadam|<model=M,optimizer=<round=int64,m=M,v=M>>",
      "fedyogi|<model=M,optimizer=<round=int64,m=M,v=M>>",
      "fedadagrad|<model=M,optimizer=<round=int64,m=M,v=M>>"})
  void initialize_suiteAlgorithm_serverStateAsDocumented(String algorithm, String state) {
    String[] a = algorithm.split(":");
    Map<String, Double> h = a.length > 1 ? Map.of("server_momentum", Double.parseDouble(a[1]))
        : Map.of();
    LearningProcess p = FederatedAlgorithm.named(a[0], h).process(INIT, CLIENT, EVAL);
    assertThat(p.initialize().type().toString())
        .isEqualTo("( -> " + state.replace("M", M.toString()) + "@SERVER)");
  }

  @Test
  void fedAvg_state_isTheModelAlone() {
    LearningProcess p = FederatedAlgorithm.named("fedmedian").process(INIT, CLIENT, EVAL);
    assertThat(p.initialize().type().toString()).isEqualTo("( -> <model=" + M + ">@SERVER)");
  }

  @Test
  void next_krumWithTooFewClients_failsNamingTheRule() {
    LearningProcess p = FederatedAlgorithm.named("krum", Map.of("num_malicious_clients", 5.0))
        .process(INIT, CLIENT, EVAL);
    try (ExecutionContext ctx = ExecutionContext.create(RuntimeOptions.defaults())) {
      Object state = ctx.invoke(p.initialize());
      List<Object> data = new ArrayList<>();
      for (int c = 0; c < CLIENTS; c++) {
        data.add(StructValue.named("client", Tensor.ofLongs(Shape.scalar(), c), "round",
            Tensor.ofLongs(Shape.scalar(), 1)));
      }
      assertThatThrownBy(() -> ctx.invoke(p.next(), state, data))
          .isInstanceOf(LocalComputationException.class)
          .hasMessageContaining("Krum (f 5) needs n > 2f + 2 client updates, got n = 11");
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"fedmedian", "krum", "fedavg"})
  void next_oneClientSendsNaN_isThatClientsFailureAndTheRestAggregate(String name) {
    Computation poisoned = Federated.local("poisoned", CLIENT.type(), arg -> {
      StructValue out = (StructValue) CLIENT_FN.apply(arg);
      long c = ((StructValue) arg).struct(1).tensor(0).longItem();
      if (c != 3) {
        return out;
      }
      return StructValue.named("delta", StructValue.named("a", Tensor.ofFloats(Shape.of(3),
          1, Float.NaN, 2), "b", StructValue.named("c", Tensor.ofFloats(Shape.of(2), 0, 0))),
          "num_examples", Tensor.ofLongs(Shape.scalar(), 5), "loss", Tensor.scalar(1f));
    });
    LearningProcess p = FederatedAlgorithm.named(name).process(INIT, poisoned, EVAL);
    try (ExecutionContext ctx = ExecutionContext.create(
        RuntimeOptions.defaults().withMinSuccessFraction(0.5))) {
      Object state = ctx.invoke(p.initialize());
      List<Object> data = new ArrayList<>();
      for (int c = 0; c < CLIENTS; c++) {
        data.add(StructValue.named("client", Tensor.ofLongs(Shape.scalar(), c), "round",
            Tensor.ofLongs(Shape.scalar(), 1)));
      }
      io.tributary.runtime.Outcome out = ctx.invokeWithReport(p.next(), state, data);
      assertThat(out.report().failures()).hasSize(1);
      assertThat(out.report().failures().get(0).client()).isEqualTo(3);
      assertThat(out.report().failures().get(0).describe()).contains("not finite");
      RoundOutput r = RoundOutput.of(out.value());
      assertThat(r.metrics().clients()).isEqualTo(CLIENTS - 1);
      for (float v : r.model().tensor("a").toFloatArray()) {
        assertThat(v).isFinite();
      }
    }
  }

  @Test
  void named_unknownNameOrHyperparameter_throwsNamingTheChoices() {
    // scaledmean is the algorithm this module's tests register (ScaledMeanSpec).
    assertThatThrownBy(() -> FederatedAlgorithm.named("fedsgd"))
        .hasMessage("unknown algorithm 'fedsgd'; known: fedavg, fedavgm, fedprox, fedadam, "
            + "fedyogi, fedadagrad, fedmedian, fedtrimmedavg, krum, multikrum, bulyan, qfedavg, "
            + "hierfavg, scaledmean");
    assertThatThrownBy(() -> FederatedAlgorithm.named("fedadam", Map.of("beta", 0.1)))
        .hasMessage("fedadam has no hyperparameter 'beta'; it takes eta, beta_1, beta_2, tau");
    assertThatThrownBy(() -> FederatedAlgorithm.named("fedadam", Map.of("beta_1", 1.5)))
        .hasMessage("fedadam: beta_1 must be in [0, 1), got 1.5");
    assertThatThrownBy(() -> FederatedAlgorithm.named("krum", Map.of("num_malicious_clients", 1.5)))
        .hasMessage("krum: num_malicious_clients must be a whole number >= 0, got 1.5");
  }

  @Test
  void customAggregator_oneSmallClass_runsInTheRound() {
    WholeRoundAggregator first = new WholeRoundAggregator() {
      @Override
      public String name() {
        return "first";
      }

      @Override
      public List<Tensor> aggregate(ClientUpdates u) {
        return u.client(0);
      }
    };
    LearningProcess p = FederatedAlgorithm.fedAvg().withAggregator(first)
        .process(INIT, CLIENT, EVAL);
    try (ExecutionContext ctx = ExecutionContext.create(RuntimeOptions.defaults())) {
      Object state = ctx.invoke(p.initialize());
      RoundOutput out = RoundOutput.of(ctx.invoke(p.next(), state, List.of(
          StructValue.named("client", Tensor.ofLongs(Shape.scalar(), 4), "round",
              Tensor.ofLongs(Shape.scalar(), 1)))));
      float want = START.get(0).toFloatArray()[0] + update(4, 1).get(0).toFloatArray()[0];
      assertThat(out.model().tensor("a").toFloatArray()[0]).isEqualTo(want);
    }
  }
}
