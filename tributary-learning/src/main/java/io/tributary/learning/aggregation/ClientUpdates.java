package io.tributary.learning.aggregation;

import io.tributary.tensor.DType;
import io.tributary.tensor.Finite;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.TensorBuilder;
import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
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
   * Per client and layer, the layer's data as float or double buffer views (contiguous float32
   * and float64 layers), or null where {@link #read} goes element by element.
   */
  private final Buffer[][][] views;

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
    this.views = views(this.updates);
  }

  /** Already checked updates: {@link #select}'s, which needs no second pass over the values. */
  private ClientUpdates(List<List<Tensor>> updates, long[] examples, Buffer[][][] views) {
    this.updates = updates;
    this.examples = examples;
    this.views = views;
  }

  private static Buffer[][][] views(List<List<Tensor>> updates) {
    Buffer[][][] out = new Buffer[updates.size()][][];
    for (int c = 0; c < out.length; c++) {
      List<Tensor> u = updates.get(c);
      out[c] = new Buffer[u.size()][];
      for (int l = 0; l < u.size(); l++) {
        out[c][l] = views(u.get(l));
      }
    }
    return out;
  }

  /** {@code t}'s data as float or double views, or null unless float32 or float64, contiguous. */
  private static Buffer[] views(Tensor t) {
    if (!t.isContiguous() || (t.dtype() != DType.FLOAT32 && t.dtype() != DType.FLOAT64)) {
      return null;
    }
    int item = t.dtype().itemSize();
    List<ByteBuffer> data = t.dataBuffers();
    Buffer[] out = new Buffer[data.size()];
    for (int i = 0; i < out.length; i++) {
      ByteBuffer b = data.get(i).slice().order(ByteOrder.LITTLE_ENDIAN);
      if (b.remaining() % item != 0) {
        return null;
      }
      out[i] = t.dtype() == DType.FLOAT32 ? b.asFloatBuffer() : b.asDoubleBuffer();
    }
    return out;
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

  /**
   * Elements {@code [from, from + len)} of layer {@code layer} of client {@code c}, as {@link
   * #value} reads them, into {@code dst[off..off + len)}: the fast way to read a block.
   */
  void read(int c, int layer, long from, double[] dst, int off, int len) {
    Buffer[] parts = views[c][layer];
    if (parts == null) {
      Tensor t = updates.get(c).get(layer);
      for (int k = 0; k < len; k++) {
        dst[off + k] = t.getAsDouble(from + k);
      }
      return;
    }
    long start = 0;
    int k = 0;
    for (int p = 0; p < parts.length && k < len; p++) {
      Buffer part = parts[p];
      long end = start + part.capacity();
      if (from + k < end) {
        int lo = (int) (from + k - start);
        int n = (int) Math.min(len - k, end - (from + k));
        if (part instanceof FloatBuffer fb) {
          for (int j = 0; j < n; j++) {
            dst[off + k + j] = fb.get(lo + j);
          }
        } else {
          DoubleBuffer db = (DoubleBuffer) part;
          for (int j = 0; j < n; j++) {
            dst[off + k + j] = db.get(lo + j);
          }
        }
        k += n;
      }
      start = end;
    }
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
    if (chosen.length == 0) {
      throw new InsufficientUpdatesException("aggregation", "at least 1", 0);
    }
    List<List<Tensor>> u = new java.util.ArrayList<>();
    long[] e = new long[chosen.length];
    Buffer[][][] v = new Buffer[chosen.length][][];
    for (int i = 0; i < chosen.length; i++) {
      u.add(updates.get(chosen[i]));
      e[i] = examples[chosen[i]];
      v[i] = views[chosen[i]];
    }
    return new ClientUpdates(List.copyOf(u), e, v);
  }
}
