package io.tributary.graph.ops;

import io.tributary.graph.Graph;
import io.tributary.graph.Op;
import io.tributary.graph.OpArgs;
import io.tributary.tensor.DType;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Fuses pairs of ops of a plan into one pass over the data, giving the same bits as the two ops
 * one after the other. Three pairs, the pattern of a dense or convolution layer with a bias and
 * ReLU:
 *
 * <ul>
 *   <li>{@code m = matmul(a, w); z = add(m, b)} becomes {@code z = matmul_bias(a, w, b)}: the bias
 *       is added to each row of the product while it is still in cache, with no array for m, when
 *       nothing but that add reads m's values. A {@code sum_to_like(g, m)} (the bias gradient,
 *       which reads only m's shape) then reads z, which has m's shape whenever the bias's known
 *       dimensions equal m's last ones.
 *   <li>{@code z = add(y, b); h = relu(z)} becomes {@code h = bias_relu(y, b)}, when nothing but
 *       that relu and {@code relu_grad(g, z)} reads z. Each relu_grad then reads h instead: {@code
 *       relu_grad(g, z)} and {@code relu_grad(g, relu(z))} are the same bits for every z (relu
 *       keeps z where z > 0 and gives +0 or NaN elsewhere, which the gradient treats as z does),
 *       so z is never stored.
 *   <li>{@code y = conv2d(x, w); h = bias_relu(y, b)} (the first pair's result) becomes {@code h =
 *       conv2d_bias_relu(x, w, b)} when nothing else reads y but {@code sum_to_like} for its
 *       shape, which then reads h, of the same shape ({@link ConvBiasReluOp}): the bias
 *       and ReLU are applied to each block of outputs as the convolution finishes it, so the
 *       output is not read again in a pass of its own and the pass runs on the convolution's
 *       threads.
 * </ul>
 *
 * <p>A training step's mean cross-entropy and its gradient become one op as well ({@link
 * LossFusion}). A layer's gradient, {@code d = relu_grad(g, h)} and the bias's {@code
 * sum_to_like(d, b)}, stays two ops, each a vectorized pass split over the run's threads: fused
 * into one pass column by column they ran as a scalar loop, slower on one thread and on two.
 *
 * <p>Only float32 values are fused. A fused op meets run-time shapes the one-pass loop does not
 * cover (a bias that is not a suffix of the value's shape) by running the two ops' own kernels.
 */
final class Fusions {
  static final String BIAS_RELU = "fused_bias_relu";
  static final String CONV_BIAS_RELU = "fused_conv2d_bias_relu";
  static final String MATMUL_BIAS = "fused_matmul_bias";

  private Fusions() {}

  /** The kernel of a fused op type, or empty for any other type. */
  static Optional<OpDef> def(String type) {
    return switch (type) {
      case BIAS_RELU -> Optional.of(BiasRelu.INSTANCE);
      case CONV_BIAS_RELU -> Optional.of(ConvBiasReluOp.INSTANCE);
      case MATMUL_BIAS -> Optional.of(MatMulBias.INSTANCE);
      case LossFusion.TYPE -> Optional.of(CrossEntropyMeanOp.INSTANCE);
      default -> Optional.empty();
    };
  }

  /**
   * {@code order} (the ops of a plan, in topological order) with the fusible pairs fused. A value
   * that is among {@code keep} (the outputs, the accumulations' values and targets) is never fused
   * away.
   */
  static List<Op> fuse(Graph graph, List<Op> order, Collection<String> keep) {
    List<Op> ops = fuseBiasRelu(graph, new ArrayList<>(order), Set.copyOf(keep));
    ops = fuseConvBiasRelu(graph, ops, Set.copyOf(keep));
    ops = fuseMatMulBias(graph, ops, Set.copyOf(keep));
    return LossFusion.fuse(graph, ops, Set.copyOf(keep));
  }

  private static List<Op> fuseMatMulBias(Graph graph, List<Op> ops, Set<String> keep) {
    Map<String, List<Integer>> readers = readers(ops);
    Map<String, Integer> writers = new HashMap<>();
    for (int i = 0; i < ops.size(); i++) {
      for (String o : ops.get(i).outputs()) {
        writers.put(o, i);
      }
    }
    Op[] out = ops.toArray(new Op[0]);
    boolean[] dropped = new boolean[out.length];
    for (int a = 0; a < out.length; a++) {
      Op add = out[a];
      if (!add.type().equals("add") || add.outputs().size() != 1) {
        continue;
      }
      String m = add.inputs().get(0);
      String b = add.inputs().get(1);
      Integer w = writers.get(m);
      if (w == null || w >= a || dropped[w] || !out[w].type().equals("matmul")
          || out[w].outputs().size() != 1 || keep.contains(m) || m.equals(b)
          || !isFloat32(graph, m) || !biasKeepsShape(graph, m, b)) {
        continue;
      }
      List<Integer> shapeReaders = new ArrayList<>();
      boolean other = false;
      for (int r : readers.getOrDefault(m, List.of())) {
        Op reader = out[r];
        if (r == a) {
          continue;
        }
        if (r > a && reader.type().equals("sum_to_like") && reader.inputs().get(1).equals(m)
            && !reader.inputs().get(0).equals(m)) {
          shapeReaders.add(r);
        } else {
          other = true;
        }
      }
      if (other) {
        continue;
      }
      Op mm = out[w];
      String z = add.outputs().get(0);
      List<String> in = List.of(mm.inputs().get(0), mm.inputs().get(1), b);
      out[a] = new Op(mm.name() + "+" + add.name(), MATMUL_BIAS, in, List.of(z), mm.args());
      dropped[w] = true;
      readShapeOf(out, shapeReaders, z);
    }
    return kept(out, dropped);
  }

  /**
   * Whether {@code add(m, b)} has m's shape for every value m and b can take: b's dimensions are
   * all known, no more than m's, and each equals m's known dimension it lines up with (or is 1).
   */
  private static boolean biasKeepsShape(Graph graph, String m, String b) {
    io.tributary.graph.PartialShape ms = graph.requireVariable(m).shape();
    io.tributary.graph.PartialShape bs = graph.requireVariable(b).shape();
    if (graph.requireVariable(b).dtype() != DType.FLOAT32 || bs.rank() > ms.rank()) {
      return false;
    }
    for (int i = 1; i <= bs.rank(); i++) {
      long bd = bs.dim(bs.rank() - i);
      long md = ms.dim(ms.rank() - i);
      if (bd != 1 && (bd == io.tributary.graph.PartialShape.UNKNOWN || bd != md)) {
        return false;
      }
    }
    return true;
  }

  /** The ops not dropped, in order. */
  private static List<Op> kept(Op[] out, boolean[] dropped) {
    List<Op> result = new ArrayList<>();
    for (int i = 0; i < out.length; i++) {
      if (!dropped[i]) {
        result.add(out[i]);
      }
    }
    return result;
  }

  /**
   * Points each {@code sum_to_like} at {@code readers} to {@code value} for its shape: the fused
   * op's output, which has the shape of the value fused away.
   */
  private static void readShapeOf(Op[] out, List<Integer> readers, String value) {
    for (int r : readers) {
      Op sum = out[r];
      out[r] = new Op(sum.name(), sum.type(), List.of(sum.inputs().get(0), value), sum.outputs(),
          sum.args());
    }
  }

  /** The positions of the ops that read each value, in order (twice for an op reading it twice). */
  static Map<String, List<Integer>> readers(List<Op> ops) {
    Map<String, List<Integer>> r = new HashMap<>();
    for (int i = 0; i < ops.size(); i++) {
      for (String in : ops.get(i).inputs()) {
        r.computeIfAbsent(in, k -> new ArrayList<>()).add(i);
      }
    }
    return r;
  }

  private static boolean isFloat32(Graph graph, String name) {
    return graph.requireVariable(name).dtype() == DType.FLOAT32;
  }

  private static List<Op> fuseBiasRelu(Graph graph, List<Op> ops, Set<String> keep) {
    Map<String, List<Integer>> readers = readers(ops);
    Op[] out = ops.toArray(new Op[0]);
    boolean[] dropped = new boolean[out.length];
    for (int a = 0; a < out.length; a++) {
      Op add = out[a];
      if (!add.type().equals("add") || add.outputs().size() != 1) {
        continue;
      }
      String z = add.outputs().get(0);
      if (keep.contains(z) || !isFloat32(graph, z)) {
        continue;
      }
      int relu = -1;
      List<Integer> grads = new ArrayList<>();
      boolean other = false;
      for (int r : readers.getOrDefault(z, List.of())) {
        Op reader = out[r];
        if (reader.type().equals("relu") && relu < 0 && r > a) {
          relu = r;
        } else if (reader.type().equals("relu_grad") && reader.inputs().get(1).equals(z)
            && !reader.inputs().get(0).equals(z)) {
          grads.add(r);
        } else {
          other = true;
        }
      }
      int at = relu;
      if (other || relu < 0 || grads.stream().anyMatch(g -> g <= at)) {
        continue;
      }
      Op r = out[relu];
      String h = r.outputs().get(0);
      out[relu] = new Op(add.name() + "+" + r.name(), BIAS_RELU, add.inputs(), List.of(h),
          OpArgs.none());
      dropped[a] = true;
      for (int g : grads) {
        Op grad = out[g];
        out[g] = new Op(grad.name(), grad.type(), List.of(grad.inputs().get(0), h),
            grad.outputs(), grad.args());
      }
    }
    return kept(out, dropped);
  }

  private static List<Op> fuseConvBiasRelu(Graph graph, List<Op> ops, Set<String> keep) {
    Map<String, Integer> writer = new HashMap<>();
    for (int i = 0; i < ops.size(); i++) {
      for (String o : ops.get(i).outputs()) {
        writer.put(o, i);
      }
    }
    Map<String, List<Integer>> readers = readers(ops);
    Op[] out = ops.toArray(new Op[0]);
    boolean[] dropped = new boolean[out.length];
    for (int r = 0; r < out.length; r++) {
      Op biasRelu = out[r];
      if (!biasRelu.type().equals(BIAS_RELU)) {
        continue;
      }
      String y = biasRelu.inputs().get(0);
      Integer c = writer.get(y);
      // A bias of one value per channel: then h has y's shape (a wider one could broadcast y).
      if (c == null || c >= r || keep.contains(y) || !isFloat32(graph, y)
          || graph.requireVariable(biasRelu.inputs().get(1)).shape().rank() != 1) {
        continue;
      }
      Op conv = out[c];
      if (!conv.type().equals("conv2d") || conv.outputs().size() != 1
          || conv.inputs().size() != 2) {
        continue;
      }
      // Besides the bias_relu, only the add's gradient reads y, as sum_to_like's shape operand:
      // it reads h instead, computed by then.
      List<Integer> shapeReaders = new ArrayList<>();
      boolean other = false;
      for (int q : readers.get(y)) {
        Op reader = out[q];
        if (q == r) {
          continue;
        }
        if (q > r && reader.type().equals("sum_to_like") && reader.inputs().get(1).equals(y)
            && !reader.inputs().get(0).equals(y)) {
          shapeReaders.add(q);
        } else {
          other = true;
        }
      }
      if (other) {
        continue;
      }
      String h = biasRelu.outputs().get(0);
      out[r] = new Op(conv.name() + "+" + biasRelu.name(), CONV_BIAS_RELU,
          List.of(conv.inputs().get(0), conv.inputs().get(1), biasRelu.inputs().get(1)),
          biasRelu.outputs(), conv.args());
      dropped[c] = true;
      readShapeOf(out, shapeReaders, h);
    }
    return kept(out, dropped);
  }

  /** {@code relu(add(y, b))} in one pass where b repeats over y's rows. */
  private static final class BiasRelu extends FusedOp {
    static final BiasRelu INSTANCE = new BiasRelu();

    private BiasRelu() {
      super(BIAS_RELU, 2);
    }

    @Override
    public NdArray[] compute(Op op, NdArray[] in, NdArray[] previous, GemmKernel gemm) {
      NdArray y = in[0];
      NdArray b = in[1];
      NdArray reuse = NdArray.previous(previous, 0);
      if (y.dtype() != DType.FLOAT32 || b.dtype() != DType.FLOAT32
          || !Broadcast.isSuffix(b.shapeRef(), y.shapeRef())) {
        NdArray z = ArithmeticOp.apply(ArithmeticOp.Kind.ADD, y, b);
        return UnaryOp.relu().compute(op, new NdArray[] {z}, new NdArray[] {reuse});
      }
      float[] x = y.floats();
      float[] bias = b.floats();
      NdArray result = NdArray.reuseOrZeros(reuse, DType.FLOAT32, y.shapeRef());
      float[] r = result.floats();
      int w = bias.length;
      for (int base = 0; w > 0 && base < x.length; base += w) {
        for (int j = 0; j < w; j++) {
          r[base + j] = Math.max(x[base + j] + bias[j], 0f);
        }
      }
      return new NdArray[] {result};
    }
  }

  /** {@code add(matmul(a, w), b)}: the product, then b added to each of its rows in place. */
  private static final class MatMulBias extends FusedOp {
    static final MatMulBias INSTANCE = new MatMulBias();

    private MatMulBias() {
      super(MATMUL_BIAS, 3);
    }

    @Override
    public NdArray[] compute(Op op, NdArray[] in, NdArray[] previous, GemmKernel gemm) {
      NdArray b = in[2];
      boolean ta = op.args().getBool("transpose_a", false);
      boolean tb = op.args().getBool("transpose_b", false);
      NdArray reuse = NdArray.previous(previous, 0);
      if (in[0].dtype() != DType.FLOAT32 || b.dtype() != DType.FLOAT32) {
        NdArray m = MatMulOp.multiply(gemm, in[0], in[1], ta, tb, null);
        return new NdArray[] {ArithmeticOp.apply(ArithmeticOp.Kind.ADD, m, b, reuse)};
      }
      NdArray m = MatMulOp.multiply(gemm, in[0], in[1], ta, tb, reuse);
      if (!Broadcast.isSuffix(b.shapeRef(), m.shapeRef())) {
        // add's own kernel, on a product that is then no longer needed.
        return new NdArray[] {ArithmeticOp.apply(ArithmeticOp.Kind.ADD, m, b)};
      }
      // add's float32 row loop (ArithmeticOp), with the product as its first operand.
      float[] r = m.floats();
      float[] bias = b.floats();
      int w = bias.length;
      for (int base = 0; w > 0 && base < r.length; base += w) {
        for (int j = 0; j < w; j++) {
          r[base + j] = r[base + j] + bias[j];
        }
      }
      return new NdArray[] {m};
    }
  }
}
