package io.tributary.graph.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.graph.ops.NdArray;
import io.tributary.tensor.DType;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.util.Arrays;
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

  @Test
  void difference_pastSeveralPieces_isTheInPlaceSubtractionsBytesInPiecesBelowHumongous() {
    // 1,000,000 parameters, the size whose 4 MB delta was one humongous object per client.
    SplittableRandom rnd = new SplittableRandom(11);
    int[] shape = {99_999, 10};
    float[] a = new float[99_999 * 10];
    float[] b = new float[a.length];
    for (int i = 0; i < a.length; i++) {
      b[i] = (float) rnd.nextGaussian();
      a[i] = i % 7 == 0 ? b[i] : b[i] + (float) (rnd.nextGaussian() * 1e-3);
    }
    a[a.length - 1] = Float.MIN_VALUE;
    b[a.length - 1] = -0f;
    NdArray start = NdArray.wrapFloats(shape, b.clone());
    byte[] want = bytes(subtractedThenCopied(NdArray.wrapFloats(shape, a), start));
    NdArray trained = NdArray.wrapFloats(shape, a.clone());
    Tensor got = Deltas.difference(trained, start, true);
    assertThat(got.shape()).isEqualTo(Shape.of(99_999, 10));
    // Arrays.equals, not containsExactly: a million elements, compared bit for bit.
    assertThat(Arrays.equals(bytes(got), want)).isTrue();
    assertThat(Arrays.equals(trained.floats(), b)).isTrue();
    assertThat(got.dataBuffers()).hasSize((a.length * 4 + Deltas.PIECE_BYTES - 1)
        / Deltas.PIECE_BYTES);
    assertThat(got.dataBuffers()).allSatisfy(
        piece -> assertThat(piece.remaining()).isLessThanOrEqualTo(Deltas.PIECE_BYTES));
    assertThat(Deltas.PIECE_BYTES).isLessThan(512 << 10);
    double[] da = new double[Deltas.PIECE_BYTES / 8 * 2 + 3];
    double[] db = new double[da.length];
    for (int i = 0; i < da.length; i++) {
      da[i] = rnd.nextGaussian();
      db[i] = rnd.nextGaussian();
    }
    NdArray dStart = NdArray.wrapDoubles(new int[] {da.length}, db);
    byte[] wantD = bytes(subtractedThenCopied(NdArray.wrapDoubles(new int[] {da.length}, da),
        dStart));
    Tensor gotD = Deltas.difference(NdArray.wrapDoubles(new int[] {da.length}, da.clone()),
        dStart, false);
    assertThat(Arrays.equals(bytes(gotD), wantD)).isTrue();
    assertThat(gotD.dataBuffers()).hasSize(3);
  }

  @Test
  void difference_empty_isAnEmptyTensorOfTheShape() {
    NdArray none = NdArray.wrapFloats(new int[] {0, 10}, new float[0]);
    Tensor got = Deltas.difference(none, NdArray.wrapFloats(new int[] {0, 10}, new float[0]), true);
    assertThat(got.shape()).isEqualTo(Shape.of(0, 10));
    assertThat(got.size()).isZero();
  }

  private static byte[] bytes(Tensor t) {
    byte[] out = new byte[Math.toIntExact(t.size() * t.dtype().itemSize())];
    t.copyBytes(0, out, 0, out.length);
    return out;
  }
}
