package io.tributary.learning;

import io.tributary.core.computation.Computation;
import io.tributary.core.types.FunctionType;
import io.tributary.core.types.StructType;
import io.tributary.core.types.TensorType;
import io.tributary.core.types.Type;
import io.tributary.tensor.DType;

/**
 * The checked shape of a client computation {@code (<model=M,data=D> -> R)}: its model type M and
 * client data type D.
 */
record ClientWork(StructType model, Type data) {
  private static final TensorType INT64 = TensorType.of(DType.INT64);
  private static final TensorType FLOAT32 = TensorType.of(DType.FLOAT32);

  /**
   * Checks {@code (<model=M,data=D> -> <delta=M,num_examples=int64,loss=float32>)}, or the same
   * with a fourth element {@code loss_weight=float32}, and then perhaps a fifth, {@code
   * norm_bit=int64} (1 when the client's update was within its clipping norm: what client-side
   * adaptive clipping counts).
   */
  static ClientWork update(Computation c) {
    ClientWork w = parameter("client update", c.type());
    String want = "<delta=" + w.model + ",num_examples=int64,loss=float32> or <delta="
        + w.model + ",num_examples=int64,loss=float32,loss_weight=float32[,norm_bit=int64]>";
    if (!(c.type().result() instanceof StructType r) || r.size() < 3 || r.size() > 5
        || r.indexOf("delta") != 0 || !r.get(0).equals(w.model)
        || r.indexOf("num_examples") != 1 || !r.get(1).equals(INT64)
        || r.indexOf("loss") != 2 || !r.get(2).equals(FLOAT32)
        || r.size() >= 4 && (r.indexOf("loss_weight") != 3 || !r.get(3).equals(FLOAT32))
        || r.size() == 5 && (r.indexOf("norm_bit") != 4 || !r.get(4).equals(INT64))) {
      throw new IllegalArgumentException("the client update must return " + want + ", but "
          + c.type() + " returns " + c.type().result());
    }
    return w;
  }

  /** Whether a checked client update carries {@code loss_weight}. */
  static boolean weighsLoss(Computation checkedUpdate) {
    return ((StructType) checkedUpdate.type().result()).size() >= 4;
  }

  /** Whether a checked client update carries {@code norm_bit}. */
  static boolean reportsNormBit(Computation checkedUpdate) {
    return ((StructType) checkedUpdate.type().result()).size() == 5;
  }

  /** Checks {@code (<model=M,data=D> -> <...,num_examples=int64,...>)}, other elements floating. */
  static ClientWork evaluation(Computation c) {
    ClientWork w = parameter("evaluation", c.type());
    if (!(c.type().result() instanceof StructType r) || r.indexOf("num_examples") < 0
        || !r.get(r.indexOf("num_examples")).equals(INT64)) {
      throw new IllegalArgumentException("the evaluation must return a struct with "
          + "num_examples=int64, but " + c.type() + " returns " + c.type().result());
    }
    for (StructType.Element e : r.elements()) {
      boolean ok = e.name().isPresent() && (e.name().get().equals("num_examples")
          || e.type() instanceof TensorType t && t.isFullyDefined() && t.dtype().isFloating());
      if (!ok) {
        throw new IllegalArgumentException("every element of the evaluation's result but "
            + "num_examples is averaged, so it must be a named floating tensor; got " + e);
      }
    }
    return w;
  }

  private static ClientWork parameter(String what, FunctionType type) {
    if (type.parameter().orElse(null) instanceof StructType p && p.size() == 2
        && p.indexOf("model") == 0 && p.get(0) instanceof StructType m
        && p.indexOf("data") == 1) {
      return new ClientWork(m, p.get(1));
    }
    throw new IllegalArgumentException("the " + what + " must take <model=M,data=D> with M a "
        + "struct, but has type " + type);
  }
}
