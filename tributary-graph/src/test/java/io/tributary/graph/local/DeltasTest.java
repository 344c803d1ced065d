package io.tributary.graph.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.graph.ops.NdArray;
import io.tributary.tensor.DType;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class DeltasTest {
  /** The delta as it was taken before: subtracted in place, then copied out. */
  private static Tensor subtractedThenCopied(NdArray trained, NdArray start) {
    NdArray w = trained.copy();
    for (int i = 0; i < w.size(); i++) {
      if (w.dtype() == DType.FLOAT32) {
        w.floats()[i] -= start.floats()[i];
      } else if (w.dtype() == DType.FLOAT64) {
        w.doubles()[i] -= start.doubles()[i];
      } else {
        w.set(i, w.get(i) - start.get(i));
      }
    }
    return w.toTensor();
  }

  @Test
  void difference_float32PastSeveralChunks_isTheInPlaceSubtractionsBytes() {
    SplittableRandom rnd = new SplittableRandom(3);
    int[] shape = {1_001, 7};
    float[] a = new float[1_001 * 7];
    float[] b = new float[a.length];
    for (int i = 0; i < a.length; i++) {
      a[i] = (float) rnd.nextGaussian();
      b[i] = i % 5 == 0 ? a[i] : (float) rnd.nextGaussian();
    }
    a[3] = -0f;
    b[3] = 0f;
    NdArray trained = NdArray.wrapFloats(shape, a);
    NdArray start = NdArray.wrapFloats(shape, b.clone());
    Tensor want = subtractedThenCopied(trained, start);
    Tensor got = Deltas.difference(trained, start, false);
    assertThat(got.shape()).isEqualTo(Shape.of(1_001, 7));
    assertThat(got.dtype()).isEqualTo(DType.FLOAT32);
    assertThat(bytes(got)).isEqualTo(bytes(want));
    assertThat(start.floats()).containsExactly(b);
  }

  @Test
  void difference_float64AndInt64_isTheInPlaceSubtractionsBytes() {
    NdArray trained = NdArray.wrapDoubles(new int[] {3}, new double[] {1e300, -0.0, 0.1});
    NdArray start = NdArray.wrapDoubles(new int[] {3}, new double[] {-1e300, 0.0, 0.3});
    byte[] want = bytes(subtractedThenCopied(trained, start));
    assertThat(bytes(Deltas.difference(trained, start, false))).isEqualTo(want);
    NdArray ints = NdArray.wrapLongs(DType.INT64, new int[] {2}, new long[] {5, -7});
    NdArray intsStart = NdArray.wrapLongs(DType.INT64, new int[] {2}, new long[] {2, 3});
    byte[] wantInts = bytes(subtractedThenCopied(ints, intsStart));
    assertThat(bytes(Deltas.difference(ints, intsStart, true))).isEqualTo(wantInts);
    assertThat(ints.longs()).containsExactly(2, 3);
  }

  @Test
  void difference_restoring_givesTheSameBytesAndPutsTheStartBack() {
    float[] a = new float[5_000];
    float[] b = new float[5_000];
    for (int i = 0; i < a.length; i++) {
      a[i] = i * 0.37f;
      b[i] = i * 0.11f - 3f;
    }
    NdArray start = NdArray.wrapFloats(new int[] {5_000}, b);
    byte[] want = bytes(subtractedThenCopied(NdArray.wrapFloats(new int[] {5_000}, a), start));
    NdArray trained = NdArray.wrapFloats(new int[] {5_000}, a.clone());
    assertThat(bytes(Deltas.difference(trained, start, true))).isEqualTo(want);
    assertThat(trained.floats()).containsExactly(b);
    NdArray doubles = NdArray.wrapDoubles(new int[] {2}, new double[] {4.5, -1});
    NdArray doublesStart = NdArray.wrapDoubles(new int[] {2}, new double[] {0.5, 2});
    Deltas.difference(doubles, doublesStart, true);
    assertThat(doubles.doubles()).containsExactly(0.5, 2);
  }

  private static byte[] bytes(Tensor t) {
    byte[] out = new byte[Math.toIntExact(t.size() * t.dtype().itemSize())];
    t.copyBytes(0, out, 0, out.length);
    return out;
  }
}
