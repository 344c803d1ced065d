package io.tributary.flower.server;

import io.tributary.flower.Scalar;
import io.tributary.tensor.Tensor;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A secure-aggregation protocol for the server's fit rounds: what the clients are sent in each
 * of the round's FitIns/FitRes exchanges and how the server turns their answers into the
 * round's update without seeing any single client's.
 *
 * <p>The server finds it with {@link java.util.ServiceLoader} when its configuration asks for
 * {@link ServerConfig#secureAggregation() secure aggregation}; {@code tributary-flower-secagg}
 * provides SecAgg+ ({@code io.tributary.flower.secagg}), so that this module needs no
 * cryptography. A server configured for secure aggregation without a protocol on its class path
 * fails at the start of its run. The server keeps the transport: it sends the FitIns, awaits the
 * answers, excludes clients that fail, and reports the exclusions of each round.
 */
public interface SecureFitProtocol {
  /** The protocol's name, for messages (such as {@code SecAgg+}). */
  String name();

  /**
   * The FitIns/FitRes exchanges of one round; the server allows each the round timeout, so a
   * round's clients have this many times the timeout in all.
   */
  int exchanges();

  /**
   * Runs one secure fit round over {@code exchange}'s clients.
   *
   * @param options the secure-aggregation settings of the server's configuration
   * @param model the round's model, whose shapes and dtypes the update takes
   * @param fitConfig the round's fit config, for the exchange in which the clients train
   * @param exchange the server's side: the clients, the exchanges with them, exclusions
   * @return the example-weighted mean update of the clients that took part to the end
   * @throws Failed when too few clients remain at some stage or the sum cannot be had exactly;
   *     no sum is revealed and the server keeps its model
   */
  Outcome run(SecureAggregation options, List<Tensor> model, Map<String, Scalar> fitConfig,
      Exchange exchange);

  /** The server's side of a secure round: its sampled clients, numbered from 0. */
  interface Exchange {
    /** The number of clients in the round. */
    int clients();

    /**
     * Sends each client in {@code configs} a FitIns with that config, and with the round's model
     * when {@code withModel} (otherwise with no tensors, in the client's tensor type), and
     * returns the metrics of every FitRes that came back with status OK, by client. A client
     * that cannot be reached, fails, times out or answers with malformed metrics is excluded at
     * {@code stage} and is missing from the result.
     *
     * @param stage the exchange's name, for exclusions
     */
    Map<Integer, Map<String, Scalar>> fit(String stage,
        Map<Integer, Map<String, Scalar>> configs, boolean withModel);

    /** Excludes {@code client} from the round at {@code stage}: logged and reported. */
    void exclude(int client, String stage, String why);
  }

  /**
   * The outcome of a successful round.
   *
   * @param meanDelta the example-weighted mean update, one tensor per model tensor
   * @param examples the surviving clients' total examples
   * @param survivors the clients whose updates the mean holds
   */
  record Outcome(List<Tensor> meanDelta, long examples, int survivors) {
    /** Checks the values and copies the list. */
    public Outcome {
      meanDelta = List.copyOf(Objects.requireNonNull(meanDelta, "meanDelta"));
    }
  }

  /** A round that failed: the model is kept and no sum was revealed. */
  final class Failed extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** A failed round, for {@code message}. */
    public Failed(String message, Throwable cause) {
      super(message, cause);
    }
  }
}
