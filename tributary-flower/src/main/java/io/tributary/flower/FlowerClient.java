package io.tributary.flower;

import io.tributary.tensor.Tensor;
import java.util.List;
import java.util.Map;

/**
 * A participant in Flower's protocol: what a client does when a server sends it an instruction.
 *
 * <p>{@link FlowerClientRunner} calls these methods one at a time, on its own thread, for each
 * {@code GetPropertiesIns}, {@code GetParametersIns}, {@code FitIns} and {@code EvaluateIns} the
 * server sends. Every operation has a default that throws {@link OperationNotImplementedException},
 * which the runner answers with Flower's matching status code ({@code
 * GET_PROPERTIES_NOT_IMPLEMENTED}, {@code GET_PARAMETERS_NOT_IMPLEMENTED}, {@code
 * FIT_NOT_IMPLEMENTED} or {@code EVALUATE_NOT_IMPLEMENTED}), as a Python client without that
 * method does.
 *
 * <p>An operation that fails throws {@link FlowerClientException} with the reason. Flower's
 * {@code Code} enum has no generic error value, so the runner logs the reason and answers with
 * the operation's own non-OK code and a status message beginning {@code "error: "}; every Flower
 * server counts a result whose status is not OK as a failure, and the connection stays open.
 * The runner treats a {@link RuntimeException} from these methods the same way.
 *
 * <p>Tensors are given in the order the server sent them and must be returned in the order the
 * server expects, which for Flower is the model's parameter order.
 */
public interface FlowerClient {
  /**
   * The client's properties, asked for with {@code config}.
   *
   * @throws FlowerClientException if the properties cannot be produced
   */
  default Map<String, Scalar> getProperties(Map<String, Scalar> config)
      throws FlowerClientException {
    throw new OperationNotImplementedException("get_properties");
  }

  /**
   * The client's current model parameters, asked for with {@code config}; a server may use them
   * as the initial model.
   *
   * @throws FlowerClientException if the parameters cannot be produced
   */
  default List<Tensor> getParameters(Map<String, Scalar> config) throws FlowerClientException {
    throw new OperationNotImplementedException("get_parameters");
  }

  /**
   * Trains from the given parameters and returns the new ones.
   *
   * @throws FlowerClientException if training fails or the instruction is unusable
   */
  default FitRes fit(FitIns ins) throws FlowerClientException {
    throw new OperationNotImplementedException("fit");
  }

  /**
   * Evaluates the given parameters on the client's data.
   *
   * @throws FlowerClientException if evaluation fails or the instruction is unusable
   */
  default EvaluateRes evaluate(EvaluateIns ins) throws FlowerClientException {
    throw new OperationNotImplementedException("evaluate");
  }
}
