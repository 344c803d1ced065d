package io.tributary.graph.training;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.graph.models.Model;
import io.tributary.graph.models.Models;
import io.tributary.graph.optim.Adam;
import io.tributary.graph.optim.Sgd;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;
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
}
