package io.tributary.learning.aggregation;

import io.tributary.tensor.DType;
import io.tributary.tensor.Finite;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.TensorBuilder;
import java.util.List;
import java.util.Objects;

/**
 * One round's client updates, checked: every client sends the same layers (dtype and shape), of
 * a floating dtype, with finite values, and a non-negative example count. Values are read as
 * doubles; results are written back in each layer's dtype.
 */
public final class ClientUpdates {
  private final List<List<Tensor>> updates;
  private final long[] examples;

  /**
   * Checks {@code updates} (client i's layers) and {@code examples} (client i's example count).
   *
   * @throws IllegalArgumentException naming the client and the layer that does not fit, or a
   *     non-finite value
   */
  public ClientUpdates(List<List<Tensor>> updates, long[] examples) {
    Objects.requireNonNull(updates, "updates");
    if (updates.isEmpty()) {
      throw new InsufficientUpdatesException("aggregation", "at least 1", 0);
    }
    if (examples.length != updates.size()) {
      throw new IllegalArgumentException(updates.size() + " updates but " + examples.length
          + " example counts");
    }
    List<Tensor> first = updates.get(0);
    for (int c = 0; c < updates.size(); c++) {
      List<Tensor> u = updates.get(c);
      if (u.size() != first.size()) {
        throw new IllegalArgumentException("client " + c + " sent " + u.size()
            + " layers, client 0 sent " + first.size());
      }
      if (examples[c] < 0) {
        throw new IllegalArgumentException("client " + c + " reports " + examples[c]
            + " examples");
      }
      for (int l = 0; l < u.size(); l++) {
        Tensor t = u.get(l);
        if (!t.dtype().isFloating() || t.dtype() != first.get(l).dtype()
            || !t.shape().equals(first.get(l).shape())) {
          throw new IllegalArgumentException("client " + c + " layer " + l + " is " + t.dtype()
              + t.shape() + ", client 0's is " + first.get(l).dtype() + first.get(l).shape()
              + " (floating dtypes only)");
        }
        long bad = Finite.firstNonFinite(t);
        if (bad >= 0) {
          throw new IllegalArgumentException("client " + c + " layer " + l + " element " + bad
              + " is not finite");
        }
      }
    }
    this.updates = List.copyOf(updates.stream().map(List::copyOf).toList());
    this.examples = examples.clone();
  }

  /** The number of clients. */
  public int size() {
    return updates.size();
  }

  /** The number of layers. */
  public int layers() {
    return updates.get(0).size();
  }

  /** Client {@code c}'s layers. */
  public List<Tensor> client(int c) {
    return updates.get(c);
  }

  /** Client {@code c}'s example count. */
  public long examples(int c) {
    return examples[c];
  }

  /** Element {@code i} of layer {@code layer} of client {@code c}. */
  double value(int c, int layer, long i) {
    return updates.get(c).get(layer).getAsDouble(i);
  }

  /** Elements in layer {@code layer}. */
  long layerSize(int layer) {
    return updates.get(0).get(layer).size();
  }

  /** A builder for a result layer shaped like layer {@code layer}. */
  TensorBuilder builder(int layer) {
    Tensor t = updates.get(0).get(layer);
    DType dtype = t.dtype();
    Shape shape = t.shape();
    return TensorBuilder.allocate(dtype, shape);
  }

  /**
   * These updates restricted to clients {@code chosen}, in that order (a rule that keeps some
   * clients, such as Multi-Krum, then averages those).
   *
   * @throws IndexOutOfBoundsException when an index is not a client's
   * @throws InsufficientUpdatesException when {@code chosen} is empty
   */
  public ClientUpdates select(int[] chosen) {
    List<List<Tensor>> u = new java.util.ArrayList<>();
    long[] e = new long[chosen.length];
    for (int i = 0; i < chosen.length; i++) {
      u.add(updates.get(chosen[i]));
      e[i] = examples[chosen[i]];
    }
    return new ClientUpdates(u, e);
  }
}
