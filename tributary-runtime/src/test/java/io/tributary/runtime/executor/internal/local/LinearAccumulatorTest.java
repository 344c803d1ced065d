package io.tributary.runtime.executor.internal.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.core.types.Types;
import io.tributary.core.values.StructValue;
import io.tributary.runtime.executor.internal.pass.PassCodec;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** {@link LinearAccumulator}: sums kept in pieces give the bits of sums kept in one array. */
class LinearAccumulatorTest {
  private static final int F32 = 2 * LinearAccumulator.PIECE + 7;
  private static final int F64 = LinearAccumulator.PIECE + 1;

  @Test
  void result_sumsPastSeveralPieces_areTheBitsOfOneArraysSums() {
    SplittableRandom rnd = new SplittableRandom(5);
    int clients = 16;
    float[][] xf = new float[clients][F32];
    double[][] xd = new double[clients][F64];
    double[] w = new double[clients];
    for (int c = 0; c < clients; c++) {
      w[c] = c == 3 ? 0.0 : rnd.nextDouble() * 7;
      for (int j = 0; j < F32; j++) {
        xf[c][j] = j % 11 == 0 ? -0f : (float) (rnd.nextGaussian() * Math.pow(10, j % 9 - 4));
      }
      for (int j = 0; j < F64; j++) {
        xd[c][j] = j % 13 == 0 ? Double.MIN_VALUE : rnd.nextGaussian() * 1e-3;
      }
    }
    // Two groups as a pass makes them: clients 0-10 in batches of 3 and 8, 11-15 one by one;
    // then the groups merged into an empty total, as the reduction tree's first combination is.
    String member = "<a=float32[" + F32 + "],b=float64[" + F64 + "]>";
    LinearAccumulator first = LinearAccumulator.forType(Types.parse(member));
    first.addAll(values(xf, xd, 0, 3), slice(w, 0, 3));
    first.addAll(values(xf, xd, 3, 11), slice(w, 3, 11));
    LinearAccumulator second = LinearAccumulator.forType(Types.parse(member));
    for (int c = 11; c < clients; c++) {
      second.add(values(xf, xd, c, c + 1).get(0), w[c]);
    }
    LinearAccumulator total = LinearAccumulator.forType(Types.parse(member));
    total.merge(first);
    total.merge(second);
    StructValue got = (StructValue) total.result(LinearAccumulator.Mode.WEIGHTED_MEAN);

    double[] sf1 = new double[F32];
    double[] sd1 = new double[F64];
    double[] sf2 = new double[F32];
    double[] sd2 = new double[F64];
    double w1 = 0;
    double w2 = 0;
    for (int c = 0; c < clients; c++) {
      double[] sf = c < 11 ? sf1 : sf2;
      double[] sd = c < 11 ? sd1 : sd2;
      for (int j = 0; j < F32; j++) {
        sf[j] += w[c] * xf[c][j];
      }
      for (int j = 0; j < F64; j++) {
        sd[j] += w[c] * xd[c][j];
      }
      if (c < 11) {
        w1 += w[c];
      } else {
        w2 += w[c];
      }
    }
    double weights = 0.0 + w1 + w2;
    Tensor a = (Tensor) got.get(0);
    Tensor b = (Tensor) got.get(1);
    assertThat(a.shape()).isEqualTo(Shape.of(F32));
    int differ = 0;
    for (int j = 0; j < F32; j++) {
      float want = (float) ((0.0 + sf1[j] + sf2[j]) / weights);
      differ += Float.floatToRawIntBits(a.getFloat(j)) == Float.floatToRawIntBits(want) ? 0 : 1;
    }
    for (int j = 0; j < F64; j++) {
      double want = (0.0 + sd1[j] + sd2[j]) / weights;
      differ += Double.doubleToRawLongBits(b.getDouble(j)) == Double.doubleToRawLongBits(want)
          ? 0 : 1;
    }
    assertThat(differ).isZero();
    assertThat(total.count()).isEqualTo(clients);
    assertThat(Double.doubleToRawLongBits(total.weightSum()))
        .isEqualTo(Double.doubleToRawLongBits(weights));
  }

  @Test
  void clear_thenReusedForAnotherGroup_sumsAsAFreshAccumulator() {
    SplittableRandom rnd = new SplittableRandom(9);
    float[][] xf = new float[6][F32];
    double[][] xd = new double[6][F64];
    for (int c = 0; c < 6; c++) {
      for (int j = 0; j < F32; j++) {
        xf[c][j] = (float) rnd.nextGaussian();
      }
      for (int j = 0; j < F64; j++) {
        xd[c][j] = rnd.nextGaussian();
      }
    }
    String member = "<a=float32[" + F32 + "],b=float64[" + F64 + "],n=int64>";
    double[] w = {0.5, 2.0, 3.0};
    LinearAccumulator reused = LinearAccumulator.forType(Types.parse(member));
    reused.addAll(withCounts(values(xf, xd, 0, 3)), w);
    reused.clear();
    assertThat(reused.count()).isZero();
    assertThat(reused.weightSum()).isZero();
    // Emptied, it writes what an accumulator that saw nothing writes.
    assertThat(bytes(reused)).isEqualTo(bytes(LinearAccumulator.forType(Types.parse(member))));
    reused.addAll(withCounts(values(xf, xd, 3, 6)), w);
    LinearAccumulator fresh = LinearAccumulator.forType(Types.parse(member));
    fresh.addAll(withCounts(values(xf, xd, 3, 6)), w);
    assertThat(bytes(reused)).isEqualTo(bytes(fresh));
  }

  private static List<Object> withCounts(List<Object> values) {
    List<Object> out = new ArrayList<>();
    for (int k = 0; k < values.size(); k++) {
      StructValue v = (StructValue) values.get(k);
      out.add(StructValue.named("a", v.get(0), "b", v.get(1),
          "n", Tensor.ofLongs(Shape.scalar(), 10L + k)));
    }
    return out;
  }

  private static byte[] bytes(LinearAccumulator a) {
    PassCodec.Out out = new PassCodec.Out();
    a.write(out);
    return out.toArray();
  }

  private static List<Object> values(float[][] xf, double[][] xd, int from, int to) {
    List<Object> out = new ArrayList<>();
    for (int c = from; c < to; c++) {
      out.add(StructValue.named("a", Tensor.ofFloats(Shape.of(F32), xf[c]),
          "b", Tensor.ofDoubles(Shape.of(F64), xd[c])));
    }
    return out;
  }

  private static double[] slice(double[] w, int from, int to) {
    double[] out = new double[to - from];
    System.arraycopy(w, from, out, 0, out.length);
    return out;
  }
}
