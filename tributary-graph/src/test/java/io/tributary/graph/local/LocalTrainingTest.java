package io.tributary.graph.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.core.compiler.GraphComputation;
import io.tributary.core.compiler.JavaFunction;
import io.tributary.core.types.StructType;
import io.tributary.core.values.StructValue;
import io.tributary.data.Dataset;
import io.tributary.data.Digits;
import io.tributary.data.FederatedDataset;
import io.tributary.data.Synthetic;
import io.tributary.data.TrainTestSplit;
import io.tributary.graph.models.Model;
import io.tributary.graph.models.Models;
import io.tributary.tensor.DType;
import io.tributary.tensor.Tensor;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LocalTrainingTest {
  private static final GraphBinder BINDER = GraphBinder.standard();

  static JavaFunction bound(GraphComputation g) throws GraphBindingException {
    return BINDER.bind(g);
  }

  static Map<String, Tensor> apply(Map<String, Tensor> params, StructType type, Object delta) {
    Map<String, Tensor> d = ModelStructs.fromValue(type, delta, "delta");
    Map<String, Tensor> out = new LinkedHashMap<>();
    for (Map.Entry<String, Tensor> e : params.entrySet()) {
      Tensor w = e.getValue();
      Tensor dw = d.get(e.getKey());
      float[] v = new float[(int) w.size()];
      for (int i = 0; i < v.length; i++) {
        v[i] = w.getFloat(i) + dw.getFloat(i);
      }
      out.put(e.getKey(), Tensor.ofFloats(w.shape(), v));
    }
    return out;
  }

  static float scalar(StructValue s, String name) {
    return ((Tensor) s.get(name)).getFloat(0);
  }

  @Test
  void types_mclr_printAsDocumented() {
    Model mclr = Models.mclr();
    String m = "<dense=<kernel=float32[60,10],bias=float32[10]>>";
    String b = "<x=float32[?,60],y=int64[?]>";
    assertThat(LocalTraining.clientUpdateType(mclr).toString()).isEqualTo(
        "(<model=" + m + ",data=" + b + "*> -> <delta=" + m + ",num_examples=int64,loss=float32>)");
    assertThat(LocalTraining.evaluationType(mclr).toString()).isEqualTo(
        "(<model=" + m + ",data=" + b + "*> -> <loss=float32,accuracy=float32,num_examples=int64>)");
    assertThat(LocalTraining.initialModel("init", mclr, 1).type().toString())
        .isEqualTo("( -> " + m + ")");
  }

  @Test
  void clientUpdate_softmaxRegressionOnDigits_reachesNinetyPercentTestAccuracy() throws Exception {
    TrainTestSplit split = Digits.load(0.25, 42);
    Model model = Models.softmaxRegression("digits", 64, 10, DType.FLOAT32);
    StructType type = LocalTraining.modelType(model);
    JavaFunction update = bound(LocalTraining.clientUpdate("client_update", model,
        ClientUpdateConfig.fedAvg(20, 32, 0.5)));
    JavaFunction eval = bound(LocalTraining.evaluation("evaluate", model));
    Map<String, Tensor> init = model.initialParameters(1);
    StructValue before = (StructValue) eval.body().apply(StructValue.named(
        "model", ModelStructs.toValue(type, init), "data", Sequences.of(split.test(), 100)));

    StructValue out = (StructValue) update.body().apply(StructValue.named(
        "model", ModelStructs.toValue(type, init),
        "data", Sequences.shuffled(split.train(), split.train().size(), 7)));
    Map<String, Tensor> trained = apply(init, type, out.get("delta"));
    StructValue after = (StructValue) eval.body().apply(StructValue.named(
        "model", ModelStructs.toValue(type, trained), "data", Sequences.of(split.test(), 100)));

    assertThat(((Tensor) out.get("num_examples")).getLong(0)).isEqualTo(split.train().size());
    assertThat(((Tensor) after.get("num_examples")).getLong(0)).isEqualTo(split.test().size());
    assertThat(scalar(before, "accuracy")).isLessThan(0.3f);
    assertThat(scalar(after, "accuracy")).isGreaterThanOrEqualTo(0.9f);
    assertThat(scalar(after, "loss")).isLessThan(scalar(before, "loss") / 3);
  }

  @Test
  void clientUpdate_syntheticOneOne_trainingLossFallsEveryEpoch() throws Exception {
    FederatedDataset fed = Synthetic.fedProx(1, 1, 3);
    Dataset train = fed.pooledTrain();
    Model mclr = Models.mclr();
    StructType type = LocalTraining.modelType(mclr);
    JavaFunction update = bound(LocalTraining.clientUpdate("client_update", mclr,
        ClientUpdateConfig.fedAvg(1, 10, 0.01)));
    JavaFunction eval = bound(LocalTraining.evaluation("evaluate", mclr));
    // 200 shuffled batches of 10 from all devices keep the test fast.
    List<StructValue> all = Sequences.shuffled(train, 10, 5);
    List<StructValue> data = all.subList(0, Math.min(200, all.size()));
    Map<String, Tensor> params = mclr.initialParameters(2);
    List<Float> losses = new ArrayList<>();
    for (int epoch = 0; epoch <= 5; epoch++) {
      StructValue e = (StructValue) eval.body().apply(StructValue.named(
          "model", ModelStructs.toValue(type, params), "data", data));
      losses.add(scalar(e, "loss"));
      StructValue out = (StructValue) update.body().apply(StructValue.named(
          "model", ModelStructs.toValue(type, params), "data", data));
      params = apply(params, type, out.get("delta"));
    }
    for (int i = 1; i < losses.size(); i++) {
      assertThat(losses.get(i)).as("epoch %d of %s", i, losses).isLessThan(losses.get(i - 1));
    }
    assertThat(losses.get(losses.size() - 1)).as(losses.toString())
        .isLessThan(losses.get(0) * 0.7f);
  }
  /** The delta's and the evaluation's bytes, for comparing two calls bit for bit. */
  private static List<String> bits(StructType type, StructValue update, StructValue eval) {
    List<Tensor> leaves = new ArrayList<>(
        ModelStructs.fromValue(type, update.get("delta"), "delta").values());
    leaves.add((Tensor) update.get("loss"));
    leaves.add((Tensor) eval.get("loss"));
    leaves.add((Tensor) eval.get("accuracy"));
    List<String> out = new ArrayList<>();
    for (Tensor t : leaves) {
      float[] f = new float[(int) t.size()];
      for (int k = 0; k < f.length; k++) {
        f[k] = t.getFloat(k);
      }
      out.add(java.util.Arrays.toString(f));
    }
    return out;
  }

  @Test
  void clientUpdate_modelsAlternateOnOneBinding_sameBitsAsFreshBindings() throws Exception {
    // One binding keeps the last model's arrays and each thread's working copy; calls with
    // another model, back and forth, on one thread and on several, must not see either.
    Dataset train = Synthetic.fedProx(1, 1, 3).pooledTrain();
    Model mclr = Models.mclr();
    StructType type = LocalTraining.modelType(mclr);
    GraphComputation updateG = LocalTraining.clientUpdate("client_update", mclr,
        ClientUpdateConfig.fedAvg(1, 10, 0.01));
    GraphComputation evalG = LocalTraining.evaluation("evaluate", mclr);
    List<StructValue> data = Sequences.shuffled(train, 10, 5).subList(0, 20);
    List<Map<String, Tensor>> models = List.of(mclr.initialParameters(2),
        mclr.initialParameters(3), mclr.initialParameters(2));
    List<List<String>> fresh = new ArrayList<>();
    for (Map<String, Tensor> m : models) {
      Object model = ModelStructs.toValue(type, m);
      fresh.add(bits(type,
          (StructValue) bound(updateG).body().apply(StructValue.named("model", model, "data", data)),
          (StructValue) bound(evalG).body().apply(StructValue.named("model", model, "data", data))));
    }
    JavaFunction update = bound(updateG);
    JavaFunction eval = bound(evalG);
    for (int i = 0; i < models.size(); i++) {
      Object model = ModelStructs.toValue(type, models.get(i));
      for (int repeat = 0; repeat < 2; repeat++) {
        assertThat(bits(type,
            (StructValue) update.body().apply(StructValue.named("model", model, "data", data)),
            (StructValue) eval.body().apply(StructValue.named("model", model, "data", data))))
            .as("model %d, call %d", i, repeat).isEqualTo(fresh.get(i));
      }
    }
    List<Thread> threads = new ArrayList<>();
    List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
    for (int t = 0; t < 3; t++) {
      int first = t;
      threads.add(Thread.ofPlatform().start(() -> {
        try {
          for (int r = 0; r < 6; r++) {
            int i = (first + r) % models.size();
            Object model = ModelStructs.toValue(type, models.get(i));
            assertThat(bits(type,
                (StructValue) update.body().apply(StructValue.named("model", model, "data", data)),
                (StructValue) eval.body().apply(StructValue.named("model", model, "data", data))))
                .isEqualTo(fresh.get(i));
          }
        } catch (Throwable e) {
          failures.add(e);
        }
      }));
    }
    for (Thread t : threads) {
      t.join();
    }
    assertThat(failures).isEmpty();
  }

  @Test
  void clientUpdate_clientsOfOtherSizesOnOneThread_sameBitsAsFreshBindings() throws Exception {
    // One binding keeps each thread's compiled runs from client to client; clients with other
    // numbers of batches and other last-batch sizes must get what a fresh binding gives them.
    Dataset train = Synthetic.fedProx(1, 1, 5).pooledTrain();
    Model mclr = Models.mclr();
    StructType type = LocalTraining.modelType(mclr);
    GraphComputation updateG = LocalTraining.clientUpdate("client_update", mclr,
        ClientUpdateConfig.fedProx(2, 10, 0.01, 0.5));
    GraphComputation evalG = LocalTraining.evaluation("evaluate", mclr);
    JavaFunction update = bound(updateG);
    JavaFunction eval = bound(evalG);
    Object model = ModelStructs.toValue(type, mclr.initialParameters(4));
    int[] examples = {95, 13, 200, 7, 95};
    for (int c = 0; c < examples.length; c++) {
      List<StructValue> data = Sequences.shuffled(train, 1, c).subList(0, examples[c]);
      List<String> fresh = bits(type,
          (StructValue) bound(updateG).body().apply(StructValue.named("model", model, "data", data)),
          (StructValue) bound(evalG).body().apply(StructValue.named("model", model, "data", data)));

      assertThat(bits(type,
          (StructValue) update.body().apply(StructValue.named("model", model, "data", data)),
          (StructValue) eval.body().apply(StructValue.named("model", model, "data", data))))
          .as("client %d of %d examples", c, examples[c]).isEqualTo(fresh);
    }
  }
}
