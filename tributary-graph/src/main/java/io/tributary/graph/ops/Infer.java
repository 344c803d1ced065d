package io.tributary.graph.ops;

import io.tributary.graph.GraphProblem;
import io.tributary.graph.Op;
import io.tributary.graph.PartialShape;
import io.tributary.tensor.DType;
import java.util.Arrays;

/** Checks shared by the ops' type inference. */
final class Infer {
  private Infer() {}

  static boolean isFloat(DType t) {
    return t == DType.FLOAT32 || t == DType.FLOAT64;
  }

  static boolean isInt(DType t) {
    return t == DType.INT32 || t == DType.INT64;
  }

  static void requireFloat(ValueType t, String what) throws OpInferenceException {
    if (!isFloat(t.dtype())) {
      throw OpInferenceException.dtype(what + " must be float32 or float64, got " + t.dtype());
    }
  }

  static void requireInt(ValueType t, String what) throws OpInferenceException {
    if (!isInt(t.dtype())) {
      throw OpInferenceException.dtype(what + " must be int32 or int64, got " + t.dtype());
    }
  }

  static void requireSameDType(ValueType a, ValueType b, String what) throws OpInferenceException {
    if (a.dtype() != b.dtype()) {
      throw OpInferenceException.dtype(what + ": " + a.dtype() + " vs " + b.dtype());
    }
  }

  static void requireRank(ValueType t, int rank, String what) throws OpInferenceException {
    if (t.shape().rank() != rank) {
      throw OpInferenceException.shape(what + " must have rank " + rank + ", got " + t.shape());
    }
  }

  /** True when two known-or-unknown dimensions may be equal. */
  static boolean dimsAgree(long a, long b) {
    return a == PartialShape.UNKNOWN || b == PartialShape.UNKNOWN || a == b;
  }

  /** The known one of two agreeing dimensions. */
  static long merge(long a, long b) {
    return a == PartialShape.UNKNOWN ? b : a;
  }

  /** NumPy broadcasting of two partial shapes. */
  static PartialShape broadcast(PartialShape a, PartialShape b) throws OpInferenceException {
    int r = Math.max(a.rank(), b.rank());
    long[] out = new long[r];
    for (int i = 0; i < r; i++) {
      long da = i < r - a.rank() ? 1 : a.dim(i - (r - a.rank()));
      long db = i < r - b.rank() ? 1 : b.dim(i - (r - b.rank()));
      if (da == 1) {
        out[i] = db;
      } else if (db == 1) {
        out[i] = da;
      } else if (dimsAgree(da, db)) {
        out[i] = merge(da, db);
      } else {
        throw OpInferenceException.shape("shapes " + a + " and " + b + " do not broadcast");
      }
    }
    return PartialShape.of(out);
  }

  /** A possibly negative axis, normalized into [0, rank). */
  static int axis(long axis, int rank, String what) throws OpInferenceException {
    long a = axis < 0 ? axis + rank : axis;
    if (a < 0 || a >= rank) {
      throw OpInferenceException.arg(what + " " + axis + " is out of range for rank " + rank);
    }
    return (int) a;
  }

  /** The reduction axes of an op ({@code axes} argument, all when absent), sorted and distinct. */
  static int[] reductionAxes(Op op, int rank) throws OpInferenceException {
    long[] raw = intList(op, "axes");
    if (raw == null) {
      int[] all = new int[rank];
      for (int i = 0; i < rank; i++) {
        all[i] = i;
      }
      return all;
    }
    boolean[] seen = new boolean[rank];
    for (long a : raw) {
      int ax = axis(a, rank, "axis");
      if (seen[ax]) {
        throw OpInferenceException.arg("axis " + a + " repeated in " + Arrays.toString(raw));
      }
      seen[ax] = true;
    }
    int[] out = new int[raw.length];
    int k = 0;
    for (int i = 0; i < rank; i++) {
      if (seen[i]) {
        out[k++] = i;
      }
    }
    return out;
  }

  /** An integer list argument, or null; a malformed list is a bad argument. */
  static long[] intList(Op op, String name) throws OpInferenceException {
    try {
      return op.args().getIntList(name);
    } catch (IllegalArgumentException e) {
      throw new OpInferenceException(GraphProblem.Kind.BAD_ARGUMENT, e.getMessage());
    }
  }

  /** A non-negative int argument that fits an int. */
  static int positiveInt(Op op, String name, long fallback) throws OpInferenceException {
    long v = op.args().getInt(name, fallback);
    if (v < 1 || v > 1 << 20) {
      throw OpInferenceException.arg(name + " must be in [1, 2^20], got " + v);
    }
    return (int) v;
  }

  static int nonNegativeInt(Op op, String name, long fallback) throws OpInferenceException {
    long v = op.args().getInt(name, fallback);
    if (v < 0 || v > 1 << 20) {
      throw OpInferenceException.arg(name + " must be in [0, 2^20], got " + v);
    }
    return (int) v;
  }
}
