package io.tributary.flower.testing;

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
 * A Java client whose training returns the parameters it is sent, with one example, and counts
 * the FitIns that reach it, for tests that check which instructions a wrapper hands to its
 * client; it evaluates to a loss of 0.5 on one example.
 */
public final class EchoFitClient extends AbstractFlowerClient {
  private final List<Tensor> parameters;
  private final Map<String, Scalar> properties;
  private int fits;

  /** A client whose parameters are {@code parameters} and whose properties are given. */
  public EchoFitClient(List<Tensor> parameters, Map<String, Scalar> properties) {
    this.parameters = List.copyOf(parameters);
    this.properties = Map.copyOf(properties);
  }

  @Override
  public Map<String, Scalar> getProperties(Map<String, Scalar> config) {
    return properties;
  }

  @Override
  public List<Tensor> getParameters(Map<String, Scalar> config) {
    return parameters;
  }

  @Override
  public FitRes fit(FitIns ins) {
    fits++;
    return new FitRes(ins.parameters(), 1, Map.of());
  }

  @Override
  public EvaluateRes evaluate(EvaluateIns ins) {
    return new EvaluateRes(0.5f, 1, Map.of());
  }

  /** How many FitIns reached this client. */
  public int fits() {
    return fits;
  }
}
