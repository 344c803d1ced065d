package io.tributary.tensor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class DifferenceTest {
  /** What the loan was told, in order. */
  private static final class Returns implements Tensor.Loan {
    final List<Boolean> told = new ArrayList<>();

    @Override
    public void returned(boolean restored) {
      told.add(restored);
    }
  }

  static float[] gaussians(int n, long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    float[] v = new float[n];
    for (int i = 0; i < n; i++) {
      v[i] = (float) rnd.nextGaussian();
    }
    return v;
  }

  /** {@code a - b} as an ordinary tensor, element by element. */
  private static Tensor subtracted(Shape shape, float[] a, float[] b) {
    float[] d = new float[(int) shape.size()];
    for (int i = 0; i < d.length; i++) {
      d[i] = a[i] - b[i];
    }
    return Tensor.ofFloats(shape, d);
  }

  private static byte[] bytes(Tensor t) {
    ByteBuffer out = ByteBuffer.allocate((int) t.byteSize()).order(ByteOrder.LITTLE_ENDIAN);
    for (ByteBuffer b : t.dataBuffers()) {
      out.put(b.duplicate());
    }
    return out.array();
  }

  @Test
  void difference_read_isTheFloatSubtractionInPiecesAndPutsTheSubtrahendBack() {
    int n = Difference.PIECE_BYTES / 4 * 2 + 5;
    float[] a = gaussians(n, 1);
    float[] b = gaussians(n, 2);
    a[3] = -0f;
    b[3] = 0f;
    float[] subtrahend = b.clone();
    Tensor want = subtracted(Shape.of(n), a, b);
    Returns loan = new Returns();
    Tensor got = Tensor.difference(Shape.of(n), a, b, loan);
    assertThat(got.isDeferred()).isTrue();
    assertThat(loan.told).isEmpty();

    assertThat(bytes(got)).isEqualTo(bytes(want));
    assertThat(got.isDeferred()).isFalse();
    assertThat(loan.told).containsExactly(true);
    assertThat(a).containsExactly(subtrahend);
    assertThat(got.dataBuffers()).hasSize(3)
        .allSatisfy(p -> assertThat(p.remaining()).isLessThanOrEqualTo(Difference.PIECE_BYTES));
    // Read again: the same bytes, the loan told once.
    assertThat(got.reshape(1, n).getFloat(7)).isEqualTo(want.getFloat(7));
    assertThat(loan.told).containsExactly(true);
  }

  @Test
  void difference_float64_isTheDoubleSubtraction() {
    double[] a = {1e300, -0.0, 0.1};
    double[] b = {-1e300, 0.0, 0.3};
    Tensor got = Tensor.difference(Shape.of(3), a.clone(), b, r -> { });
    assertThat(got.dtype()).isEqualTo(DType.FLOAT64);
    assertThat(got.getDouble(0)).isEqualTo(2e300);
    assertThat(Double.doubleToRawLongBits(got.getDouble(1)))
        .isEqualTo(Double.doubleToRawLongBits(-0.0 - 0.0));
    assertThat(got.getDouble(2)).isEqualTo(0.1 - 0.3);
  }

  @Test
  void discard_unread_returnsTheArraysAsTheyAreAndReadingThrows() {
    float[] a = {1f, 2f};
    float[] b = {0.5f, 0.5f};
    Returns loan = new Returns();
    Tensor t = Tensor.difference(Shape.of(2), a, b, loan);
    t.discard();
    assertThat(loan.told).containsExactly(false);
    assertThat(a).containsExactly(1f, 2f);
    assertThat(t.isDeferred()).isFalse();
    assertThatThrownBy(() -> t.getFloat(0)).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("discarded");
    t.materialize();
    t.discard();
    assertThat(loan.told).containsExactly(false);
  }

  @Test
  void discard_afterARead_keepsTheElements() {
    Tensor t = Tensor.difference(Shape.of(2), new float[] {3f, 4f}, new float[] {1f, 1f}, r -> { });
    t.materialize();
    t.discard();
    assertThat(t.toFloatArray()).containsExactly(2f, 3f);
  }

  @Test
  void difference_empty_isZerosWithTheLoanReturned() {
    Returns loan = new Returns();
    Tensor t = Tensor.difference(Shape.of(0, 4), new float[0], new float[0], loan);
    assertThat(t.size()).isZero();
    assertThat(t.isDeferred()).isFalse();
    assertThat(loan.told).containsExactly(true);
  }

  @Test
  void difference_arraysTooShort_isRefused() {
    assertThatThrownBy(() -> Tensor.difference(Shape.of(3), new float[2], new float[3], r -> { }))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("needs 3");
  }

  @Test
  void addScaled_deferredAmongOrdinary_addsTheSameBitsWithoutMakingIt() {
    int n = 10_000;
    Shape shape = Shape.of(n);
    float[] a = gaussians(n, 3);
    float[] b = gaussians(n, 4);
    Tensor plain = Tensor.ofFloats(shape, gaussians(n, 5));
    Returns loan = new Returns();
    Tensor deferred = Tensor.difference(shape, a, b, loan);
    Tensor made = subtracted(shape, a, b);
    double[] w = {0.7, 3.0, 1e-3};
    for (int from : new int[] {0, 4_000}) {
      double[] want = new double[n - from];
      double[] got = new double[n - from];
      TensorMath.addScaled(List.of(plain, made, plain), w, want, from);
      TensorMath.addScaled(List.of(plain, deferred, plain), w, got, from);
      for (int i = 0; i < want.length; i++) {
        assertThat(Double.doubleToRawLongBits(got[i]))
            .isEqualTo(Double.doubleToRawLongBits(want[i]));
      }
    }
    assertThat(deferred.isDeferred()).isTrue();
    assertThat(loan.told).isEmpty();
  }

  @Test
  void firstNonFinite_deferredDifferenceThatOverflows_findsItWithoutMakingIt() {
    float[] a = new float[5_000];
    float[] b = new float[5_000];
    a[4_321] = 3e38f;
    b[4_321] = -3e38f;
    Tensor t = Tensor.difference(Shape.of(5_000), a, b, r -> { });
    assertThat(Finite.firstNonFinite(t)).isEqualTo(4_321);
    assertThat(t.isDeferred()).isTrue();
    a[4_321] = 0f;
    assertThat(Finite.isFinite(t)).isTrue();
    // The message reads the element, which makes the tensor.
    a[10] = Float.NaN;
    assertThat(Finite.problem(List.of(t), null)).hasValueSatisfying(
        p -> assertThat(p).contains("NaN at element 10"));
  }

  @Test
  void firstNonFinite_subtrahendWithinHalfRange_stillFindsAMinuendThatOverflowsIt() {
    float[] b = new float[3_000];
    b[2_500] = -1e38f;
    assertThat(Finite.withinHalfRange(b, b.length)).isTrue();
    float[] a = new float[3_000];
    a[2_500] = 3e38f;
    Tensor overflows = Tensor.difference(Shape.of(3_000), a, b, true, r -> { });
    assertThat(Finite.firstNonFinite(overflows)).isEqualTo(2_500);
    b[2_500] = 1e38f;
    Tensor fits = Tensor.difference(Shape.of(3_000), a, b, true, r -> { });
    assertThat(Finite.firstNonFinite(fits)).isEqualTo(-1);
    a[2_500] = Float.NaN;
    assertThat(Finite.firstNonFinite(fits)).isEqualTo(2_500);
  }

  @Test
  void withinHalfRange_largestBelowTwoTo127_isInsideAndTwoTo127IsNot() {
    float below = Math.nextDown(0x1p127f);
    assertThat(Finite.withinHalfRange(new float[] {-below, below, 0f, -0f}, 4)).isTrue();
    assertThat(below - -below).isEqualTo(Float.MAX_VALUE);
    assertThat(Finite.withinHalfRange(new float[] {1f, -0x1p127f}, 2)).isFalse();
    assertThat(Finite.withinHalfRange(new float[] {Float.NaN}, 1)).isFalse();
    assertThat(Finite.withinHalfRange(new float[] {Float.NaN}, 0)).isTrue();
    double belowD = Math.nextDown(0x1p1023);
    assertThat(Finite.withinHalfRange(new double[] {belowD, -belowD}, 2)).isTrue();
    assertThat(belowD - -belowD).isEqualTo(Double.MAX_VALUE);
    assertThat(Finite.withinHalfRange(new double[] {0x1p1023}, 1)).isFalse();
    assertThat(Finite.withinHalfRange(new double[] {Double.NEGATIVE_INFINITY}, 1)).isFalse();
  }

  @Test
  void materialize_whileAReaderHoldsTheArrays_returnsTheLoanOnlyOnceReleased() {
    float[] a = {5f, 6f};
    Returns loan = new Returns();
    Tensor t = Tensor.difference(Shape.of(2), a, new float[] {1f, 1f}, loan);
    Difference held = t.pinnedDifference();
    assertThat(held).isNotNull();
    t.materialize();
    assertThat(loan.told).isEmpty();
    // Not put back while held: the reader reads the minuend as it is.
    assertThat(a).containsExactly(5f, 6f);
    assertThat(t.pinnedDifference()).isNull();
    held.unpin();
    assertThat(loan.told).containsExactly(false);
    assertThat(t.toFloatArray()).containsExactly(4f, 5f);
  }

  @Test
  void pinnedDifference_ofASliceNotAtTheStart_isNull() {
    Tensor t = Tensor.difference(Shape.of(4), new float[4], new float[4], r -> { });
    assertThat(t.slice(0, 1, 3).pinnedDifference()).isNull();
    Difference whole = t.reshape(2, 2).pinnedDifference();
    assertThat(whole).isNotNull();
    whole.unpin();
  }

  /** {@code acc += w * t} over {@code acc}'s slices in order, as a sum kept in pieces does. */
  private static double[] sumInSlices(List<Tensor> ts, double[] w, int n, int slice,
      int first) {
    double[] out = new double[n];
    for (int from = first; from < n; from += slice) {
      double[] acc = new double[Math.min(slice, n - from)];
      TensorMath.addScaled(ts, w, acc, from);
      System.arraycopy(acc, 0, out, from, acc.length);
    }
    return out;
  }

  private static void assertSameBits(double[] got, double[] want) {
    assertThat(got).hasSameSizeAs(want);
    for (int i = 0; i < want.length; i++) {
      assertThat(Double.doubleToRawLongBits(got[i])).as("element %d", i)
          .isEqualTo(Double.doubleToRawLongBits(want[i]));
    }
  }

  @Test
  void addScaled_lastRead_addsTheSameBitsAndGivesTheStartBackAsItReads() {
    int n = 10_003;
    Shape shape = Shape.of(n);
    float[] a1 = gaussians(n, 6);
    float[] a2 = gaussians(n, 7);
    float[] b = gaussians(n, 8);
    float[] start = b.clone();
    Tensor plain = Tensor.ofFloats(shape, gaussians(n, 9));
    double[] w = {0.25, 3.0, 1e-3};
    double[] want = sumInSlices(List.of(subtracted(shape, a1, b), plain,
        subtracted(shape, a2, b)), w, n, 4_096, 0);
    Returns loan1 = new Returns();
    Returns loan2 = new Returns();
    Tensor d1 = Tensor.difference(shape, a1, b, true, loan1);
    Tensor d2 = Tensor.difference(shape, a2, b, true, loan2);
    d1.markLastRead();
    d2.markLastRead();

    double[] first = new double[4_096];
    TensorMath.addScaled(List.of(d1, plain, d2), w, first, 0);
    // Part way: the slice read is the start again, the rest still the trained elements.
    assertThat(a1[4_095]).isEqualTo(start[4_095]);
    assertThat(a1[4_096]).isNotEqualTo(start[4_096]);
    assertThat(loan1.told).isEmpty();
    assertThatThrownBy(() -> Finite.firstNonFinite(d1)).isInstanceOf(IllegalStateException.class);

    // The first slice again: its elements are given back.
    assertThatThrownBy(() -> TensorMath.addScaled(List.of(d1), new double[] {1}, new double[1],
        0)).isInstanceOf(IllegalStateException.class);
    double[] got = sumInSlices(List.of(d1, plain, d2), w, n, 4_096, 4_096);
    System.arraycopy(first, 0, got, 0, first.length);
    assertSameBits(got, want);
    assertThat(a1).containsExactly(start);
    assertThat(a2).containsExactly(start);
    assertThat(b).containsExactly(start);
    assertThat(loan1.told).containsExactly(true);
    assertThat(loan2.told).containsExactly(true);
    assertThat(d1.isDeferred()).isFalse();
    assertThatThrownBy(d1::dataBuffers).isInstanceOf(IllegalStateException.class);
    d1.discard();
    assertThat(loan1.told).containsExactly(true);
  }

  @Test
  void addScaled_lastReadSaidTwice_readsWithoutGivingBack() {
    float[] a = {1.5f, -2f, 7f};
    float[] b = {0.5f, 1f, 2f};
    Returns loan = new Returns();
    Tensor d = Tensor.difference(Shape.of(3), a, b, loan);
    d.markLastRead();
    d.reshape(3, 1).markLastRead();
    double[] acc = new double[3];
    TensorMath.addScaled(List.of(d), new double[] {2.0}, acc, 0);
    assertThat(acc).containsExactly(2.0, -6.0, 10.0);
    assertThat(a).containsExactly(1.5f, -2f, 7f);
    assertThat(loan.told).isEmpty();
    // The other reader still reads the elements.
    assertThat(d.toFloatArray()).containsExactly(1f, -3f, 5f);
    assertThat(loan.told).containsExactly(true);
  }

  @Test
  void addScaled_lastReadTwiceInOneSum_isRefusedBeforeReading() {
    float[] a = {1.5f, -2f};
    float[] b = {0.5f, 1f};
    Tensor d = Tensor.difference(Shape.of(2), a, b, r -> { });
    d.markLastRead();
    double[] acc = new double[2];
    assertThatThrownBy(() -> TensorMath.addScaled(List.of(d, d), new double[] {1, 1}, acc, 0))
        .isInstanceOf(IllegalStateException.class);
    assertThat(acc).containsExactly(0.0, 0.0);
  }

  @Test
  void discard_afterALastReadOfPart_returnsTheArraysUnrestored() {
    float[] a = {1.5f, -2f, 7f, 9f};
    float[] b = {0.5f, 1f, 2f, 3f};
    Returns loan = new Returns();
    Tensor d = Tensor.difference(Shape.of(4), a, b, loan);
    d.markLastRead();
    double[] acc = new double[2];
    TensorMath.addScaled(List.of(d), new double[] {1.0}, acc, 0);
    assertThat(acc).containsExactly(1.0, -3.0);
    assertThat(a).containsExactly(0.5f, 1f, 7f, 9f);
    assertThatThrownBy(d::materialize).isInstanceOf(IllegalStateException.class);
    d.discard();
    assertThat(loan.told).containsExactly(false);
  }

  @Test
  void addScaled_lastReadFloat64_addsTheSameBitsAndGivesTheStartBack() {
    double[] a = {1e300, -0.0, 0.1, 5};
    double[] b = {-1e300, 0.0, 0.3, 5};
    double[] want = new double[4];
    TensorMath.addScaled(List.of(Tensor.difference(Shape.of(4), a.clone(), b, r -> { })),
        new double[] {0.5}, want, 0);
    Returns loan = new Returns();
    Tensor d = Tensor.difference(Shape.of(4), a, b, loan);
    d.markLastRead();
    double[] got = new double[4];
    TensorMath.addScaled(List.of(d), new double[] {0.5}, got, 0);
    assertSameBits(got, want);
    assertThat(a).containsExactly(b);
    assertThat(loan.told).containsExactly(true);
  }
}
