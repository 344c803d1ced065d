package io.tributary.flower.fleet.server;

import io.tributary.flower.AbstractFlowerClient;
import io.tributary.flower.EvaluateIns;
import io.tributary.flower.EvaluateRes;
import io.tributary.flower.FitIns;
import io.tributary.flower.FitRes;
import io.tributary.flower.Scalar;
import io.tributary.tensor.Tensor;
import java.util.List;
import java.util.Map;

/**
 * A legacy Join client of the interop tests beside Flower's SuperNodes: adds {@code k} to every
 * parameter and claims {@code examples}.
 */
public final class PlusJoinClient extends AbstractFlowerClient {
  private final double k;
  private final long examples;

  public PlusJoinClient(double k, long examples) {
    this.k = k;
    this.examples = examples;
  }

  @Override
  public List<Tensor> getParameters(Map<String, Scalar> config) {
    return List.of();
  }

  @Override
  public FitRes fit(FitIns ins) {
    Tensor t = ins.parameters().get(0);
    double[] v = new double[(int) t.size()];
    for (int i = 0; i < v.length; i++) {
      v[i] = t.getAsDouble(i) + k;
    }
    return new FitRes(List.of(Tensor.ofDoubles(t.shape(), v)), examples, Map.of());
  }

  @Override
  public EvaluateRes evaluate(EvaluateIns ins) {
    return new EvaluateRes(0.5f, examples, Map.of());
  }
}
