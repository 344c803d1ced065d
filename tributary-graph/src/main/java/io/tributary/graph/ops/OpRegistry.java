package io.tributary.graph.ops;

import java.util.Collections;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The op types Tributary knows, by name. Immutable: a graph read from a file can only name these.
 */
public final class OpRegistry {
  private static final OpRegistry STANDARD = new OpRegistry();

  private final Map<String, OpDef> defs;

  private OpRegistry() {
    Map<String, OpDef> m = new TreeMap<>();
    for (OpDef d : new OpDef[] {
        new MatMulOp(),
        new ArithmeticOp("add", ArithmeticOp.Kind.ADD),
        new ArithmeticOp("sub", ArithmeticOp.Kind.SUB),
        new ArithmeticOp("mul", ArithmeticOp.Kind.MUL),
        new ArithmeticOp("div", ArithmeticOp.Kind.DIV),
        new SumToLikeOp(),
        UnaryOp.relu(),
        UnaryOp.sigmoid(),
        new UnaryOp("tanh", Math::tanh),
        new UnaryOp("neg", v -> -v),
        new UnaryOp("exp", Math::exp),
        new UnaryOp("log", Math::log),
        new UnaryOp("square", v -> v * v),
        new ScaleOp(),
        new FillLikeOp("ones_like", 1.0),
        new FillLikeOp("zeros_like", 0.0),
        new ActivationGradOp("relu_grad", ActivationGradOp.Kind.RELU),
        new ActivationGradOp("sigmoid_grad", ActivationGradOp.Kind.SIGMOID),
        new ActivationGradOp("tanh_grad", ActivationGradOp.Kind.TANH),
        new SoftmaxOp("softmax", SoftmaxOp.Kind.SOFTMAX),
        new SoftmaxOp("log_softmax", SoftmaxOp.Kind.LOG_SOFTMAX),
        new SoftmaxOp("softmax_grad", SoftmaxOp.Kind.SOFTMAX_GRAD),
        new SoftmaxOp("log_softmax_grad", SoftmaxOp.Kind.LOG_SOFTMAX_GRAD),
        new CrossEntropyOp("sparse_softmax_cross_entropy", CrossEntropyOp.Kind.SPARSE),
        new CrossEntropyOp("softmax_cross_entropy", CrossEntropyOp.Kind.DENSE),
        new CrossEntropyOp("sparse_softmax_cross_entropy_grad", CrossEntropyOp.Kind.SPARSE_GRAD),
        new CrossEntropyOp("softmax_cross_entropy_grad", CrossEntropyOp.Kind.DENSE_GRAD),
        new CrossEntropyOp("softmax_cross_entropy_labels_grad", CrossEntropyOp.Kind.LABELS_GRAD),
        new ReduceOp("reduce_sum", ReduceOp.Kind.SUM),
        new ReduceOp("reduce_mean", ReduceOp.Kind.MEAN),
        new ReduceOp("reduce_max", ReduceOp.Kind.MAX),
        new ReduceOp("unreduce", ReduceOp.Kind.UNREDUCE),
        new ReduceOp("reduce_max_grad", ReduceOp.Kind.MAX_GRAD),
        new ReshapeOp("reshape", ReshapeOp.Kind.RESHAPE),
        new ReshapeOp("flatten", ReshapeOp.Kind.FLATTEN),
        new ReshapeOp("reshape_like", ReshapeOp.Kind.RESHAPE_LIKE),
        new TransposeOp(),
        new ConcatOp("concat", false),
        new ConcatOp("split_like", true),
        new Conv2dOp("conv2d", Conv2dOp.Kind.FORWARD),
        new Conv2dOp("conv2d_input_grad", Conv2dOp.Kind.INPUT_GRAD),
        new Conv2dOp("conv2d_filter_grad", Conv2dOp.Kind.FILTER_GRAD),
        new MaxPoolOp("max_pool", false),
        new MaxPoolOp("max_pool_grad", true),
        new ArgMaxOp(),
        new AccuracyOp()}) {
      m.put(d.type(), d);
    }
    this.defs = Collections.unmodifiableMap(m);
  }

  /** The registry of every built-in op. */
  public static OpRegistry standard() {
    return STANDARD;
  }

  /** The definition of {@code type}, if known. */
  public Optional<OpDef> find(String type) {
    return Optional.ofNullable(defs.get(type));
  }

  /** Every known op type, sorted. */
  public java.util.Set<String> types() {
    return defs.keySet();
  }
}
