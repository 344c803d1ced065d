package io.tributary.runtime.executor.internal.local;

import io.tributary.core.types.StructType;
import io.tributary.core.types.TensorType;
import io.tributary.core.types.Type;
import io.tributary.core.values.StructValue;
import io.tributary.runtime.executor.internal.pass.PassCodec;
import io.tributary.tensor.DType;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.TensorMath;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A running weighted sum of structs of numeric tensors: the state behind {@code federated_sum},
 * {@code federated_mean}, {@code federated_weighted_mean}, the secure sums and
 * {@code sequence_sum}.
 *
 * <p>Floating leaves accumulate {@code w * x} in double precision, complex ones as interleaved
 * double pairs, integer leaves in 64-bit two's complement (wrapping like the dtype does). The
 * order of additions is exactly the order of {@link #add} and {@link #merge} calls, which is what
 * makes results reproducible: callers fix that order, never the thread schedule.
 *
 * <p>Floating and complex sums lie in pieces of {@value #PIECE} doubles (256 KB), not in one
 * array per leaf. A pass keeps one accumulator per group of clients, and G1 allocates an object
 * of half a heap region or more as "humongous", straight into the old generation (regions are
 * 1 MB in a 2 GB Spark executor): a 1,000,000-parameter model's 8 MB of sums per group was one
 * such object per group, each allocation a check that could start a concurrent marking cycle.
 * Pieces are ordinary young objects. Every element still gets the same operations in the same
 * order, and the pieces are written one after another, so the sums and their bytes are those of
 * one array.
 */
public final class LinearAccumulator {
  /**
   * Doubles per piece of a leaf's sums: 256 KB, below G1's humongous threshold for every region
   * size (half of the smallest region, 1 MB); even, so a complex element never straddles pieces.
   */
  static final int PIECE = 1 << 15;

  /** How the final value is formed from the sums. */
  public enum Mode {
    SUM,
    MEAN,
    WEIGHTED_MEAN
  }

  private final Type member;
  private final List<TensorType> leafTypes;
  private final Shape[] shapes;
  /** Per leaf, its sums in pieces of {@link #PIECE} (the last may be shorter). */
  private final double[][][] reals;
  private final long[][] ints;
  /**
   * Per leaf, storage kept by {@link #clear} for the next value of the same size: zeroed and
   * taken up when that leaf's sums are allocated again, or null.
   */
  private final double[][][] spareReals;
  private final long[][] spareInts;
  private double weightSum;
  private long count;

  private LinearAccumulator(Type member, List<TensorType> leafTypes) {
    this.member = member;
    this.leafTypes = leafTypes;
    this.shapes = new Shape[leafTypes.size()];
    this.reals = new double[leafTypes.size()][][];
    this.ints = new long[leafTypes.size()][];
    this.spareReals = new double[leafTypes.size()][][];
    this.spareInts = new long[leafTypes.size()][];
  }

  /** An empty accumulator for values of {@code member}, a struct of numeric tensors. */
  public static LinearAccumulator forType(Type member) {
    List<TensorType> leaves = new ArrayList<>();
    collectLeaves(member, leaves);
    return new LinearAccumulator(member, leaves);
  }

  private static void collectLeaves(Type t, List<TensorType> out) {
    if (t instanceof TensorType x) {
      if (!x.dtype().isNumeric()) {
        throw new IllegalArgumentException("cannot sum " + x + " values");
      }
      out.add(x);
    } else if (t instanceof StructType s) {
      for (int i = 0; i < s.size(); i++) {
        collectLeaves(s.get(i), out);
      }
    } else {
      throw new IllegalArgumentException("cannot sum values of type " + t);
    }
  }

  /** The number of tensors in a value of the member type. */
  public int leafCount() {
    return leafTypes.size();
  }

  /** The tensors of a value of the member type, in leaf order. */
  public static void flatten(Object value, List<Tensor> out) {
    if (value instanceof Tensor t) {
      out.add(t);
    } else if (value instanceof StructValue s) {
      for (Object v : s.values()) {
        flatten(v, out);
      }
    } else {
      throw new IllegalArgumentException("not a struct of tensors: " + value);
    }
  }

  /**
   * Checks that {@code value}'s tensors have the shapes of those added before, so that a failed
   * {@link #add} never leaves the sums half updated.
   *
   * @throws IllegalArgumentException naming the leaf whose shape differs
   */
  public void check(Object value) {
    List<Tensor> leaves = new ArrayList<>();
    flatten(value, leaves);
    if (leaves.size() != leafTypes.size()) {
      throw new IllegalArgumentException("expected " + leafTypes.size() + " tensors in a value of "
          + member + ", found " + leaves.size());
    }
    for (int i = 0; i < leaves.size(); i++) {
      Tensor t = leaves.get(i);
      if (t.dtype() != leafTypes.get(i).dtype()) {
        throw new IllegalArgumentException("tensor " + i + " of the value is " + t.dtype()
            + ", expected " + leafTypes.get(i).dtype());
      }
      if (shapes[i] != null && !shapes[i].equals(t.shape())) {
        throw new IllegalArgumentException("tensor " + i + " has shape " + t.shape()
            + " but the values before it had shape " + shapes[i]);
      }
      TensorMath.arrayLength(t, t.dtype().isComplex() ? 2 : 1);
    }
  }

  /** Adds {@code weight * value}; integer leaves ignore the weight (they are only summed). */
  public void add(Object value, double weight) {
    addAll(List.of(value), new double[] {weight});
  }

  /**
   * Adds {@code weights[k] * values.get(k)} for each k in order. Float32 and float64 leaves are
   * folded tile by tile (every value's slice of a tile, then the next tile), which performs the
   * same additions in the same order per element as adding the values one after another, while
   * reading each accumulator element from memory once per call instead of once per value.
   */
  public void addAll(List<Object> values, double[] weights) {
    List<List<Tensor>> leaves = new ArrayList<>();
    for (Object v : values) {
      List<Tensor> l = new ArrayList<>();
      flatten(v, l);
      leaves.add(l);
    }
    for (int i = 0; i < leafTypes.size(); i++) {
      allocate(i, leaves.get(0).get(i).shape());
      DType d = leafTypes.get(i).dtype();
      for (int k = 0; k < values.size(); k++) {
        Tensor t = leaves.get(k).get(i);
        if (d.isInteger()) {
          long[] acc = ints[i];
          long[] x = TensorMath.toLongs(t);
          for (int j = 0; j < x.length; j++) {
            acc[j] += x[j];
          }
        } else if (d.isComplex() || (d != DType.FLOAT32 && d != DType.FLOAT64)) {
          // Complex (interleaved pairs), float16 and bfloat16: as doubles, then w * x per element.
          double[] x = TensorMath.toDoubles(t);
          double wk = weights[k];
          int off = 0;
          for (double[] acc : reals[i]) {
            for (int j = 0; j < acc.length; j++) {
              acc[j] += wk * x[off + j];
            }
            off += acc.length;
          }
        }
      }
      if (d == DType.FLOAT32 || d == DType.FLOAT64) {
        List<Tensor> column = new ArrayList<>();
        for (List<Tensor> l : leaves) {
          column.add(l.get(i));
        }
        long off = 0;
        for (double[] acc : reals[i]) {
          TensorMath.addScaled(column, weights, acc, off);
          off += acc.length;
        }
      }
    }
    for (double w : weights) {
      weightSum += w;
      count++;
    }
  }

  private void allocate(int leaf, Shape shape) {
    if (shapes[leaf] != null) {
      return;
    }
    shapes[leaf] = shape;
    int n = Math.toIntExact(shape.size());
    if (leafTypes.get(leaf).dtype().isInteger()) {
      long[] spare = spareInts[leaf];
      spareInts[leaf] = null;
      if (spare != null && spare.length == n) {
        Arrays.fill(spare, 0L);
        ints[leaf] = spare;
      } else {
        ints[leaf] = new long[n];
      }
    } else {
      int total = leafTypes.get(leaf).dtype().isComplex() ? 2 * n : n;
      double[][] spare = spareReals[leaf];
      spareReals[leaf] = null;
      if (spare != null && length(spare) == total) {
        for (double[] piece : spare) {
          Arrays.fill(piece, 0.0);
        }
        reals[leaf] = spare;
      } else {
        reals[leaf] = pieces(total);
      }
    }
  }

  private static int length(double[][] pieces) {
    int n = 0;
    for (double[] p : pieces) {
      n += p.length;
    }
    return n;
  }

  /**
   * Empties the accumulator, as {@link #forType} makes it, keeping each leaf's storage for the
   * next value of the same size: a sum that is done with (a group's partial once combined into
   * its neighbour) is then reused for the next group instead of being left for the collector.
   * A partial lives as long as its group's clients run, long enough for the collector to move
   * it into the old generation; a new one per group filled the old generation with dead sums,
   * each a start of concurrent marking.
   */
  public void clear() {
    for (int i = 0; i < leafTypes.size(); i++) {
      if (reals[i] != null) {
        spareReals[i] = reals[i];
      }
      if (ints[i] != null) {
        spareInts[i] = ints[i];
      }
      reals[i] = null;
      ints[i] = null;
      shapes[i] = null;
    }
    weightSum = 0;
    count = 0;
  }

  /** Zeroed pieces of {@code n} doubles in all. */
  private static double[][] pieces(int n) {
    double[][] p = new double[(n + PIECE - 1) / PIECE][];
    for (int k = 0; k < p.length; k++) {
      p[k] = new double[Math.min(PIECE, n - k * PIECE)];
    }
    return p;
  }

  /**
   * Adds another accumulator's sums to this one's. The first merge into an empty accumulator
   * adds to zeros rather than taking the partial over, so that every path through the runtime
   * performs the same floating-point operations.
   */
  public void merge(LinearAccumulator partial) {
    for (int i = 0; i < leafTypes.size(); i++) {
      if (partial.shapes[i] == null) {
        continue;
      }
      if (shapes[i] != null && !shapes[i].equals(partial.shapes[i])) {
        throw new IllegalArgumentException("tensor " + i + " has shape " + partial.shapes[i]
            + " in one group of clients and " + shapes[i] + " in another");
      }
      allocate(i, partial.shapes[i]);
      if (ints[i] != null) {
        long[] acc = ints[i];
        long[] p = partial.ints[i];
        for (int j = 0; j < acc.length; j++) {
          acc[j] += p[j];
        }
      } else {
        for (int k = 0; k < reals[i].length; k++) {
          double[] acc = reals[i][k];
          double[] p = partial.reals[i][k];
          for (int j = 0; j < acc.length; j++) {
            acc[j] += p[j];
          }
        }
      }
    }
    weightSum += partial.weightSum;
    count += partial.count;
  }

  /** Writes the sums exactly (raw bits), for a pass engine ({@link PassCodec}). */
  public void write(PassCodec.Out out) {
    out.i32(leafTypes.size());
    for (int i = 0; i < leafTypes.size(); i++) {
      out.u8(shapes[i] == null ? 0 : 1);
      if (shapes[i] == null) {
        continue;
      }
      PassCodec.writeShape(shapes[i], out);
      if (ints[i] != null) {
        out.longs(ints[i]);
      } else {
        for (double[] piece : reals[i]) {
          out.doubles(piece);
        }
      }
    }
    out.f64(weightSum);
    out.i64(count);
  }

  /**
   * Reads what {@link #write} wrote for values of {@code member}, checking the leaf count and
   * every length before allocating.
   */
  public static LinearAccumulator read(Type member, PassCodec.In in) {
    LinearAccumulator a = forType(member);
    int leaves = in.count("sum leaves", a.leafTypes.size());
    if (leaves != a.leafTypes.size()) {
      throw in.bad("a sum of " + member + " has " + a.leafTypes.size() + " tensors, not "
          + leaves);
    }
    for (int i = 0; i < leaves; i++) {
      int present = in.u8("a leaf flag");
      if (present > 1) {
        throw in.bad("a leaf flag is " + present);
      }
      if (present == 0) {
        continue;
      }
      DType d = a.leafTypes.get(i).dtype();
      int perElement = d.isComplex() ? 16 : 8;
      Shape shape = PassCodec.readShape(in, perElement);
      int n = Math.toIntExact(shape.size());
      a.shapes[i] = shape;
      if (d.isInteger()) {
        a.ints[i] = in.longs(n, "the sums of tensor " + i);
      } else {
        // Piece by piece: each read checks that its bytes are there before allocating.
        int total = d.isComplex() ? 2 * n : n;
        double[][] p = new double[(total + PIECE - 1) / PIECE][];
        for (int k = 0; k < p.length; k++) {
          p[k] = in.doubles(Math.min(PIECE, total - k * PIECE), "the sums of tensor " + i);
        }
        a.reals[i] = p;
      }
    }
    a.weightSum = in.f64("the weight sum");
    a.count = in.i64("the count");
    if (a.count < 0) {
      throw in.bad("a sum counts " + a.count + " values");
    }
    return a;
  }

  /** The values added. */
  public long count() {
    return count;
  }

  /** The sum of the added values' weights. */
  public double weightSum() {
    return weightSum;
  }

  /**
   * The aggregate: the sums for {@link Mode#SUM}, divided by the count or the total weight for
   * the means, rounded once to each leaf's dtype.
   *
   * @throws IllegalArgumentException when there is nothing to divide by, or no value was added
   *     and a leaf's shape is unknown
   */
  public Object result(Mode mode) {
    double divisor = switch (mode) {
      case SUM -> 1.0;
      case MEAN -> count;
      case WEIGHTED_MEAN -> weightSum;
    };
    if (mode != Mode.SUM && count == 0) {
      throw new IllegalArgumentException("a mean over no values is undefined");
    }
    if (mode == Mode.WEIGHTED_MEAN && weightSum == 0.0) {
      throw new IllegalArgumentException("the weights sum to zero, so the weighted mean is "
          + "undefined");
    }
    List<Object> leaves = new ArrayList<>();
    for (int i = 0; i < leafTypes.size(); i++) {
      TensorType type = leafTypes.get(i);
      if (shapes[i] == null) {
        leaves.add(TensorOps.zeros(type));
        continue;
      }
      if (ints[i] != null) {
        leaves.add(TensorMath.fromLongs(type.dtype(), shapes[i], ints[i]));
        continue;
      }
      double[] v = joined(reals[i]);
      if (mode != Mode.SUM) {
        divide(v, divisor);
      }
      leaves.add(TensorMath.fromDoubles(type.dtype(), shapes[i], v));
    }
    return rebuild(member, leaves, new int[] {0});
  }

  /**
   * {@code v[j] = v[j] / divisor} for every j. A method of its own: the loop runs once a round
   * over every parameter, enough for the JIT to compile it, and on its own it is compiled as this
   * small loop instead of as all of {@link #result} with everything that method calls.
   */
  private static void divide(double[] v, double divisor) {
    for (int j = 0; j < v.length; j++) {
      v[j] = v[j] / divisor;
    }
  }

  /** The pieces' doubles in one new array. */
  private static double[] joined(double[][] pieces) {
    int n = 0;
    for (double[] p : pieces) {
      n += p.length;
    }
    double[] v = new double[n];
    int at = 0;
    for (double[] p : pieces) {
      System.arraycopy(p, 0, v, at, p.length);
      at += p.length;
    }
    return v;
  }

  /**
   * A value of type {@code t} from its tensor leaves, from {@code leaves[next[0]]} on ({@code
   * next[0]} advances).
   */
  public static Object rebuild(Type t, List<Object> leaves, int[] next) {
    if (t instanceof StructType s) {
      List<Object> values = new ArrayList<>();
      for (int i = 0; i < s.size(); i++) {
        values.add(rebuild(s.get(i), leaves, next));
      }
      return StructValue.of(names(s), values);
    }
    return leaves.get(next[0]++);
  }

  /** The element names of {@code s}, in order. */
  static List<java.util.Optional<String>> names(StructType s) {
    List<java.util.Optional<String>> names = new ArrayList<>(s.size());
    for (StructType.Element e : s.elements()) {
      names.add(e.name());
    }
    return names;
  }
}
