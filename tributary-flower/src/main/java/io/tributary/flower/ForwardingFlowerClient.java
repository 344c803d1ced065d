package io.tributary.flower;

import io.tributary.tensor.Tensor;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A {@link FlowerClient} that hands every operation to another client, the base of a wrapper
 * that changes some operations and leaves the others as the wrapped client answers them.
 *
 * <p>Each method here passes its argument to the delegate unchanged and returns what the delegate
 * returns, or lets what it throws through. A subclass overrides only the operations it changes,
 * and reaches the wrapped client through {@link #delegate()} (or {@code super}) where it still
 * needs it. Like Guava's {@code Forwarding} classes, this forwards every operation of {@link
 * FlowerClient} explicitly: were one left to the interface's default, a wrapped client's answer
 * to it would be replaced by {@link OperationNotImplementedException}.
 */
public abstract class ForwardingFlowerClient implements FlowerClient {
  private final FlowerClient delegate;

  /** A client whose operations go to {@code delegate} until a subclass says otherwise. */
  protected ForwardingFlowerClient(FlowerClient delegate) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
  }

  /** The wrapped client. */
  protected final FlowerClient delegate() {
    return delegate;
  }

  @Override
  public Map<String, Scalar> getProperties(Map<String, Scalar> config)
      throws FlowerClientException {
    return delegate.getProperties(config);
  }

  @Override
  public List<Tensor> getParameters(Map<String, Scalar> config) throws FlowerClientException {
    return delegate.getParameters(config);
  }

  @Override
  public FitRes fit(FitIns ins) throws FlowerClientException {
    return delegate.fit(ins);
  }

  @Override
  public EvaluateRes evaluate(EvaluateIns ins) throws FlowerClientException {
    return delegate.evaluate(ins);
  }
}
