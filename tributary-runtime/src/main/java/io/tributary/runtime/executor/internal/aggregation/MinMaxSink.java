package io.tributary.runtime.executor.internal.aggregation;

import io.tributary.core.types.Type;
import io.tributary.runtime.ValueChecker;
import io.tributary.runtime.executor.internal.federated.ClientNode;
import io.tributary.runtime.executor.internal.local.LinearAccumulator;
import io.tributary.runtime.executor.internal.pass.PassCodec;
import io.tributary.tensor.DType;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.TensorMath;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code federated_min} and {@code federated_max}: the element-wise extreme of every client's
 * value. Exact in any order (NaN wins, and -0.0 is below 0.0), so the result never depends on
 * scheduling.
 */
public final class MinMaxSink implements Sink {
  private final boolean max;
  private final Type member;
  private final ClientNode input;

  /** The extremes so far, one array per leaf tensor; null until the first value. */
  private static final class Extremes {
    List<Tensor> first;
    Object[] arrays;
  }

  /**
   * {@code federated_max} ({@code max}) or {@code federated_min} of {@code input}, element-wise.
   */
  public MinMaxSink(boolean max, ClientNode input) {
    this.max = max;
    this.member = input.member();
    this.input = input;
  }

  @Override
  public String intrinsic() {
    return max ? "federated_max" : "federated_min";
  }

  @Override
  public List<ClientNode> inputs() {
    return List.of(input);
  }

  @Override
  public Object newPartial() {
    return new Extremes();
  }

  @Override
  public Object prepare(Object partial, Object[] values) {
    Optional<String> bad = ValueChecker.problem(member, values[0], "");
    if (bad.isPresent()) {
      throw new IllegalArgumentException(bad.get());
    }
    List<Tensor> leaves = new ArrayList<>();
    LinearAccumulator.flatten(values[0], leaves);
    Extremes e = (Extremes) partial;
    if (e.first != null) {
      for (int i = 0; i < leaves.size(); i++) {
        if (!leaves.get(i).shape().equals(e.first.get(i).shape())) {
          throw new IllegalArgumentException("tensor " + i + " has shape " + leaves.get(i).shape()
              + " but the values before it had shape " + e.first.get(i).shape());
        }
      }
    }
    return leaves;
  }

  @Override
  public void commit(Object partial, Object prepared) {
    @SuppressWarnings("unchecked")
    List<Tensor> leaves = (List<Tensor>) prepared;
    Extremes e = (Extremes) partial;
    if (e.first == null) {
      e.first = leaves;
      e.arrays = new Object[leaves.size()];
      for (int i = 0; i < leaves.size(); i++) {
        Tensor t = leaves.get(i);
        e.arrays[i] = t.dtype().isInteger() ? TensorMath.toLongs(t) : TensorMath.toDoubles(t);
      }
      return;
    }
    for (int i = 0; i < leaves.size(); i++) {
      Tensor t = leaves.get(i);
      fold(e.arrays[i], t.dtype().isInteger() ? TensorMath.toLongs(t) : TensorMath.toDoubles(t),
          unsigned(t.dtype()));
    }
  }

  private static boolean unsigned(DType d) {
    return d == DType.UINT64;
  }

  private void fold(Object acc, Object x, boolean unsigned) {
    if (acc instanceof long[] a) {
      long[] b = (long[]) x;
      for (int j = 0; j < a.length; j++) {
        int c = unsigned ? Long.compareUnsigned(b[j], a[j]) : Long.compare(b[j], a[j]);
        if (max ? c > 0 : c < 0) {
          a[j] = b[j];
        }
      }
    } else {
      double[] a = (double[]) acc;
      double[] b = (double[]) x;
      for (int j = 0; j < a.length; j++) {
        a[j] = max ? Math.max(a[j], b[j]) : Math.min(a[j], b[j]);
      }
    }
  }

  @Override
  public Object combine(Object total, Object partial) {
    Extremes p = (Extremes) partial;
    if (total == null) {
      return p;
    }
    Extremes t = (Extremes) total;
    if (p.first == null) {
      return t;
    }
    if (t.first == null) {
      return p;
    }
    for (int i = 0; i < t.arrays.length; i++) {
      if (!t.first.get(i).shape().equals(p.first.get(i).shape())) {
        throw new IllegalArgumentException("tensor " + i + " has shape " + p.first.get(i).shape()
            + " in one group of clients and " + t.first.get(i).shape() + " in another");
      }
      fold(t.arrays[i], p.arrays[i], unsigned(t.first.get(i).dtype()));
    }
    return t;
  }

  @Override
  public void writePartial(Object partial, PassCodec.Out out) {
    Extremes e = (Extremes) partial;
    out.u8(e.first == null ? 0 : 1);
    if (e.first == null) {
      return;
    }
    out.i32(e.arrays.length);
    for (int i = 0; i < e.arrays.length; i++) {
      PassCodec.writeShape(e.first.get(i).shape(), out);
      if (e.arrays[i] instanceof long[] l) {
        out.longs(l);
      } else {
        out.doubles((double[]) e.arrays[i]);
      }
    }
  }

  @Override
  public Object readPartial(PassCodec.In in) {
    Extremes e = new Extremes();
    int present = in.u8("the extremes flag");
    if (present > 1) {
      throw in.bad("the extremes flag is " + present);
    }
    if (present == 0) {
      return e;
    }
    List<DType> dtypes = new ArrayList<>();
    leafDtypes(member, dtypes);
    int leaves = in.count("extreme leaves", dtypes.size());
    if (leaves != dtypes.size()) {
      throw in.bad(intrinsic() + " of " + member + " has " + dtypes.size() + " tensors, not "
          + leaves);
    }
    e.first = new ArrayList<>();
    e.arrays = new Object[leaves];
    for (int i = 0; i < leaves; i++) {
      DType d = dtypes.get(i);
      io.tributary.tensor.Shape shape = PassCodec.readShape(in, 8);
      int n = Math.toIntExact(shape.size());
      if (d.isInteger()) {
        long[] a = in.longs(n, "the extremes of tensor " + i);
        e.arrays[i] = a;
        e.first.add(TensorMath.fromLongs(d, shape, a.clone()));
      } else {
        double[] a = in.doubles(n, "the extremes of tensor " + i);
        e.arrays[i] = a;
        e.first.add(TensorMath.fromDoubles(d, shape, a.clone()));
      }
    }
    return e;
  }

  private static void leafDtypes(Type t, List<DType> out) {
    if (t instanceof io.tributary.core.types.TensorType x) {
      out.add(x.dtype());
    } else if (t instanceof io.tributary.core.types.StructType st) {
      for (int i = 0; i < st.size(); i++) {
        leafDtypes(st.get(i), out);
      }
    }
  }

  @Override
  public Object result(Object total) {
    Extremes t = (Extremes) total;
    if (t == null || t.first == null) {
      throw new IllegalArgumentException(intrinsic() + " over no clients has no value");
    }
    List<Object> leaves = new ArrayList<>();
    for (int i = 0; i < t.arrays.length; i++) {
      Tensor f = t.first.get(i);
      leaves.add(t.arrays[i] instanceof long[] l ? TensorMath.fromLongs(f.dtype(), f.shape(), l)
          : TensorMath.fromDoubles(f.dtype(), f.shape(), (double[]) t.arrays[i]));
    }
    return LinearAccumulator.rebuild(member, leaves, new int[] {0});
  }
}
