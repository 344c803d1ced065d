package io.tributary.privacy.aggregation;

import io.tributary.core.types.StructType;
import io.tributary.core.types.TensorType;
import io.tributary.core.types.Type;
import io.tributary.learning.ModelLeaves;
import io.tributary.privacy.secagg.Quantizer;
import io.tributary.privacy.secagg.Rounding;
import io.tributary.tensor.DType;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.TensorMath;
import java.util.ArrayList;
import java.util.List;

/**
 * How the DP aggregator's sum goes through {@code federated_secure_sum_bitwidth}: each client
 * maps its clipped update onto integers in {@code [0, 2^bits)} ({@link Quantizer}, rounding to
 * nearest, over {@code [-range, range]}), the secure sum adds them modulo {@code 2^(bits +
 * HEADROOM)}, which is exact for up to {@code 2^HEADROOM} clients, and the server maps the sum
 * back as {@code sum * step - count * range}. The range is the round's: an update clipped to L2
 * norm C has every element in [-C, C], plus what local noise adds (six standard deviations).
 *
 * @param bits the bits of one quantized element, 1 to {@link #MAX_BITS}
 * @param localStddev the clients' local noise, widening the range
 */
record QuantizedSum(int bits, double localStddev) {
  /** The extra bits of the sum, enough for 2^20 clients. */
  static final int HEADROOM = 20;
  /** The widest quantized element: the sum must fit the 62 bits SecAgg+ masks exactly. */
  static final int MAX_BITS = 62 - HEADROOM;

  QuantizedSum {
    if (bits < 1 || bits > MAX_BITS) {
      throw new IllegalArgumentException("bits must be 1 to " + MAX_BITS + " for a "
          + "secure DP sum, got " + bits);
    }
  }

  /** The range of a round whose clipping norm is {@code c}. */
  double range(double c) {
    return c + 6 * localStddev;
  }

  /** The bit width the secure sum is computed modulo. */
  int sumBits() {
    return bits + HEADROOM;
  }

  /** {@code model} with every tensor's dtype int64: the type of a quantized update. */
  static Type integers(Type model) {
    if (model instanceof TensorType t) {
      return new TensorType(DType.INT64, t.dims(), t.unknownRank());
    }
    StructType s = (StructType) model;
    List<StructType.Element> out = new ArrayList<>();
    for (StructType.Element e : s.elements()) {
      out.add(new StructType.Element(e.name(), integers(e.type())));
    }
    return new StructType(out);
  }

  private Quantizer quantizer(double c) {
    return new Quantizer(range(c), bits, Rounding.NEAREST);
  }

  /** A clipped update's tensors as quantized int64 tensors of the same shapes. */
  List<Tensor> quantize(List<Tensor> update, double c) {
    Quantizer q = quantizer(c);
    List<Tensor> out = new ArrayList<>(update.size());
    for (Tensor t : update) {
      // Rounding to nearest draws nothing from the generator.
      out.add(TensorMath.fromLongs(DType.INT64, t.shape(), q.quantize(TensorMath.toDoubles(t),
          null)));
    }
    return out;
  }

  private static void leafTypes(Type t, List<TensorType> out) {
    if (t instanceof TensorType x) {
      out.add(x);
    } else {
      for (StructType.Element e : ((StructType) t).elements()) {
        leafTypes(e.type(), out);
      }
    }
  }

  /** The floating sum of {@code count} updates from their quantized sum, in the model's dtypes. */
  List<Tensor> dequantize(StructType model, Object sum, long count, double c) {
    List<Tensor> sums = ModelLeaves.of(sum);
    List<TensorType> like = new ArrayList<>();
    leafTypes(model, like);
    List<Tensor> out = new ArrayList<>(sums.size());
    Quantizer q = quantizer(c);
    for (int i = 0; i < sums.size(); i++) {
      double[] back = q.dequantize(TensorMath.toLongs(sums.get(i)), Math.toIntExact(count));
      out.add(TensorMath.fromDoubles(like.get(i).dtype(), sums.get(i).shape(), back));
    }
    return out;
  }
}
