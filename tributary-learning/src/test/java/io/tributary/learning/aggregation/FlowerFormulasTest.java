package io.tributary.learning.aggregation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.learning.serveropt.AdaptiveServerOptimizer;
import io.tributary.learning.serveropt.ServerOptimizer;
import io.tributary.learning.serveropt.ServerSgd;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.npy.Npz;
import io.tributary.tensor.testing.PythonEnv;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The aggregation rules and server optimizers give Flower's results, to float32 precision, for
 * the same client updates: {@code src/test/python/flower_formulas.py} computes them with numpy
 * from Flower's formulas.
 */
class FlowerFormulasTest {
  private static final int CLIENTS = 11;
  private static final int ROUNDS = 3;
  private static final Shape[] LAYERS = {Shape.of(3, 4), Shape.of(5)};

  @TempDir Path dir;

  private static List<Tensor> random(SplittableRandom rnd, double scale) {
    List<Tensor> out = new ArrayList<>();
    for (Shape s : LAYERS) {
      float[] v = new float[(int) s.size()];
      for (int i = 0; i < v.length; i++) {
        v[i] = (float) (rnd.nextGaussian() * scale);
      }
      out.add(Tensor.ofFloats(s, v));
    }
    return out;
  }

  @Test
  void rulesAndOptimizers_sameUpdates_giveFlowersResults() throws Exception {
    PythonEnv py = PythonEnv.require("numpy");
    SplittableRandom rnd = new SplittableRandom(42);
    List<List<Tensor>> updates = new ArrayList<>();
    long[] examples = new long[CLIENTS];
    Map<String, Tensor> in = new LinkedHashMap<>();
    for (int c = 0; c < CLIENTS; c++) {
      // Two Byzantine clients send far-off updates, which the robust rules must leave out.
      updates.add(random(rnd, c < 2 ? 50 : 1));
      examples[c] = 1 + rnd.nextInt(100);
      for (int l = 0; l < LAYERS.length; l++) {
        in.put("c" + c + "_l" + l, updates.get(c).get(l));
      }
    }
    in.put("examples", Tensor.ofLongs(Shape.of(CLIENTS), examples));
    List<Tensor> model = random(rnd, 1);
    List<List<Tensor>> rounds = new ArrayList<>();
    for (int l = 0; l < LAYERS.length; l++) {
      in.put("model_l" + l, model.get(l));
    }
    for (int r = 1; r <= ROUNDS; r++) {
      rounds.add(random(rnd, 0.1));
      for (int l = 0; l < LAYERS.length; l++) {
        in.put("update" + r + "_l" + l, rounds.getLast().get(l));
      }
    }
    Path input = dir.resolve("in.npz");
    Path output = dir.resolve("out.npz");
    Npz.write(input, in, false);
    py.run(dir, Duration.ofMinutes(2),
        Path.of("src/test/python/flower_formulas.py").toAbsolutePath().toString(),
        input.toString(), output.toString()).assertOk();
    Map<String, Tensor> want = Npz.read(output);

    ClientUpdates u = new ClientUpdates(updates, examples);
    Map<String, List<Tensor>> rules = Map.of(
        "mean", WeightedMean.of(u),
        "median", new CoordinateMedian().aggregate(u),
        "trimmed", new TrimmedMean(0.2).aggregate(u),
        "krum", new Krum(2, 0).aggregate(u),
        "multikrum", new Krum(2, 5).aggregate(u),
        "bulyan", new Bulyan(2).aggregate(u));
    for (var e : rules.entrySet()) {
      for (int l = 0; l < LAYERS.length; l++) {
        close(e.getKey() + " layer " + l, e.getValue().get(l), want.get(e.getKey() + "_l" + l));
      }
    }
    List<Tensor> q = qffl(model, updates, examples);
    for (int l = 0; l < LAYERS.length; l++) {
      close("qffl layer " + l, q.get(l), want.get("qffl_l" + l));
    }
    Map<String, ServerOptimizer> optimizers = Map.of(
        "fedavgm", new ServerSgd(0.7, 0.9),
        "fedadam", AdaptiveServerOptimizer.fedAdam(),
        "fedyogi", AdaptiveServerOptimizer.fedYogi(),
        "fedadagrad", AdaptiveServerOptimizer.fedAdagrad());
    for (var e : optimizers.entrySet()) {
      ServerOptimizer opt = e.getValue();
      List<Tensor> m = model;
      List<Tensor> state = opt.initialState(model);
      for (int r = 1; r <= ROUNDS; r++) {
        ServerOptimizer.Step step = opt.apply(r, m, rounds.get(r - 1), state);
        m = step.model();
        state = step.state();
        for (int l = 0; l < LAYERS.length; l++) {
          close(e.getKey() + " round " + r + " layer " + l, m.get(l),
              want.get(e.getKey() + "_r" + r + "_l" + l));
        }
      }
    }
  }

