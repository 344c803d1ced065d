package io.tributary.learning.registered;

import io.tributary.learning.AlgorithmSpec;
import io.tributary.learning.FederatedAlgorithm;
import io.tributary.learning.Hyperparameter;
import io.tributary.learning.aggregation.WholeRoundAggregator;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.TensorMath;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A user's aggregation rule as one class plus one registration line: the unweighted mean of the
 * updates times {@code scale}.
 */
public final class ScaledMeanSpec implements AlgorithmSpec {
  @Override
  public String name() {
    return "scaledmean";
  }

  @Override
  public String description() {
    return "the unweighted mean of the updates times scale (a test's own rule)";
  }

  @Override
  public List<Hyperparameter> hyperparameters() {
    return List.of(Hyperparameter.real("scale", 0.5, "(0, 1]", "the factor of the mean"));
  }

  @Override
  public FederatedAlgorithm build(Map<String, Double> h) {
    double scale = h.get("scale");
    return FederatedAlgorithm.of(name(), WholeRoundAggregator.of("scaled_mean", u -> {
      List<Tensor> out = new ArrayList<>();
      for (int l = 0; l < u.layers(); l++) {
        Tensor first = u.client(0).get(l);
        double[] acc = new double[TensorMath.arrayLength(first, 1)];
        for (int c = 0; c < u.size(); c++) {
          TensorMath.addScaled(u.client(c).get(l), scale / u.size(), acc);
        }
        out.add(TensorMath.fromDoubles(first.dtype(), first.shape(), acc));
      }
      return out;
    }));
  }
}
