package io.tributary.tensor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class TensorMathTest {
  private static float[] randomFloats(SplittableRandom r, int n) {
    float[] out = new float[n];
    for (int i = 0; i < n; i++) {
      // Wide exponents, so that sums round and some cancel.
      out[i] = (float) ((r.nextDouble() - 0.5) * Math.pow(2, r.nextInt(-30, 30)));
    }
    return out;
  }

  @Test
  void addAndSubtract_float32_bitIdenticalToFloatArithmetic() {
    SplittableRandom r = new SplittableRandom(1);
    int n = 10_000;
    float[] a = randomFloats(r, n);
    float[] b = randomFloats(r, n);
    Tensor sum = TensorMath.add(Tensor.ofFloats(Shape.of(n), a), Tensor.ofFloats(Shape.of(n), b));
    Tensor diff = TensorMath.subtract(Tensor.ofFloats(Shape.of(n), a),
        Tensor.ofFloats(Shape.of(n), b));
    for (int i = 0; i < n; i++) {
      assertThat(Float.floatToRawIntBits(sum.getFloat(i)))
          .isEqualTo(Float.floatToRawIntBits(a[i] + b[i]));
      assertThat(Float.floatToRawIntBits(diff.getFloat(i)))
          .isEqualTo(Float.floatToRawIntBits(a[i] - b[i]));
    }
  }

  @Test
  void multiply_float32LongerThanABlock_bitIdenticalToFloatArithmetic() {
    // Not a multiple of the block, with signed zeros, infinities, NaN and subnormals among them.
    SplittableRandom r = new SplittableRandom(2);
    int n = 3 * 4096 + 17;
    float[] a = randomFloats(r, n);
    float[] b = randomFloats(r, n);
    float[] specials = {0f, -0f, Float.POSITIVE_INFINITY, Float.NaN, Float.MIN_VALUE, 3e38f};
    for (int i = 0; i < specials.length; i++) {
      a[n - 1 - i] = specials[i];
      b[5 * i] = specials[specials.length - 1 - i];
    }
    Tensor product = TensorMath.multiply(Tensor.ofFloats(Shape.of(n), a),
        Tensor.ofFloats(Shape.of(n), b));
    Tensor diff = TensorMath.subtract(Tensor.ofFloats(Shape.of(n), a),
        Tensor.ofFloats(Shape.of(n), b));

    assertThat(product.dtype()).isEqualTo(DType.FLOAT32);
    for (int i = 0; i < n; i++) {
      assertThat(Float.floatToIntBits(product.getFloat(i))).as("element %d", i)
          .isEqualTo(Float.floatToIntBits(a[i] * b[i]));
      assertThat(Float.floatToIntBits(diff.getFloat(i))).as("element %d", i)
          .isEqualTo(Float.floatToIntBits(a[i] - b[i]));
    }
  }

  @Test
  void subtract_float64_isDoubleSubtraction() {
    Tensor d = TensorMath.subtract(Tensor.ofDoubles(Shape.of(2), 0.3, 1e308),
        Tensor.ofDoubles(Shape.of(2), 0.1, -1e308));
    assertThat(d.getDouble(0)).isEqualTo(0.3 - 0.1);
    assertThat(d.getDouble(1)).isEqualTo(Double.POSITIVE_INFINITY);
  }

  @Test
  void add_uint8_wrapsModulo256() {
    Tensor a = TensorMath.fromLongs(DType.UINT8, Shape.of(2), new long[] {250, 3});
    Tensor b = TensorMath.fromLongs(DType.UINT8, Shape.of(2), new long[] {10, 4});
    assertThat(TensorMath.toLongs(TensorMath.add(a, b))).containsExactly(4, 7);
    assertThat(TensorMath.toLongs(TensorMath.subtract(b, a))).containsExactly(16, 1);
  }

  @Test
  void multiply_complex64_multipliesAsComplexNumbers() {
    Tensor a = TensorMath.fromDoubles(DType.COMPLEX64, Shape.of(1), new double[] {1, 2});
    Tensor b = TensorMath.fromDoubles(DType.COMPLEX64, Shape.of(1), new double[] {3, -1});
    assertThat(TensorMath.toDoubles(TensorMath.multiply(a, b))).containsExactly(5, 5);
  }

  @Test
  void divide_int64ToFloat64_isTrueDivision() {
    Tensor q = TensorMath.divide(Tensor.ofLongs(Shape.of(2), 7, 1),
        Tensor.ofLongs(Shape.of(2), 2, 0), DType.FLOAT64);
    assertThat(q.getDouble(0)).isEqualTo(3.5);
    assertThat(q.getDouble(1)).isEqualTo(Double.POSITIVE_INFINITY);
  }

  @Test
  void add_float16_roundsOnceToFloat16() {
    Tensor a = TensorMath.fromDoubles(DType.FLOAT16, Shape.of(1), new double[] {1.0});
    Tensor b = TensorMath.fromDoubles(DType.FLOAT16, Shape.of(1), new double[] {0.000244140625});
    // 1 + 2^-12 is not a float16; it rounds to even, 1.
    assertThat(TensorMath.add(a, b).getAsDouble(0)).isEqualTo(1.0);
  }

  @Test
  void addScaled_tiledOverManyTensors_equalsOneAfterAnother() {
    SplittableRandom r = new SplittableRandom(2);
    int n = 9_000;
    List<Tensor> ts = List.of(Tensor.ofFloats(Shape.of(n), randomFloats(r, n)),
        Tensor.ofFloats(Shape.of(n), randomFloats(r, n)),
        Tensor.ofFloats(Shape.of(n), randomFloats(r, n)));
    double[] w = {0.25, 3, 1e-3};
    double[] tiled = new double[n];
    TensorMath.addScaled(ts, w, tiled);
    double[] sequential = new double[n];
    for (int k = 0; k < ts.size(); k++) {
      TensorMath.addScaled(ts.get(k), w[k], sequential);
    }
    assertThat(tiled).containsExactly(sequential);
  }

  @Test
  void add_differentShapes_throws() {
    assertThatThrownBy(() -> TensorMath.add(Tensor.ofFloats(Shape.of(2), 1, 2),
        Tensor.ofFloats(Shape.of(1, 2), 1, 2)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("cannot add");
  }

  @Test
  void addScaled_integerTensor_throws() {
    assertThatThrownBy(() -> TensorMath.addScaled(Tensor.ofLongs(Shape.of(1), 1), 1,
        new double[1])).isInstanceOf(IllegalArgumentException.class);
  }
  @Test
  void addScaled_slicesAtOffsets_areTheBitsOfTheWholeArray() {
    SplittableRandom rnd = new SplittableRandom(9);
    int n = 3 * 4096 + 1234;
    List<Tensor> tensors = new java.util.ArrayList<>();
    for (int k = 0; k < 5; k++) {
      float[] x = new float[n];
      for (int j = 0; j < n; j++) {
        x[j] = (float) (rnd.nextGaussian() * Math.pow(10, j % 7 - 3));
      }
      tensors.add(Tensor.ofFloats(Shape.of(n), x));
    }
    double[] w = {0.5, 3, 1e-9, -2, 7.25};
    double[] whole = new double[n];
    TensorMath.addScaled(tensors, w, whole);
    // Slices that start and end inside tiles, as pieces of an accumulator do.
    int[] cuts = {0, 1000, 5000, 5001, n};
    int differ = 0;
    for (int c = 0; c + 1 < cuts.length; c++) {
      double[] piece = new double[cuts[c + 1] - cuts[c]];
      TensorMath.addScaled(tensors, w, piece, cuts[c]);
      for (int j = 0; j < piece.length; j++) {
        differ += Double.doubleToRawLongBits(piece[j])
            == Double.doubleToRawLongBits(whole[cuts[c] + j]) ? 0 : 1;
      }
    }
    assertThat(differ).isZero();
    assertThatThrownBy(() -> TensorMath.addScaled(tensors, w, new double[10], n - 9))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not inside");
  }
}
