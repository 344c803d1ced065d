package io.tributary.flower;

import io.tributary.tensor.Tensor;
import java.util.List;
import java.util.Map;

/**
 * The common case of a {@link FlowerClient}, like Flower's {@code NumPyClient}: a client that
 * hands out its parameters, trains and evaluates, and has no properties to report.
 *
 * <p>Subclasses implement {@link #getParameters}, {@link #fit} and {@link #evaluate};
 * {@link #getProperties} answers with an empty map. {@link ConfigValues} reads the settings a
 * server puts in the config maps.
 */
public abstract class AbstractFlowerClient implements FlowerClient {
  /** No properties. */
  @Override
  public Map<String, Scalar> getProperties(Map<String, Scalar> config) {
    return Map.of();
  }

  @Override
  public abstract List<Tensor> getParameters(Map<String, Scalar> config)
      throws FlowerClientException;

  @Override
  public abstract FitRes fit(FitIns ins) throws FlowerClientException;

  @Override
  public abstract EvaluateRes evaluate(EvaluateIns ins) throws FlowerClientException;
}
