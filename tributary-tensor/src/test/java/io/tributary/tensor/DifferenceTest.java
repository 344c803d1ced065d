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

  private static float[] gaussians(int n, long seed) {
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
}
