package io.tributary.graph.ops;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ArgMaxOpTest {
  static Stream<Arguments> rows() {
    float nan = Float.NaN;
    return Stream.of(
        Arguments.of(new float[] {1, 3, 2}, 1L),
        Arguments.of(new float[] {5, 5, 1}, 0L),
        Arguments.of(new float[] {-3, -1, -2}, 1L),
        Arguments.of(new float[] {nan, 2, 1}, 0L),
        Arguments.of(new float[] {1, nan, 2}, 2L),
        Arguments.of(new float[] {-0f, 0f, -1}, 0L),
        Arguments.of(new float[] {Float.NEGATIVE_INFINITY, Float.NEGATIVE_INFINITY}, 0L),
        Arguments.of(new float[] {7}, 0L));
  }

  @ParameterizedTest
  @MethodSource("rows")
  void argmax_float32Row_firstLargestAsTheFloat64LoopFinds(float[] row, long expected) {
    double[] wide = new double[row.length];
    for (int i = 0; i < row.length; i++) {
      wide[i] = row[i];
    }

    long[] narrow = ArgMaxOp.argmax(NdArray.wrapFloats(new int[] {1, row.length}, row), 1,
        row.length, 1);
    long[] generic = ArgMaxOp.argmax(NdArray.wrapDoubles(new int[] {1, row.length}, wide), 1,
        row.length, 1);

    assertThat(narrow).containsExactly(expected);
    assertThat(generic).containsExactly(expected);
  }

  @Test
  void argmax_manyFloat32RowsWithTies_matchesTheFloat64Loop() {
    SplittableRandom rnd = new SplittableRandom(11);
    int rows = 500;
    int len = 10;
    float[] x = new float[rows * len];
    double[] wide = new double[x.length];
    for (int i = 0; i < x.length; i++) {
      x[i] = rnd.nextInt(8) - 4;
      wide[i] = x[i];
    }

    long[] narrow = ArgMaxOp.argmax(NdArray.wrapFloats(new int[] {rows, len}, x), rows, len, 1);
    long[] generic = ArgMaxOp.argmax(NdArray.wrapDoubles(new int[] {rows, len}, wide), rows, len,
        1);

    assertThat(narrow).isEqualTo(generic);
  }
}
