package io.tributary.cli.registered;

import io.tributary.learning.AlgorithmSpec;
import io.tributary.learning.FederatedAlgorithm;
import io.tributary.learning.Hyperparameter;
import io.tributary.learning.aggregation.ClientUpdates;
import io.tributary.learning.aggregation.WholeRoundAggregator;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.TensorBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A new aggregation rule with one hyperparameter as one class plus one registration line (in
 * {@code META-INF/services/io.tributary.learning.AlgorithmSpec}): the coordinate-wise mean of the
 * updates, each value first clamped to {@code [-bound, bound]}, so that no client moves a
 * coordinate by more than {@code bound}.
 */
public final class ClampedMeanSpec implements AlgorithmSpec {
  @Override
  public String name() {
    return "clampedmean";
  }

  @Override
  public String description() {
    return "mean of the updates, each coordinate clamped to [-bound, bound] (a test's own rule)";
  }

  @Override
  public List<Hyperparameter> hyperparameters() {
    return List.of(Hyperparameter.real("bound", 1, "(0, inf)", "the largest step per value"));
  }

  @Override
  public FederatedAlgorithm build(Map<String, Double> h) {
    return FederatedAlgorithm.of(name(), new Rule(h.get("bound")));
  }

  /** The rule: a record, so that its bound is recorded with the run and compared on resume. */
  record Rule(double bound) implements WholeRoundAggregator {
    @Override
    public String name() {
      return "clamped_mean";
    }

    @Override
    public List<Tensor> aggregate(ClientUpdates updates) {
      List<Tensor> out = new ArrayList<>();
      for (int l = 0; l < updates.layers(); l++) {
        Tensor first = updates.client(0).get(l);
        TensorBuilder b = TensorBuilder.allocate(first.dtype(), first.shape());
        for (long i = 0; i < first.size(); i++) {
          double sum = 0;
          for (int c = 0; c < updates.size(); c++) {
            sum += Math.clamp(updates.client(c).get(l).getAsDouble(i), -bound, bound);
          }
          b.setFromDouble(i, sum / updates.size());
        }
        out.add(b.build());
      }
      return out;
    }
  }
}
