package io.tributary.runtime.executor.internal.aggregation;

import io.tributary.core.types.StructType;
import io.tributary.core.types.Type;
import io.tributary.core.values.StructValue;
import io.tributary.runtime.PassEngineException;
import io.tributary.runtime.RuntimeOptions;
import io.tributary.runtime.SecureSumException;
import io.tributary.runtime.SecureSumRequest;
import io.tributary.runtime.SecureSummation;
import io.tributary.runtime.ValueChecker;
import io.tributary.runtime.executor.internal.federated.ClientNode;
import io.tributary.runtime.executor.internal.local.LinearAccumulator;
import io.tributary.runtime.executor.internal.pass.PassCodec;
import io.tributary.tensor.Finite;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.TensorMath;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * {@code federated_sum}, {@code federated_mean}, {@code federated_weighted_mean},
 * {@code federated_secure_sum} and {@code federated_secure_sum_bitwidth}, all as a running
 * (weighted) sum in a {@link LinearAccumulator}.
 *
 * <p>The secure sums compute an ordinary sum here; they do check what the protocol would
 * require of each client (every element in {@code [0, bound]}, or in {@code [0, 2^bits)}), and
 * the bit-width variant reduces the sum modulo {@code 2^bits}. When the options name a
 * {@link SecureSummation}, a secure sum instead gathers the clients' values in client order and
 * hands them, flattened to {@code long[]}, to it once every client has run ({@link Gathered}).
 * Where the clients run on their own nodes ({@link SecureMode#CLIENT}, {@link SecureMode#ENGINE})
 * a client's input leaves through a protocol instead of the pass part, and the driver's sum is
 * the protocol's ({@link #protocolResult}).
 *
 * <p>Client values are untrusted: a value with a NaN or infinite element, or a non-finite
 * weight, fails its client ({@link #prepare}), and a weight above the bound is clipped or fails
 * the client, as {@link RuntimeOptions#overWeight()} says. An aggregate that is not finite even
 * so (finite values whose sum overflows) is refused by the planner ({@link #nonFinite}).
 */
public final class LinearSink implements Sink {
  private final String uri;
  private final LinearAccumulator.Mode mode;
  private final Type member;
  private final List<ClientNode> inputs;
  private final long[] bounds;
  private final boolean bitwidth;
  private final double maxWeight;
  private final RuntimeOptions.WeightPolicy overWeight;
  private final Optional<SecureSummation> secureSum;
  private final SecureMode secureMode;
  /** The flat layout of a secure sum whose inputs leave through a protocol, or null. */
  private final SecureLayout layout;

  /** Released partials kept for reuse at most: enough for a pass's workers, little memory. */
  private static final int MAX_SPARE = 4;

  /**
   * Plain sums done with ({@link #release}), emptied, for {@link #newPartial} to hand out again
   * (guarded by itself): a pass makes one partial per group of clients, and each but the
   * leftmost of a pair is dead once the pair is combined.
   */
  private final ArrayDeque<LinearAccumulator> spare = new ArrayDeque<>();

  /** A partial of a secure sum whose inputs the driver never sees. */
  private static final class Withheld {}

  private record Prepared(Object value, double weight) {}

  /**
   * The values of a group of clients for a {@link SecureSummation}, in client order, with the
   * leaf shapes of the first so that a client whose shapes differ fails like it does when summing
   * in the clear.
   */
  private static final class Gathered {
    final List<Object> values = new ArrayList<>();
    List<Shape> shapes;

    void check(Object value, Type member) {
      List<Tensor> leaves = new ArrayList<>();
      LinearAccumulator.flatten(value, leaves);
      LinearAccumulator.forType(member).check(value);
      if (shapes == null) {
        return;
      }
      for (int i = 0; i < leaves.size(); i++) {
        if (!leaves.get(i).shape().equals(shapes.get(i))) {
          throw new IllegalArgumentException("tensor " + i + " has shape " + leaves.get(i).shape()
              + " but the values before it had shape " + shapes.get(i));
        }
      }
    }

    void add(Object value) {
      if (shapes == null) {
        List<Tensor> leaves = new ArrayList<>();
        LinearAccumulator.flatten(value, leaves);
        List<Shape> leafShapes = new ArrayList<>(leaves.size());
        for (Tensor t : leaves) {
          leafShapes.add(t.shape());
        }
        shapes = List.copyOf(leafShapes);
      }
      values.add(value);
    }
  }

  private LinearSink(String uri, LinearAccumulator.Mode mode, Type member,
      List<ClientNode> inputs, long[] bounds, boolean bitwidth, RuntimeOptions options,
      SecureMode secureMode) {
    this.uri = uri;
    this.maxWeight = options.maxWeight();
    this.overWeight = options.overWeight();
    this.mode = mode;
    this.member = member;
    this.inputs = List.copyOf(inputs);
    this.bounds = bounds;
    this.bitwidth = bitwidth;
    this.secureMode = bounds == null ? SecureMode.CLEAR : secureMode;
    this.secureSum = this.secureMode == SecureMode.SUMMATION ? options.secureSum()
        : Optional.empty();
    if (this.secureMode == SecureMode.SUMMATION && secureSum.isEmpty()) {
      throw new IllegalStateException("a secure sum by a SecureSummation needs one");
    }
    boolean leaves = this.secureMode == SecureMode.CLIENT || this.secureMode == SecureMode.ENGINE;
    this.layout = leaves ? layout() : null;
  }

  private SecureLayout layout() {
    long[] max = new long[bounds.length];
    for (int g = 0; g < bounds.length; g++) {
      max[g] = bitwidth ? (1L << bounds[g]) - 1 : bounds[g];
    }
    return SecureLayout.of(uri, member,
        leafGroups(LinearAccumulator.forType(member).leafCount()), max);
  }

  /** The sum {@code uri} ({@code federated_sum}) of {@code value}. */
  public static LinearSink sum(String uri, ClientNode value, RuntimeOptions options) {
    return new LinearSink(uri, LinearAccumulator.Mode.SUM, value.member(), List.of(value), null,
        false, options, SecureMode.CLEAR);
  }

  /** {@code federated_mean} of {@code value}. */
  public static LinearSink mean(ClientNode value, RuntimeOptions options) {
    return new LinearSink("federated_mean", LinearAccumulator.Mode.MEAN, value.member(),
        List.of(value), null, false, options, SecureMode.CLEAR);
  }

  /** {@code federated_weighted_mean} of {@code value} by {@code weight}. */
  public static LinearSink weightedMean(ClientNode value, ClientNode weight,
      RuntimeOptions options) {
    return new LinearSink("federated_weighted_mean", LinearAccumulator.Mode.WEIGHTED_MEAN,
        value.member(), List.of(value, weight), null, false, options, SecureMode.CLEAR);
  }

  /**
   * A secure sum: {@code bound} is an integer scalar, or a struct of them with one per top-level
   * element of the value; {@code mode} says where the clients' inputs go.
   */
  public static LinearSink secure(String uri, ClientNode value, Object bound, boolean bitwidth,
      RuntimeOptions options, SecureMode mode) {
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
        bitwidth, options, mode);
  }

  /** Whether each client's value is weighted (a weighted mean). */
  public boolean weighted() {
    return mode == LinearAccumulator.Mode.WEIGHTED_MEAN;
  }

  /** How the values are combined: sum, mean or weighted mean. */
  public LinearAccumulator.Mode mode() {
    return mode;
  }

  /** The type of one client's value. */
  public Type member() {
    return member;
  }

  /** Whether this is a secure sum (with bounds). */
  public boolean secure() {
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
    return switch (secureMode) {
      case CLEAR -> {
        LinearAccumulator reused;
        synchronized (spare) {
          reused = spare.poll();
        }
        yield reused != null ? reused : LinearAccumulator.forType(member);
      }
      case SUMMATION, CLIENT -> new Gathered();
      case ENGINE -> new Withheld();
    };
  }

  /** Where this sum's clients' inputs go ({@link SecureMode#CLEAR} for the plain sums). */
  public SecureMode secureMode() {
    return secureMode;
  }

  /** The number of elements of a client's flattened input, for a sum that leaves the clients. */
  public int secureLength() {
    return requireLayout().length();
  }

  /** Each element's largest value, for a sum that leaves the clients. */
  public long[] secureMaxInput() {
    return requireLayout().maxInput();
  }

  private SecureLayout requireLayout() {
    if (layout == null) {
      throw new IllegalStateException(uri + " does not leave the clients through a protocol");
    }
    return layout;
  }

  /**
   * Takes the input a node's client gathered in {@code partial} (a group of one client) out of
   * it, flattened: what goes to the protocol instead of the part. Null when the client
   * contributed nothing (it failed).
   */
  public long[] takeClientInput(Object partial) {
    Gathered g = (Gathered) partial;
    if (secureMode != SecureMode.CLIENT || g.values.size() > 1) {
      throw new IllegalStateException(uri + ": a client's input is taken from a group of one");
    }
    if (g.values.isEmpty()) {
      return null;
    }
    long[] flat = requireLayout().flatten(g.values.get(0));
    g.values.clear();
    return flat;
  }

  /**
   * The sum's value from the protocol's sum of the survivors' vectors, whose elements
   * {@code [offset, offset + secureLength())} are this sum's (all zero without survivors).
   */
  public Object protocolResult(long[] sum, int offset) {
    Object total = requireLayout().rebuild(sum, offset);
    return bitwidth ? reduceModulo(total, member, 0) : total;
  }

  @Override
  public Object prepare(Object partial, Object[] values) {
    Object v = values[0];
    Optional<String> bad = ValueChecker.problem(member, v, "");
    if (bad.isPresent()) {
      throw new IllegalArgumentException(bad.get());
    }
    if (partial instanceof Gathered g) {
      g.check(v, member);
    } else if (partial instanceof Withheld) {
      throw new IllegalStateException(uri + ": the driver computes no client of this sum");
    } else {
      ((LinearAccumulator) partial).check(v);
    }
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
  public boolean weightOutOfBound(double w) {
    return w > maxWeight;
  }

  /**
   * What makes a value or an aggregate unusable: the first NaN or infinite element of its
   * floating tensors, or empty when it is finite.
   */
  public static Optional<String> nonFinite(Object value) {
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

  /** False for a sum in the clear: its values are added into the partial and not kept. */
  @Override
  public boolean keepsValues() {
    return secureMode != SecureMode.CLEAR;
  }

  @Override
  public void commit(Object partial, Object prepared) {
    Prepared p = (Prepared) prepared;
    if (partial instanceof Gathered g) {
      g.add(p.value());
      return;
    }
    ((LinearAccumulator) partial).add(p.value(), p.weight());
  }

  @Override
  public void commitAll(Object partial, List<Object> prepared) {
    if (partial instanceof Gathered) {
      for (Object p : prepared) {
        commit(partial, p);
      }
      return;
    }
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
    if (partial instanceof Withheld w) {
      return total == null ? w : total;
    }
    if (partial instanceof Gathered g) {
      Gathered t = total == null ? new Gathered() : (Gathered) total;
      for (Object v : g.values) {
        if (t.shapes != null) {
          t.check(v, member);
        }
        t.add(v);
      }
      return t;
    }
    LinearAccumulator t = total == null ? LinearAccumulator.forType(member)
        : (LinearAccumulator) total;
    t.merge((LinearAccumulator) partial);
    return t;
  }

  @Override
  public void release(Object partial) {
    if (secureMode != SecureMode.CLEAR || !(partial instanceof LinearAccumulator a)) {
      return;
    }
    a.clear();
    synchronized (spare) {
      if (spare.size() < MAX_SPARE) {
        spare.push(a);
      }
    }
  }

  @Override
  public void writePartial(Object partial, PassCodec.Out out) {
    if (secureMode == SecureMode.CLIENT || secureMode == SecureMode.ENGINE) {
      // The input went to the protocol: the part holds nothing of it.
      if (partial instanceof Gathered g && !g.values.isEmpty()) {
        throw new IllegalStateException(uri + ": a client's input was not handed to the "
            + "protocol before its part was written");
      }
      return;
    }
    if (partial instanceof Gathered) {
      throw secureSumRefused();
    }
    ((LinearAccumulator) partial).write(out);
  }

  @Override
  public Object readPartial(PassCodec.In in) {
    if (secureMode == SecureMode.ENGINE) {
      return new Withheld();
    }
    if (secureMode != SecureMode.CLEAR) {
      throw secureSumRefused();
    }
    return LinearAccumulator.read(member, in);
  }

  /** Whether this sum hands its values to a {@link SecureSummation}, which no engine runs yet. */
  public boolean gathers() {
    return secureSum.isPresent();
  }

  /** Why this secure sum cannot run on a pass engine. */
  public PassEngineException secureSumRefused() {
    return new PassEngineException("secure sums cannot run on a pass engine yet: " + uri
        + " has a SecureSummation hook, which needs every client's value on the driver", null);
  }

  @Override
  public Object result(Object total) {
    if (secureMode == SecureMode.ENGINE) {
      // The value is the protocol's ({@link #protocolResult}), which the pass's end sets.
      return null;
    }
    if (total instanceof Gathered g && !g.values.isEmpty()) {
      Object sum = runSecureSum(secureSum.orElseThrow(), g);
      return bitwidth ? reduceModulo(sum, member, 0) : sum;
    }
    // No client contributed (or none at all ran): the sum of nothing, without a protocol.
    LinearAccumulator t = total instanceof LinearAccumulator a ? a
        : LinearAccumulator.forType(member);
    Object sum = t.result(mode);
    return bitwidth ? reduceModulo(sum, member, 0) : sum;
  }

  /**
   * Flattens every gathered value to one {@code long[]}, has {@code summation} add them, and
   * rebuilds the total in the shape and dtypes of the first value.
   */
  private Object runSecureSum(SecureSummation summation, Gathered g) {
    List<Tensor> template = new ArrayList<>();
    LinearAccumulator.flatten(g.values.get(0), template);
    int[] offsets = new int[template.size() + 1];
    for (int i = 0; i < template.size(); i++) {
      offsets[i + 1] = Math.addExact(offsets[i], Math.toIntExact(template.get(i).shape().size()));
    }
    long[] maxInput = new long[offsets[template.size()]];
    int[] groups = leafGroups(template.size());
    for (int i = 0; i < template.size(); i++) {
      long bound = bounds[Math.min(groups[i], bounds.length - 1)];
      Arrays.fill(maxInput, offsets[i], offsets[i + 1], bitwidth ? (1L << bound) - 1 : bound);
    }
    List<long[]> inputs = new ArrayList<>();
    for (Object v : g.values) {
      List<Tensor> leaves = new ArrayList<>();
      LinearAccumulator.flatten(v, leaves);
      long[] flat = new long[maxInput.length];
      for (int i = 0; i < leaves.size(); i++) {
        long[] x = TensorMath.toLongs(leaves.get(i));
        System.arraycopy(x, 0, flat, offsets[i], x.length);
      }
      inputs.add(flat);
    }
    long[] sum = summation.sum(SecureSumRequest.of(uri, inputs, maxInput));
    if (sum == null || sum.length != maxInput.length) {
      throw new SecureSumException(uri + ": the secure summation returned "
          + (sum == null ? "nothing" : sum.length + " elements") + ", expected "
          + maxInput.length);
    }
    List<Object> leaves = new ArrayList<>();
    for (int i = 0; i < template.size(); i++) {
      Tensor t = template.get(i);
      leaves.add(TensorMath.fromLongs(t.dtype(), t.shape(),
          Arrays.copyOfRange(sum, offsets[i], offsets[i + 1])));
    }
    return LinearAccumulator.rebuild(member, leaves, new int[] {0});
  }

  /** The bound group (top-level struct element when there are several bounds) of each leaf. */
  private int[] leafGroups(int leafCount) {
    int[] groups = new int[leafCount];
    if (bounds.length > 1 && member instanceof StructType st) {
      int leaf = 0;
      for (int e = 0; e < st.size(); e++) {
        int n = LinearAccumulator.forType(st.get(e)).leafCount();
        for (int k = 0; k < n; k++) {
          groups[leaf++] = e;
        }
      }
    }
    return groups;
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
