package io.tributary.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.tributary.tensor.DType;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.TensorBuilder;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.util.List;
import java.util.stream.Stream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class TensorStatsTest {

  static Stream<Arguments> cases() {
    return Stream.of(
        Arguments.of("bool", fromDoubles(DType.BOOL, 1, 0, 1, 1), 0L, 1L, 0.75),
        Arguments.of("int8", fromDoubles(DType.INT8, -3, 5, 0), -3L, 5L, 2.0 / 3),
        Arguments.of("int16", fromDoubles(DType.INT16, -32768, 32767), -32768L, 32767L, -0.5),
        Arguments.of("int32", fromDoubles(DType.INT32, 7, 7, 7), 7L, 7L, 7.0),
        Arguments.of("int64 extremes", Tensor.ofLongs(Shape.of(2), Long.MIN_VALUE, Long.MAX_VALUE),
            Long.MIN_VALUE, Long.MAX_VALUE, -0.5),
        Arguments.of("int64 sum beyond 64 bits", Tensor.ofLongs(Shape.of(3), Long.MAX_VALUE, Long.MAX_VALUE, 1),
            1L, Long.MAX_VALUE, 6.148914691236517e18),
        Arguments.of("uint8", fromDoubles(DType.UINT8, 255, 1), 1L, 255L, 128.0),
        Arguments.of("uint16", fromDoubles(DType.UINT16, 65535, 0), 0L, 65535L, 32767.5),
        Arguments.of("uint32", fromDoubles(DType.UINT32, 4294967295.0, 1), 1L, 4294967295L, 2147483648.0),
        Arguments.of("uint64 above Long.MAX_VALUE", uint64(-1L, 0L), 0L,
            new BigInteger("18446744073709551615"), 9.223372036854775807e18),
        Arguments.of("float16", fromDoubles(DType.FLOAT16, 0.5, -1.5, 2), -1.5, 2.0, 1.0 / 3),
        Arguments.of("bfloat16", fromDoubles(DType.BFLOAT16, 0.5, -1.5, 4), -1.5, 4.0, 1.0),
        Arguments.of("float32", Tensor.ofFloats(Shape.of(2, 2), 1.5f, -2f, 0.25f, 4f), -2.0, 4.0, 0.9375),
        Arguments.of("float64 with NaN", Tensor.ofDoubles(Shape.of(3), 1, Double.NaN, 3),
            Double.NaN, Double.NaN, Double.NaN),
        Arguments.of("float64 with +inf", Tensor.ofDoubles(Shape.of(2), 1, Double.POSITIVE_INFINITY),
            1.0, Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY),
        Arguments.of("float64 with both infinities",
            Tensor.ofDoubles(Shape.of(2), Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY),
            Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY, Double.NaN),
        Arguments.of("float64 scalar", Tensor.scalar(-2.5), -2.5, -2.5, -2.5),
        Arguments.of("complex64 magnitudes", complex(DType.COMPLEX64, 3, 4, 0, 0), 0.0, 5.0, 2.5),
        Arguments.of("complex128 magnitudes", complex(DType.COMPLEX128, 0, -2, 6, 8), 2.0, 10.0, 6.0));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void of_eachDtype_reportsMinMaxMean(String label, Tensor tensor, Number min, Number max, double mean) {
    TensorStats stats = TensorStats.of(tensor);

    assertThat(stats.present()).isTrue();
    assertThat(stats.min()).isEqualTo(min);
    assertThat(stats.max()).isEqualTo(max);
    if (Double.isNaN(mean)) {
      assertThat(stats.mean()).isNaN();
    } else if (Double.isInfinite(mean)) {
      assertThat(stats.mean()).isEqualTo(mean);
    } else {
      assertThat(stats.mean()).isCloseTo(mean, within(Math.abs(mean) * 1e-15 + 1e-15));
    }
  }

  @Test
  void of_stringTensor_hasNoStatistics() {
    TensorStats stats = TensorStats.of(Tensor.ofStrings(Shape.of(2), "a", "b"));

    assertThat(stats.present()).isFalse();
    assertThat(stats.min()).isNull();
    assertThat(stats.max()).isNull();
    assertThat(stats.mean()).isNull();
  }

  @Test
  void of_emptyTensor_hasNoStatistics() {
    assertThat(TensorStats.of(Tensor.zeros(DType.FLOAT32, Shape.of(0, 3))).present()).isFalse();
  }

  @Test
  void of_tensorSpanningManyStorageChunks_visitsEveryElementOnce() {
    int n = 1001; // 16-byte chunks hold two float64 values, so this spans 501 chunks
    TensorBuilder b = TensorBuilder.allocate(DType.FLOAT64, Shape.of(n), 4);
    for (int i = 0; i < n; i++) {
      b.setDouble(i, i);
    }

    TensorStats stats = TensorStats.of(b.build());

    assertThat(stats.min()).isEqualTo(0.0);
    assertThat(stats.max()).isEqualTo(1000.0);
    assertThat(stats.mean()).isEqualTo(500.0);
  }

  @Test
  void of_sliceView_summarisesOnlyTheSlice() {
    Tensor t = Tensor.ofInts(Shape.of(3, 2), 1, 2, 30, 40, 5, 6).slice(1, 0, 1);

    TensorStats stats = TensorStats.of(t);

    assertThat(stats.min()).isEqualTo(1L);
    assertThat(stats.max()).isEqualTo(30L);
    assertThat(stats.mean()).isEqualTo(12.0);
  }

  @Property(tries = 200)
  void of_float64Values_meanMatchesExactArithmetic(
      @ForAll @Size(min = 1, max = 300) List<@DoubleRange(min = -1e300, max = 1e300) Double> values) {
    // Bounded so the sum stays finite: past that, numpy's float64 mean overflows too.
    BigDecimal exact = BigDecimal.ZERO;
    for (double v : values) {
      exact = exact.add(new BigDecimal(v));
    }
    double expected = exact.divide(BigDecimal.valueOf(values.size()), MathContext.DECIMAL128).doubleValue();
    double[] array = values.stream().mapToDouble(Double::doubleValue).toArray();

    double mean = TensorStats.of(Tensor.ofDoubles(Shape.of(array.length), array)).mean();

    // Compensated (Neumaier) summation is exact to 2 units in the last place of the result plus
    // a second-order term n u^2 sum|v| (u = 2^-53), which matters only under heavy
    // cancellation, when values near 1e300 cancel down to a far smaller mean.
    double sumAbs = 0;
    for (double v : array) {
      sumAbs += Math.abs(v);
    }
    double u = Math.ulp(1.0) / 2;
    double secondOrder = 4.0 * array.length * u * u * sumAbs / array.length;
    assertThat(mean).isCloseTo(expected,
        within(Math.ulp(expected) * 2 + secondOrder + Double.MIN_VALUE));
  }

  @Property(tries = 50)
  void of_manyNearlyCancellingValues_keepsPrecision(
      @ForAll @DoubleRange(min = 1e10, max = 1e15) double big) {
    // big, 1, -big repeated: a naive running sum loses the ones entirely.
    int repeats = 1000;
    double[] values = new double[repeats * 3];
    for (int i = 0; i < repeats; i++) {
      values[3 * i] = big;
      values[3 * i + 1] = 1;
      values[3 * i + 2] = -big;
    }

    double mean = TensorStats.of(Tensor.ofDoubles(Shape.of(values.length), values)).mean();

    assertThat(mean).isCloseTo(1.0 / 3, within(1e-12));
  }

  private static Tensor fromDoubles(DType dtype, double... values) {
    TensorBuilder b = TensorBuilder.allocate(dtype, Shape.of(values.length));
    for (int i = 0; i < values.length; i++) {
      b.setFromDouble(i, values[i]);
    }
    return b.build();
  }

  private static Tensor uint64(long... raw) {
    TensorBuilder b = TensorBuilder.allocate(DType.UINT64, Shape.of(raw.length));
    for (int i = 0; i < raw.length; i++) {
      b.setLong(i, raw[i]);
    }
    return b.build();
  }

  private static Tensor complex(DType dtype, double... reIm) {
    TensorBuilder b = TensorBuilder.allocate(dtype, Shape.of(reIm.length / 2));
    for (int i = 0; i < reIm.length / 2; i++) {
      b.setComplex(i, reIm[2 * i], reIm[2 * i + 1]);
    }
    return b.build();
  }
}
