package io.tributary.graph.ops;

import io.tributary.graph.Op;
import io.tributary.graph.PartialShape;
import java.util.Arrays;
import java.util.List;

/**
 * Shape changes that keep the elements in order: {@code reshape(x; shape)} (one entry may be -1),
 * {@code flatten(x)} ([N, ...] to [N, rest]), and {@code reshape_like(g, x)} (g takes x's shape; the
 * gradient of both).
 */
final class ReshapeOp extends BaseOp {
  enum Kind {
    RESHAPE, FLATTEN, RESHAPE_LIKE
  }

  private final Kind kind;

  ReshapeOp(String type, Kind kind) {
    super(type, kind == Kind.RESHAPE_LIKE ? 2 : 1, kind == Kind.RESHAPE ? new String[] {"shape"}
        : new String[0]);
    this.kind = kind;
  }

  @Override
  public List<ValueType> infer(Op op, List<ValueType> in) throws OpInferenceException {
    ValueType x = in.get(0);
    if (!NdArray.supports(x.dtype())) {
      throw OpInferenceException.dtype("input 0 has unsupported dtype " + x.dtype());
    }
    long size = x.shape().knownSize();
    switch (kind) {
      case RESHAPE_LIKE -> {
        ValueType like = in.get(1);
        long want = like.shape().knownSize();
        if (size != PartialShape.UNKNOWN && want != PartialShape.UNKNOWN && size != want) {
          throw OpInferenceException.shape("cannot reshape " + x.shape() + " like " + like.shape());
        }
        return List.of(new ValueType(x.dtype(), like.shape()));
      }
      case FLATTEN -> {
        if (x.shape().rank() < 1) {
          throw OpInferenceException.shape("flatten needs rank >= 1, got a scalar");
        }
        long rest = 1;
        for (int i = 1; i < x.shape().rank(); i++) {
          long d = x.shape().dim(i);
          rest = rest == PartialShape.UNKNOWN || d == PartialShape.UNKNOWN ? PartialShape.UNKNOWN
              : Math.multiplyExact(rest, d);
        }
        return List.of(new ValueType(x.dtype(), PartialShape.of(x.shape().dim(0), rest)));
      }
      default -> {
        long[] target = Infer.intList(op, "shape");
        int free = -1;
        long known = 1;
        for (int i = 0; i < target.length; i++) {
          if (target[i] == -1) {
            if (free >= 0) {
              throw OpInferenceException.arg("shape " + Arrays.toString(target) + " has two -1 entries");
            }
            free = i;
          } else if (target[i] < 0) {
            throw OpInferenceException.arg("shape " + Arrays.toString(target) + " has a negative entry");
          } else {
            known = Math.multiplyExact(known, target[i]);
          }
        }
        long[] out = target.clone();
        if (free >= 0) {
          if (size != PartialShape.UNKNOWN) {
            if (known == 0 || size % known != 0) {
              throw OpInferenceException.shape("cannot reshape " + x.shape() + " to "
                  + Arrays.toString(target));
            }
            out[free] = size / known;
          }
        } else if (size != PartialShape.UNKNOWN && size != known) {
          throw OpInferenceException.shape("cannot reshape " + x.shape() + " (" + size
              + " elements) to " + Arrays.toString(target));
        }
        return List.of(new ValueType(x.dtype(), PartialShape.of(out)));
      }
    }
  }

  @Override
  public NdArray[] compute(Op op, NdArray[] in) {
    NdArray x = in[0];
    int[] target;
    switch (kind) {
      case RESHAPE_LIKE -> target = in[1].shapeRef();
      case FLATTEN -> target = new int[] {x.dim(0), x.dim(0) == 0 ? restOf(x) : x.size() / x.dim(0)};
      default -> {
        long[] t = op.args().getIntList("shape");
        target = new int[t.length];
        int free = -1;
        long known = 1;
        for (int i = 0; i < t.length; i++) {
          if (t[i] == -1) {
            free = i;
          } else {
            target[i] = Math.toIntExact(t[i]);
            known *= t[i];
          }
        }
        if (free >= 0) {
          if (known == 0 || x.size() % known != 0) {
            throw new IllegalArgumentException("cannot reshape " + x + " to " + Arrays.toString(t));
          }
          target[free] = (int) (x.size() / known);
        }
      }
    }
    if (NdArray.sizeOf(target) != x.size()) {
      throw new IllegalArgumentException("cannot reshape " + x + " to " + Arrays.toString(target));
    }
    return new NdArray[] {x.copy().reshape(target)};
  }

  private static int restOf(NdArray x) {
    int n = 1;
    for (int i = 1; i < x.rank(); i++) {
      n *= x.dim(i);
    }
    return n;
  }
}