  /**
   * QFedAvg's federated aggregation, run by the runtime over the same updates with every client's
   * loss 0.7, added to the model, as Flower's QFedAvg computes the new model.
   */
  private static List<Tensor> qffl(List<Tensor> model, List<List<Tensor>> updates,
      long[] examples) {
    io.tributary.core.types.StructType m = io.tributary.core.types.StructType.named(
        "l0", io.tributary.core.types.TensorType.of(io.tributary.tensor.DType.FLOAT32, 3, 4),
        "l1", io.tributary.core.types.TensorType.of(io.tributary.tensor.DType.FLOAT32, 5));
    AggregationProcess p = new QFedAvg(0.2, 0.1).create(m);
    assertThat(p.takesLosses()).isTrue();
    List<Object> u = new ArrayList<>();
    List<Object> n = new ArrayList<>();
    List<Object> losses = new ArrayList<>();
    for (int c = 0; c < updates.size(); c++) {
      u.add(io.tributary.core.values.StructValue.named("l0", updates.get(c).get(0), "l1",
          updates.get(c).get(1)));
      n.add(Tensor.ofLongs(Shape.scalar(), examples[c]));
      losses.add(Tensor.scalar(0.7f));
    }
    try (io.tributary.runtime.ExecutionContext ctx = io.tributary.runtime.ExecutionContext
        .create(io.tributary.runtime.RuntimeOptions.defaults())) {
      io.tributary.core.values.StructValue d = (io.tributary.core.values.StructValue)
          ctx.invoke(p.next(), u, n, losses);
      return List.of(io.tributary.tensor.TensorMath.add(model.get(0), d.tensor("l0")),
          io.tributary.tensor.TensorMath.add(model.get(1), d.tensor("l1")));
    }
  }

  /** Equal to float32 precision: a few units in the last place of a float32. */
  private static void close(String what, Tensor got, Tensor want) {
    assertThat(want).as(what + " (missing from Python's output)").isNotNull();
    assertThat(got.size()).as(what).isEqualTo(want.size());
    for (long i = 0; i < got.size(); i++) {
      double g = got.getAsDouble(i);
      double w = want.getAsDouble(i);
      assertThat(g).as("%s element %d", what, i)
          .isCloseTo(w, org.assertj.core.api.Assertions.within(1e-5 * Math.max(1, Math.abs(w))));
    }
  }

  @Test
  void krumAndBulyan_tooFewUpdates_areRefusedNamingTheRule() {
    SplittableRandom rnd = new SplittableRandom(1);
    List<List<Tensor>> six = new ArrayList<>();
    for (int c = 0; c < 6; c++) {
      six.add(random(rnd, 1));
    }
    ClientUpdates u = new ClientUpdates(six, new long[] {1, 1, 1, 1, 1, 1});

    assertThatThrownBy(() -> new Krum(2, 0).aggregate(u))
        .isInstanceOf(InsufficientUpdatesException.class).hasMessageContaining("n > 2f + 2")
        .hasMessageContaining("n = 6");
    assertThatThrownBy(() -> new Bulyan(1).aggregate(u))
        .isInstanceOf(InsufficientUpdatesException.class).hasMessageContaining("n > 4f + 2");
    assertThat(new Krum(1, 0).aggregate(u)).hasSize(2);
  }

  @Test
  void clientUpdates_nonFiniteOrMismatched_areRefusedNamingTheClient() {
    SplittableRandom rnd = new SplittableRandom(1);
    List<Tensor> ok = random(rnd, 1);
    List<Tensor> bad = List.of(Tensor.ofFloats(Shape.of(3, 4), new float[12]),
        Tensor.ofFloats(Shape.of(5), 0, 0, Float.NaN, 0, 0));
    assertThatThrownBy(() -> new ClientUpdates(List.of(ok, bad), new long[] {1, 1}))
        .hasMessageContaining("client 1 layer 1 element 2 is not finite");
    assertThatThrownBy(() -> new ClientUpdates(List.of(ok, ok.subList(0, 1)), new long[] {1, 1}))
        .hasMessageContaining("client 1 sent 1 layers");
  }
}
