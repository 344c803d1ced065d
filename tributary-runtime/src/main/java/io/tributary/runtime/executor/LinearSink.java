package io.tributary.runtime.executor;

import io.tributary.core.types.StructType;
import io.tributary.core.types.Type;
import io.tributary.core.values.StructValue;
import io.tributary.runtime.RuntimeOptions;
import io.tributary.runtime.ValueChecker;
import io.tributary.tensor.Finite;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.TensorMath;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code federated_sum}, {@code federated_mean}, {@code federated_weighted_mean},
 * {@code federated_secure_sum} and {@code federated_secure_sum_bitwidth}, all as a running
 * (weighted) sum in a {@link LinearAccumulator}.
 *
 * <p>The secure sums compute an ordinary sum here; they do check what the protocol would
 * require of each client (every element in {@code [0, bound]}, or in {@code [0, 2^bits)}), and
 * the bit-width variant reduces the sum modulo {@code 2^bits}.
 *
 * <p>Client values are untrusted: a value with a NaN or infinite element, or a non-finite
 * weight, fails its client ({@link #prepare}), and a weight above the bound is clipped or fails
 * the client, as {@link RuntimeOptions#overWeight()} says. An aggregate that is not finite even
 * so (finite values whose sum overflows) is refused by the planner ({@link #nonFinite}).
 */
final class LinearSink implements Sink {
  private final String uri;
  private final LinearAccumulator.Mode mode;
  private final Type member;
  private final List<ClientNode> inputs;
  private final long[] bounds;
  private final boolean bitwidth;
  private final double maxWeight;
  private final RuntimeOptions.WeightPolicy overWeight;

  private record Prepared(Object value, double weight) {}

  private LinearSink(String uri, LinearAccumulator.Mode mode, Type member,
      List<ClientNode> inputs, long[] bounds, boolean bitwidth, RuntimeOptions options) {
    this.uri = uri;
    this.maxWeight = options.maxWeight();
    this.overWeight = options.overWeight();
    this.mode = mode;
    this.member = member;
    this.inputs = List.copyOf(inputs);
    this.bounds = bounds;
    this.bitwidth = bitwidth;
  }

  static LinearSink sum(String uri, ClientNode value, RuntimeOptions options) {
    return new LinearSink(uri, LinearAccumulator.Mode.SUM, value.member(), List.of(value), null,
        false, options);
  }

  static LinearSink mean(ClientNode value, RuntimeOptions options) {
    return new LinearSink("federated_mean", LinearAccumulator.Mode.MEAN, value.member(),
        List.of(value), null, false, options);
  }

  static LinearSink weightedMean(ClientNode value, ClientNode weight, RuntimeOptions options) {
    return new LinearSink("federated_weighted_mean", LinearAccumulator.Mode.WEIGHTED_MEAN,
        value.member(), List.of(value, weight), null, false, options);
  }

  /**
   * A secure sum: {@code bound} is an integer scalar, or a struct of them with one per top-level
   * element of the value.
   */
  static LinearSink secure(String uri, ClientNode value, Object bound, boolean bitwidth,
      RuntimeOptions options) {
    List<Tensor> leaves = new ArrayList<>();
    LinearAccumulator.flatten(bound, leaves);
    long[] b = new long[leaves.size()];
    for (int i = 0; i < b.length; i++) {
      b[i] = TensorMath.toLongs(leaves.get(i))[0];
      if (bitwidth ? b[i] < 1 || b[i] > 62 : b[i] < 0) {
        throw new IllegalArgumentException(uri + ": " + (bitwidth
            ? "a bit width must be 1 to 62, got " + b[i]
            : "a bound must be non-negative, got " + b[i]));
      }
    }
    return new LinearSink(uri, LinearAccumulator.Mode.SUM, value.member(), List.of(value), b,
        bitwidth, options);
  }

  boolean weighted() {
    return mode == LinearAccumulator.Mode.WEIGHTED_MEAN;
  }

  LinearAccumulator.Mode mode() {
    return mode;
  }

  Type member() {
    return member;
  }

  boolean secure() {
    return bounds != null;
  }

  @Override
  public String intrinsic() {
    return uri;
  }

  @Override
  public List<ClientNode> inputs() {
    return inputs;
  }

  @Override
  public Object newPartial() {
    return LinearAccumulator.forType(member);
  }

  @Override
  public Object prepare(Object partial, Object[] values) {
    Object v = values[0];
    Optional<String> bad = ValueChecker.problem(member, v, "");
    if (bad.isPresent()) {
      throw new IllegalArgumentException(bad.get());
    }
    ((LinearAccumulator) partial).check(v);
    Optional<String> nonFinite = nonFinite(v);
    if (nonFinite.isPresent()) {
      throw new IllegalArgumentException(nonFinite.get());
    }
    double w = 1.0;
    if (weighted()) {
      w = weight((Tensor) values[1]);
    }
    if (bounds != null) {
      checkBounds(v);
    }
    return new Prepared(v, w);
  }

  /** The client's weight, clipped to the bound or refused as {@link #overWeight} says. */
  private double weight(Tensor weight) {
    double w = weight.getAsDouble(0);
    if (!Double.isFinite(w)) {
      throw new IllegalArgumentException("the weight " + w + " is not finite");
    }
    if (w > maxWeight) {
      if (overWeight == RuntimeOptions.WeightPolicy.EXCLUDE) {
        throw new IllegalArgumentException("the weight " + describe(weight) + " is above the "
            + "bound " + describe(maxWeight));
      }
      return maxWeight;
    }
    return w;
  }

  private static String describe(Tensor scalar) {
    return scalar.dtype().isInteger() ? Long.toUnsignedString(TensorMath.toLongs(scalar)[0])
        : Double.toString(scalar.getAsDouble(0));
  }

  private static String describe(double d) {
    return d == Math.rint(d) && Math.abs(d) < 1e18 ? Long.toString((long) d) : Double.toString(d);
  }

  /** Whether a weight is refused or clipped, for the tiled path, which does neither. */
  boolean weightOutOfBound(double w) {
    return w > maxWeight;
  }

  /**
   * What makes a value or an aggregate unusable: the first NaN or infinite element of its
   * floating tensors, or empty when it is finite.
   */
  static Optional<String> nonFinite(Object value) {
    List<Tensor> leaves = new ArrayList<>();
    LinearAccumulator.flatten(value, leaves);
    return Finite.problem(leaves, null).map(p -> "the value is not finite: " + p);
  }

  private void checkBounds(Object v) {
    List<Object> groups = new ArrayList<>();
    if (bounds.length > 1 && v instanceof StructValue s) {
      groups.addAll(s.values());
    } else {
      groups.add(v);
    }
    for (int g = 0; g < groups.size(); g++) {
      long bound = bounds[Math.min(g, bounds.length - 1)];
      long max = bitwidth ? (1L << bound) - 1 : bound;
      List<Tensor> leaves = new ArrayList<>();
      LinearAccumulator.flatten(groups.get(g), leaves);
      for (Tensor t : leaves) {
        for (long x : TensorMath.toLongs(t)) {
          // A uint64 above 2^63 reads as negative here, and is out of range like one.
          if (x < 0 || x > max) {
            throw new IllegalArgumentException("the value " + Long.toUnsignedString(x)
                + " is outside [0, " + max + "], which " + uri + " requires");
          }
        }
      }
    }
  }

  @Override
  public void commit(Object partial, Object prepared) {
    Prepared p = (Prepared) prepared;
    ((LinearAccumulator) partial).add(p.value(), p.weight());
  }

  @Override
  public void commitAll(Object partial, List<Object> prepared) {
    List<Object> values = new ArrayList<>();
    double[] weights = new double[prepared.size()];
    for (int k = 0; k < prepared.size(); k++) {
      Prepared p = (Prepared) prepared.get(k);
      values.add(p.value());
      weights[k] = p.weight();
    }
    ((LinearAccumulator) partial).addAll(values, weights);
  }

  @Override
  public Object combine(Object total, Object partial) {
    LinearAccumulator t = total == null ? LinearAccumulator.forType(member)
        : (LinearAccumulator) total;
    t.merge((LinearAccumulator) partial);
    return t;
  }

  @Override
  public Object result(Object total) {
    LinearAccumulator t = total == null ? LinearAccumulator.forType(member)
        : (LinearAccumulator) total;
    Object sum = t.result(mode);
    return bitwidth ? reduceModulo(sum, member, 0) : sum;
  }

  private Object reduceModulo(Object value, Type type, int group) {
    if (bounds.length > 1 && value instanceof StructValue s && type instanceof StructType st) {
      List<Object> out = new ArrayList<>();
      for (int i = 0; i < s.size(); i++) {
        out.add(mask(s.get(i), (1L << bounds[i]) - 1));
      }
      return StructValue.of(s.names(), out);
    }
    return mask(value, (1L << bounds[0]) - 1);
  }

  private static Object mask(Object value, long mask) {
    if (value instanceof StructValue s) {
      List<Object> out = new ArrayList<>();
      for (Object v : s.values()) {
        out.add(mask(v, mask));
      }
      return StructValue.of(s.names(), out);
    }
    Tensor t = (Tensor) value;
    long[] x = TensorMath.toLongs(t);
    for (int i = 0; i < x.length; i++) {
      x[i] &= mask;
    }
    return TensorMath.fromLongs(t.dtype(), t.shape(), x);
  }
}
