package io.tributary.tensor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ZerosTest {
  /** The scan written plainly: what nextNonZero must agree with. */
  private static int plain(float[] a, int from, int to) {
    for (int i = from; i < to; i++) {
      if (a[i] != 0f) {
        return i;
      }
    }
    return to;
  }

  private static final float[] NON_ZEROS = {1f, -1f, Float.MIN_VALUE, -Float.MIN_VALUE,
      Float.NaN, Float.intBitsToFloat(0xffc00001), Float.POSITIVE_INFINITY,
      Float.NEGATIVE_INFINITY, Float.MAX_VALUE};

  @ParameterizedTest
  @ValueSource(ints = {0, 1, 7, 8, 9, 15, 16, 17, 64, 1023})
  void nextNonZero_oneNonZeroAmongSignedZeros_itsIndexFromEveryStart(int length) {
    SplittableRandom random = new SplittableRandom(length);
    for (int at = 0; at <= length; at++) {
      float[] a = new float[length];
      for (int i = 0; i < length; i++) {
        a[i] = random.nextBoolean() ? -0f : 0f;
      }
      if (at < length) {
        a[at] = NON_ZEROS[random.nextInt(NON_ZEROS.length)];
      }
      for (int from = 0; from <= length; from++) {
        int to = from + random.nextInt(length - from + 1);
        assertThat(Zeros.nextNonZero(a, from, to)).as("length %d, non-zero at %d, [%d, %d)",
            length, at, from, to).isEqualTo(plain(a, from, to));
        assertThat(Zeros.nextNonZero(a, from, length)).isEqualTo(plain(a, from, length));
      }
    }
  }

  @Test
  void nextNonZero_walkedOverASparseArray_visitsEveryNonZeroInOrder() {
    SplittableRandom random = new SplittableRandom(7);
    float[] a = new float[4099];
    for (int i = 0; i < a.length; i++) {
      a[i] = random.nextInt(20) == 0 ? NON_ZEROS[random.nextInt(NON_ZEROS.length)]
          : random.nextBoolean() ? -0f : 0f;
    }
    StringBuilder walked = new StringBuilder();
    StringBuilder expected = new StringBuilder();
    for (int i = Zeros.nextNonZero(a, 0, a.length); i < a.length;
        i = Zeros.nextNonZero(a, i + 1, a.length)) {
      walked.append(i).append(' ');
    }
    for (int i = 0; i < a.length; i++) {
      if (a[i] != 0f) {
        expected.append(i).append(' ');
      }
    }
    assertThat(walked.toString()).isEqualTo(expected.toString()).isNotEmpty();
  }

  @Test
  void nextNonZero_rangeOutsideTheArray_throws() {
    assertThatThrownBy(() -> Zeros.nextNonZero(new float[8], 2, 9))
        .isInstanceOf(IndexOutOfBoundsException.class);
    assertThatThrownBy(() -> Zeros.nextNonZero(new float[8], 5, 4))
        .isInstanceOf(IndexOutOfBoundsException.class);
  }
}
