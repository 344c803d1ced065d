package io.tributary.graph.ops;

import java.util.Arrays;

/** Run-time broadcasting: output shapes and the strides that map output indices to inputs. */
final class Broadcast {
  private Broadcast() {}

  static int[] shape(int[] a, int[] b) {
    int r = Math.max(a.length, b.length);
    int[] out = new int[r];
    for (int i = 0; i < r; i++) {
      int da = i < r - a.length ? 1 : a[i - (r - a.length)];
      int db = i < r - b.length ? 1 : b[i - (r - b.length)];
      if (da != db && da != 1 && db != 1) {
        throw new IllegalArgumentException(
            "shapes " + Arrays.toString(a) + " and " + Arrays.toString(b) + " do not broadcast");
      }
      out[i] = da == 1 ? db : da;
    }
    return out;
  }

  /** Strides of {@code in} (row-major) aligned to {@code out}, zero on broadcast axes. */
  static int[] strides(int[] in, int[] out) {
    int r = out.length;
    int[] s = new int[r];
    int stride = 1;
    for (int i = r - 1; i >= 0; i--) {
      int k = i - (r - in.length);
      if (k < 0) {
        s[i] = 0;
      } else {
        s[i] = in[k] == 1 && out[i] != 1 ? 0 : stride;
        stride *= in[k];
      }
    }
    return s;
  }

  /**
   * For every output index in row-major order, the matching flat index into an input with the given
   * aligned strides.
   */
  static int[] indexMap(int[] outShape, int[] strides) {
    int n = NdArray.sizeOf(outShape);
    int[] map = new int[n];
    int r = outShape.length;
    int[] idx = new int[r];
    int at = 0;
    for (int i = 0; i < n; i++) {
      map[i] = at;
      for (int ax = r - 1; ax >= 0; ax--) {
        idx[ax]++;
        at += strides[ax];
        if (idx[ax] < outShape[ax]) {
          break;
        }
        at -= strides[ax] * outShape[ax];
        idx[ax] = 0;
      }
    }
    return map;
  }

  /** True when {@code small} equals the trailing axes of {@code big} (a bias added to rows, say). */
  static boolean isSuffix(int[] small, int[] big) {
    if (small.length > big.length) {
      return false;
    }
    for (int i = 0; i < small.length; i++) {
      if (small[i] != big[big.length - small.length + i]) {
        return false;
      }
    }
    return true;
  }
}
