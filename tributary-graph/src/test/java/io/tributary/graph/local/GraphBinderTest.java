package io.tributary.graph.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.core.compiler.BuildingBlock;
import io.tributary.core.compiler.GraphComputation;
import io.tributary.core.compiler.JavaFunction;
import io.tributary.core.compiler.LocalComputations;
import io.tributary.core.computation.Computation;
import io.tributary.core.computation.Federated;
import io.tributary.core.computation.Intrinsics;
import io.tributary.core.proto.ComputationProtos;
import io.tributary.core.proto.LocalResolver;
import io.tributary.core.types.FunctionType;
import io.tributary.core.types.StructType;
import io.tributary.core.types.Types;
import io.tributary.core.values.StructValue;
import io.tributary.graph.Graph;
import io.tributary.graph.autodiff.Autodiff;
import io.tributary.graph.autodiff.GradientGraph;
import io.tributary.graph.models.Model;
import io.tributary.graph.models.Models;
import io.tributary.graph.ops.GraphExecutor;
import io.tributary.graph.optim.Sgd;
import io.tributary.graph.training.Batch;
import io.tributary.graph.training.Evaluation;
import io.tributary.graph.training.Trainer;
import io.tributary.tensor.DType;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class GraphBinderTest {
  private static final Model MCLR = Models.mclr();
  private static final StructType M = LocalTraining.modelType(MCLR);

  /** Seeded random examples for mclr (60 features, 10 classes), cut into batches of size. */
  static List<Batch> batches(int examples, int size, long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    float[] xs = new float[examples * 60];
    long[] ys = new long[examples];
    for (int i = 0; i < xs.length; i++) {
      xs[i] = (float) rnd.nextGaussian();
    }
    for (int i = 0; i < examples; i++) {
      ys[i] = rnd.nextInt(10);
    }
    List<Batch> out = new ArrayList<>();
    for (int start = 0; start < examples; start += size) {
      int n = Math.min(size, examples - start);
      out.add(new Batch(
          Tensor.ofFloats(Shape.of(n, 60), java.util.Arrays.copyOfRange(xs, start * 60,
              (start + n) * 60)),
          Tensor.ofLongs(Shape.of(n), java.util.Arrays.copyOfRange(ys, start, start + n))));
    }
    return out;
  }

  static List<StructValue> seq(List<Batch> batches) {
    List<StructValue> out = new ArrayList<>();
    for (Batch b : batches) {
      out.add(StructValue.named("x", b.x(), "y", b.y()));
    }
    return out;
  }

  static StructValue call(GraphComputation g, Map<String, Tensor> params, Object data)
      throws GraphBindingException {
    return (StructValue) GraphBinder.standard().bind(g).body()
        .apply(StructValue.named("model", ModelStructs.toValue(M, params), "data", data));
  }

  @Test
  void clientUpdate_withoutMu_matchesTrainerStepForStep() throws Exception {
    List<Batch> data = batches(95, 20, 1);
    Map<String, Tensor> init = MCLR.initialParameters(4);
    StructValue out = call(LocalTraining.clientUpdate("cu", MCLR,
        ClientUpdateConfig.fedAvg(3, 0, 0.1)), init, seq(data));

    Trainer t = Trainer.forModel(MCLR, new Sgd(0.1), init);
    double weighted = 0;
    for (int e = 0; e < 3; e++) {
      weighted += t.trainEpoch(data.iterator()).meanLoss() * 95;
    }
    Map<String, Tensor> delta = ModelStructs.fromValue(M, out.get("delta"), "delta");
    for (String p : MCLR.trainableNames()) {
      Tensor w = t.parameters().get(p);
      for (int i = 0; i < w.size(); i++) {
        assertThat(delta.get(p).getFloat(i))
            .isEqualTo(w.getFloat(i) - init.get(p).getFloat(i));
      }
    }
    assertThat(((Tensor) out.get("num_examples")).getLong(0)).isEqualTo(95);
    assertThat((double) ((Tensor) out.get("loss")).getFloat(0))
        .isCloseTo(weighted / (3 * 95), org.assertj.core.data.Offset.offset(1e-6));
  }

  @Test
  void clientUpdate_batchSize_regroupsTheExamplesInOrder() throws Exception {
    Map<String, Tensor> init = MCLR.initialParameters(4);
    StructValue asGiven = call(LocalTraining.clientUpdate("cu", MCLR,
        ClientUpdateConfig.fedAvg(2, 0, 0.1)), init, seq(batches(95, 20, 1)));
    StructValue regrouped = call(LocalTraining.clientUpdate("cu", MCLR,
        ClientUpdateConfig.fedAvg(2, 20, 0.1)), init, seq(batches(95, 7, 1)));
    StructValue oneBatch = call(LocalTraining.clientUpdate("cu", MCLR,
        ClientUpdateConfig.fedAvg(2, 20, 0.1)), init, seq(batches(95, 95, 1)));
    assertThat(regrouped).isEqualTo(asGiven);
    assertThat(oneBatch).isEqualTo(asGiven);
  }

  @Test
  void proximalTerm_valueAndGradient_matchTheFormula() {
    double mu = 0.7;
    Graph g = LocalTraining.withProximalTerm(MCLR, mu);
    Map<String, Tensor> w = MCLR.initialParameters(1);
    Map<String, Tensor> anchor = MCLR.initialParameters(2);
    GradientGraph plain = Autodiff.gradients(MCLR.graph(), MCLR.loss(), MCLR.trainableNames());
    GradientGraph prox = Autodiff.gradients(g, LocalTraining.OBJECTIVE, MCLR.trainableNames());
    Batch b = batches(8, 8, 3).get(0);
    Map<String, Tensor> feeds = new HashMap<>(w);
    feeds.put("x", b.x());
    feeds.put("labels", b.y());
    anchor.forEach((k, v) -> feeds.put(LocalTraining.ANCHOR_PREFIX + k, v));
    List<String> fetch = new ArrayList<>(List.of(MCLR.loss()));
    List<String> fetchProx = new ArrayList<>(List.of(LocalTraining.OBJECTIVE));
    for (String p : MCLR.trainableNames()) {
      fetch.add(plain.gradientOf(p));
      fetchProx.add(prox.gradientOf(p));
    }
    Map<String, Tensor> a = new GraphExecutor(plain.graph()).runTensors(feeds, fetch);
    Map<String, Tensor> c = new GraphExecutor(prox.graph()).runTensors(feeds, fetchProx);
    double sq = 0;
    for (String p : MCLR.trainableNames()) {
      Tensor gw = a.get(plain.gradientOf(p));
      Tensor gp = c.get(prox.gradientOf(p));
      for (int i = 0; i < gw.size(); i++) {
        double d = w.get(p).getFloat(i) - anchor.get(p).getFloat(i);
        sq += d * d;
        assertThat((double) gp.getFloat(i) - gw.getFloat(i))
            .isCloseTo(mu * d, org.assertj.core.data.Offset.offset(1e-5));
      }
    }
    assertThat(c.get(LocalTraining.OBJECTIVE).getAsDouble(0) - a.get(MCLR.loss()).getAsDouble(0))
        .isCloseTo(mu / 2 * sq, org.assertj.core.data.Offset.offset(1e-4));
  }

  @Test
  void clientUpdate_largerMu_staysCloserToTheGlobalModel() throws Exception {
    Map<String, Tensor> init = MCLR.initialParameters(4);
    List<StructValue> data = seq(batches(200, 10, 5));
    double[] norms = new double[3];
    double[] mus = {0, 0.1, 1};
    for (int k = 0; k < 3; k++) {
      StructValue out = call(LocalTraining.clientUpdate("cu", MCLR,
          ClientUpdateConfig.fedProx(5, 0, 0.05, mus[k])), init, data);
      for (Tensor t : ModelStructs.fromValue(M, out.get("delta"), "delta").values()) {
        for (int i = 0; i < t.size(); i++) {
          norms[k] += t.getFloat(i) * t.getFloat(i);
        }
      }
    }
    assertThat(norms[1]).isLessThan(norms[0]);
    assertThat(norms[2]).isLessThan(norms[1]);
  }

  @Test
  void evaluation_matchesTrainerEvaluate() throws Exception {
    List<Batch> data = batches(77, 16, 9);
    Map<String, Tensor> params = MCLR.initialParameters(6);
    StructValue out = call(LocalTraining.evaluation("ev", MCLR), params, seq(data));
    Evaluation e = Trainer.forModel(MCLR, new Sgd(0.1), params).evaluate(data.iterator());
    assertThat(((Tensor) out.get("loss")).getFloat(0)).isEqualTo((float) e.loss());
    assertThat(((Tensor) out.get("accuracy")).getFloat(0)).isEqualTo((float) e.accuracy());
    assertThat(((Tensor) out.get("num_examples")).getLong(0)).isEqualTo(77);
  }

  @Test
  void noData_givesZeroDeltaAndZeroMetrics() throws Exception {
    Map<String, Tensor> init = MCLR.initialParameters(6);
    StructValue cu = call(LocalTraining.clientUpdate("cu", MCLR,
        ClientUpdateConfig.fedProx(2, 10, 0.1, 0.5)), init, List.of());
    for (Tensor t : ModelStructs.fromValue(M, cu.get("delta"), "delta").values()) {
      assertThat(t).isEqualTo(Tensor.zeros(DType.FLOAT32, t.shape()));
    }
    assertThat(cu.get("num_examples")).isEqualTo(Tensor.ofLongs(Shape.scalar(), 0));
    assertThat(cu.get("loss")).isEqualTo(Tensor.scalar(0f));
    StructValue ev = call(LocalTraining.evaluation("ev", MCLR), init, List.of());
    assertThat(ev).isEqualTo(StructValue.named("loss", Tensor.scalar(0f),
        "accuracy", Tensor.scalar(0f), "num_examples", Tensor.ofLongs(Shape.scalar(), 0)));
  }

  @Test
  void initialModel_givesTheSeededParameters() throws Exception {
    JavaFunction f = GraphBinder.standard().bind(LocalTraining.initialModel("init", MCLR, 11));
    assertThat(ModelStructs.fromValue(M, f.body().apply(null), "init"))
        .isEqualTo(MCLR.initialParameters(11));
  }

  @Test
  void bindAll_afterProtoRoundTrip_runsTheSameUpdate() throws Exception {
    GraphComputation cu = LocalTraining.clientUpdate("client_update", MCLR,
        ClientUpdateConfig.fedProx(1, 10, 0.1, 0.01));
    Computation round = Federated.computation(
        Types.parse("{" + LocalTraining.clientUpdateType(MCLR).parameter().orElseThrow()
            + "}@CLIENTS"),
        arg -> Intrinsics.federatedMap(Computation.of(cu), arg));
    BuildingBlock read = ComputationProtos.fromBytes(ComputationProtos.toBytes(round.block()),
        LocalResolver.none());
    assertThat(read).isEqualTo(round.block());
    BuildingBlock bound = GraphBinder.standard().bindAll(read);
    JavaFunction f = (JavaFunction) LocalComputations.all(bound).get(0);
    assertThat(f.name()).isEqualTo("client_update");
    Map<String, Tensor> init = MCLR.initialParameters(1);
    Object arg = StructValue.named("model", ModelStructs.toValue(M, init),
        "data", seq(batches(30, 10, 2)));
    assertThat(f.body().apply(arg)).isEqualTo(call(cu, init, seq(batches(30, 10, 2))));
  }

  static Stream<Arguments> unbindable() {
    GraphComputation cu = LocalTraining.clientUpdate("cu", MCLR,
        ClientUpdateConfig.fedAvg(1, 0, 0.1));
    TreeMap<String, String> noEpochs = new TreeMap<>(cu.settings());
    noEpochs.remove("epochs");
    TreeMap<String, String> badLr = new TreeMap<>(cu.settings());
    badLr.put("learning_rate", "fast");
    TreeMap<String, String> badVar = new TreeMap<>(cu.settings());
    badVar.put("loss", "nope");
    TreeMap<String, String> zeroEpochs = new TreeMap<>(cu.settings());
    zeroEpochs.put("epochs", "0");
    byte[] corrupt = cu.graph();
    corrupt[corrupt.length / 2] ^= 0x55;
    return Stream.of(
        Arguments.of("unknown procedure", new GraphComputation("cu", cu.type(), "train_forever",
            cu.graph(), cu.settings()), "procedure 'train_forever', which this binder does not"),
        Arguments.of("missing setting", new GraphComputation("cu", cu.type(), "client_update",
            cu.graph(), noEpochs), "has no setting 'epochs'"),
        Arguments.of("bad number", new GraphComputation("cu", cu.type(), "client_update",
            cu.graph(), badLr), "learning_rate of graph computation cu is 'fast'"),
        Arguments.of("out of range", new GraphComputation("cu", cu.type(), "client_update",
            cu.graph(), zeroEpochs), "epochs of graph computation cu is 0, outside [1, 10000]"),
        Arguments.of("unknown variable", new GraphComputation("cu", cu.type(), "client_update",
            cu.graph(), badVar), "names the variable 'nope'"),
        Arguments.of("type disagrees", new GraphComputation("cu",
            (FunctionType) Types.parse("(<model=<w=float32[2]>,data=<x=float32[?,60],"
                + "y=int64[?]>*> -> float32)"), "client_update", cu.graph(), cu.settings()),
            "is declared as"),
        Arguments.of("corrupt graph", new GraphComputation("cu", cu.type(), "client_update",
            corrupt, cu.settings()), "graph computation cu: "),
        Arguments.of("evaluate without accuracy", new GraphComputation("ev",
            LocalTraining.evaluationType(MCLR), "evaluate", cu.graph(), cu.settings()),
            "has no setting 'accuracy'"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("unbindable")
  void bind_badComputation_throwsNamingIt(String what, GraphComputation g, String message) {
    assertThatThrownBy(() -> GraphBinder.standard().bind(g))
        .isInstanceOf(GraphBindingException.class).hasMessageContaining(message);
  }

  static Stream<Arguments> badArguments() {
    Object model = ModelStructs.toValue(M, MCLR.initialParameters(1));
    Tensor x = Tensor.zeros(DType.FLOAT32, Shape.of(2, 60));
    Tensor y = Tensor.zeros(DType.INT64, Shape.of(2));
    return Stream.of(
        Arguments.of("not a struct", x, "the argument should be <model=...,data=...>"),
        Arguments.of("data not iterable", StructValue.named("model", model, "data", x),
            "graph:cu: data: the data should be an Iterable"),
        Arguments.of("element not a batch", StructValue.named("model", model, "data", List.of(x)),
            "graph:cu: data, batch 0: expected a struct <x=...,y=...>"),
        Arguments.of("x and y disagree", StructValue.named("model", model, "data",
            List.of(StructValue.named("x", x, "y", Tensor.zeros(DType.INT64, Shape.of(3))))),
            "should share their first dimension"),
        Arguments.of("wrong feature count", StructValue.named("model", model, "data",
            List.of(StructValue.named("x", Tensor.zeros(DType.FLOAT32, Shape.of(2, 59)), "y", y))),
            "graph:cu: epoch 0: "));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("badArguments")
  void clientUpdate_badArgument_throwsNamingThePlace(String what, Object arg, String message)
      throws Exception {
    JavaFunction f = GraphBinder.standard().bind(LocalTraining.clientUpdate("cu", MCLR,
        ClientUpdateConfig.fedAvg(1, 0, 0.1)));
    assertThatThrownBy(() -> f.body().apply(arg))
        .isInstanceOf(LocalRunException.class).hasMessageContaining(message);
  }

  @Test
  void bind_customProcedure_isUsedByName() throws Exception {
    GraphComputation cu = LocalTraining.clientUpdate("cu", MCLR,
        ClientUpdateConfig.fedAvg(1, 0, 0.1));
    GraphComputation custom = new GraphComputation("sz", (FunctionType) Types.parse(
        "(float32 -> int64)"), "graph_size", cu.graph(), new TreeMap<>());
    GraphBinder b = GraphBinder.standard().with("graph_size",
        (g, graph) -> arg -> Tensor.ofLongs(Shape.scalar(), graph.ops().size()));
    assertThat(b.bind(custom).body().apply(Tensor.scalar(1f)))
        .isEqualTo(Tensor.ofLongs(Shape.scalar(), MCLR.graph().ops().size()));
    assertThatThrownBy(() -> GraphBinder.standard().bind(custom))
        .hasMessageContaining("'graph_size'");
  }
}
