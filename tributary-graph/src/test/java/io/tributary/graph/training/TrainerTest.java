package io.tributary.graph.training;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.tributary.graph.models.Model;
import io.tributary.graph.models.Models;
import io.tributary.graph.ops.GraphExecutor;
import io.tributary.graph.ops.NdArray;
import io.tributary.graph.optim.Adam;
import io.tributary.graph.optim.OptimizerState;
import io.tributary.graph.optim.Sgd;
import io.tributary.tensor.DType;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class TrainerTest {
  /**
   * A seeded, linearly separable 10-class problem in 60 dimensions: the label is the argmax of a
   * fixed random linear map of the input.
   */
  static List<Batch> separable(int examples, int batch, long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    double[][] w = new double[10][60];
    for (double[] row : w) {
      for (int j = 0; j < 60; j++) {
        row[j] = rnd.nextGaussian();
      }
    }
    List<Batch> out = new ArrayList<>();
    for (int start = 0; start < examples; start += batch) {
      int n = Math.min(batch, examples - start);
      float[] x = new float[n * 60];
      long[] y = new long[n];
      for (int i = 0; i < n; i++) {
        double best = Double.NEGATIVE_INFINITY;
        for (int j = 0; j < 60; j++) {
          x[i * 60 + j] = (float) rnd.nextGaussian();
        }
        for (int c = 0; c < 10; c++) {
          double s = 0;
          for (int j = 0; j < 60; j++) {
            s += w[c][j] * x[i * 60 + j];
          }
          if (s > best) {
            best = s;
            y[i] = c;
          }
        }
      }
      out.add(new Batch(Tensor.ofFloats(Shape.of(n, 60), x), Tensor.ofLongs(Shape.of(n), y)));
    }
    return out;
  }

  @Test
  void train_mclrOnSeparableData_lossFallsAndAccuracyRises() {
    Model mclr = Models.mclr();
    List<Batch> data = separable(1000, 20, 7);
    Trainer t = Trainer.forModel(mclr, new Sgd(0.1), mclr.initialParameters(1));
    Evaluation before = t.evaluate(data.iterator());
    List<EpochResult> epochs = t.train(data::iterator, 5);
    Evaluation after = t.evaluate(data.iterator());
    assertThat(epochs).hasSize(5);
    assertThat(epochs.get(0).examples()).isEqualTo(1000);
    assertThat(epochs.get(0).batches()).isEqualTo(50);
    for (int e = 1; e < epochs.size(); e++) {
      assertThat(epochs.get(e).meanLoss()).isLessThan(epochs.get(e - 1).meanLoss());
    }
    assertThat(after.loss()).isLessThan(before.loss() * 0.5);
    assertThat(after.accuracy()).isGreaterThan(0.85);
    assertThat(before.accuracy()).isLessThan(0.3);
  }

  @Test
  void train_sameSeedTwice_identicalParameters() {
    Model mclr = Models.mclr();
    List<Batch> data = separable(200, 20, 3);
    Trainer a = Trainer.forModel(mclr, new Adam(0.01), mclr.initialParameters(5));
    Trainer b = Trainer.forModel(mclr, new Adam(0.01), mclr.initialParameters(5));
    a.train(data::iterator, 2);
    b.train(data::iterator, 2);
    assertThat(a.parameters()).isEqualTo(b.parameters());
    assertThat(a.optimizerState().step()).isEqualTo(20);
  }

  @Test
  void trainBatch_sgd_matchesGradientsThenSgdStep() {
    // Sgd is applied inside the compiled step (fused into the weight products); the reference
    // runs the graph for the gradients and steps with Sgd.step, as every other optimizer does.
    Model mlp = Models.mlp("mlp", 60, 16, 10, DType.FLOAT32);
    List<Batch> data = separable(100, 20, 4);
    Trainer fused = Trainer.forModel(mlp, new Sgd(0.1), mlp.initialParameters(2));
    Map<String, NdArray> params = new LinkedHashMap<>();
    for (var e : mlp.initialParameters(2).entrySet()) {
      params.put(e.getKey(), NdArray.fromTensor(e.getValue()));
    }
    Sgd sgd = new Sgd(0.1);
    OptimizerState state = sgd.init(params);
    GraphExecutor reference = new GraphExecutor(fused.gradientGraph().graph());
    List<String> outputs = new ArrayList<>(List.of(mlp.loss()));
    for (String p : mlp.trainableNames()) {
      outputs.add(fused.gradientGraph().gradientOf(p));
    }
    for (Batch b : data) {
      Map<String, NdArray> feeds = new HashMap<>(params);
      feeds.put(mlp.input(), NdArray.fromTensor(b.x()));
      feeds.put(mlp.labels(), NdArray.fromTensor(b.y()));
      var r = reference.run(feeds, outputs);
      Map<String, NdArray> grads = new HashMap<>();
      for (String p : mlp.trainableNames()) {
        grads.put(p, r.get(fused.gradientGraph().gradientOf(p)));
      }
      double want = r.get(mlp.loss()).get(0);
      sgd.step(params, grads, state);
      assertThat(fused.trainBatch(b)).isCloseTo(want, within(1e-5));
    }
    assertThat(fused.optimizerState().step()).isEqualTo(state.step()).isEqualTo(5);
    for (var e : fused.parameters().entrySet()) {
      Tensor want = params.get(e.getKey()).toTensor();
      assertThat(e.getValue().allClose(want, 1e-5, 1e-6)).as(e.getKey()).isTrue();
    }
  }

  @Test
  void trainBatch_sgdWithAnotherOptimizersState_failsBeforeChangingParameters() {
    Model mclr = Models.mclr();
    Trainer t = Trainer.forModel(mclr, new Sgd(0.1), mclr.initialParameters(1));
    var before = t.parameters();
    t.setOptimizerState(new Adam(0.1).initTensors(before));
    Batch b = separable(20, 20, 1).get(0);
    assertThatThrownBy(() -> t.trainBatch(b))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("sgd needs slots");
    assertThat(t.parameters()).isEqualTo(before);
  }
}
