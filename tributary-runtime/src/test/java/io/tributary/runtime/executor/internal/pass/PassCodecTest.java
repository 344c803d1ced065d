package io.tributary.runtime.executor.internal.pass;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import io.tributary.core.types.Types;
import io.tributary.core.values.StructValue;
import io.tributary.runtime.PassEngineException;
import io.tributary.runtime.executor.internal.local.LinearAccumulator;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.util.List;
import org.junit.jupiter.api.Test;


/** {@link PassCodec}: what travels comes back bit for bit, and bad bytes are refused. */
class PassCodecTest {
  private static final double ODD_NAN = Double.longBitsToDouble(0x7ff8_0000_dead_beefL);

  private static LinearAccumulator roundTrip(LinearAccumulator a, String member) {
    PassCodec.Out out = new PassCodec.Out();
    a.write(out);
    PassCodec.In in = new PassCodec.In(out.toArray(), "test");
    LinearAccumulator back = LinearAccumulator.read(Types.parse(member), in);
    in.end();
    return back;
  }

  @Test
  void out_pastSeveralBlocks_writesTheBytesOfOneBigEndianStream() throws Exception {
    java.io.ByteArrayOutputStream want = new java.io.ByteArrayOutputStream();
    java.io.DataOutputStream data = new java.io.DataOutputStream(want);
    PassCodec.Out out = new PassCodec.Out();
    java.util.SplittableRandom rnd = new java.util.SplittableRandom(3);
    // Odd lengths and single values between bulk writes, so blocks end mid-element.
    for (int round = 0; round < 5; round++) {
      out.u8(round);
      data.writeByte(round);
      out.i32(-round);
      data.writeInt(-round);
      double[] d = new double[PassCodec.Out.BLOCK / 8 + 3 + round];
      for (int k = 0; k < d.length; k++) {
        d[k] = k == 7 ? ODD_NAN : rnd.nextGaussian();
        data.writeLong(Double.doubleToRawLongBits(d[k]));
      }
      out.doubles(d);
      long[] l = new long[1000 * round + 1];
      for (int k = 0; k < l.length; k++) {
        l[k] = rnd.nextLong();
        data.writeLong(l[k]);
      }
      out.longs(l);
      byte[] b = new byte[PassCodec.Out.BLOCK + round];
      rnd.nextBytes(b);
      data.write(b);
      out.bytes(b);
    }
    byte[] got = out.toArray();
    assertThat(got).isEqualTo(want.toByteArray());
    PassCodec.In in = new PassCodec.In(got, "test");
    in.u8("a");
    in.i32("b");
    double[] back = in.doubles(PassCodec.Out.BLOCK / 8 + 3, "c");
    assertThat(Double.doubleToRawLongBits(back[7])).isEqualTo(Double.doubleToRawLongBits(ODD_NAN));
  }

  @Test
  void linearAccumulator_roundTrip_keepsRawBitsAndCounts() {
    LinearAccumulator a = LinearAccumulator.forType(Types.parse("<float64[3],int64[2]>"));
    a.add(StructValue.of(Tensor.ofDoubles(Shape.of(3), -0.0, ODD_NAN, 1e-300),
        Tensor.ofLongs(Shape.of(2), Long.MIN_VALUE, 7)), 0.1);
    a.add(StructValue.of(Tensor.ofDoubles(Shape.of(3), 0.0, 1, 2),
        Tensor.ofLongs(Shape.of(2), -1, 7)), 0.2);

    LinearAccumulator back = roundTrip(a, "<float64[3],int64[2]>");

    assertThat(back.count()).isEqualTo(2);
    assertThat(Double.doubleToRawLongBits(back.weightSum()))
        .isEqualTo(Double.doubleToRawLongBits(a.weightSum()));
    Object sum = back.result(LinearAccumulator.Mode.SUM);
    assertThat(sum).isEqualTo(a.result(LinearAccumulator.Mode.SUM));
    Tensor reals = (Tensor) ((StructValue) sum).get(0);
    assertThat(Double.doubleToRawLongBits(reals.getDouble(0)))
        .isEqualTo(Double.doubleToRawLongBits(-0.0 * 0.1 + 0.0 * 0.2));
  }

  @Test
  void linearAccumulator_sumsPastSeveralPieces_areWrittenAsOneArray() {
    // Over three pieces of 32,768 doubles (how the accumulator keeps large sums): the bytes are
    // those of the sums in one array, and they read back to the same bits.
    int n = 3 * 32_768 + 5;
    double[] x = new double[n];
    for (int j = 0; j < n; j++) {
      x[j] = j % 5 == 0 ? -0.0 : (j - n / 2) * 1.25e-7;
    }
    String member = "float64[" + n + "]";
    LinearAccumulator a = LinearAccumulator.forType(Types.parse(member));
    a.add(Tensor.ofDoubles(Shape.of(n), x), 0.5);
    PassCodec.Out want = new PassCodec.Out();
    want.i32(1);
    want.u8(1);
    PassCodec.writeShape(Shape.of(n), want);
    double[] sums = new double[n];
    for (int j = 0; j < n; j++) {
      sums[j] += 0.5 * x[j];
    }
    want.doubles(sums);
    want.f64(0.5);
    want.i64(1);
    PassCodec.Out got = new PassCodec.Out();
    a.write(got);
    assertThat(java.util.Arrays.equals(got.toArray(), want.toArray())).isTrue();

    LinearAccumulator back = roundTrip(a, member);
    Tensor mean = (Tensor) back.result(LinearAccumulator.Mode.MEAN);
    int differ = 0;
    for (int j = 0; j < n; j++) {
      differ += Double.doubleToRawLongBits(mean.getDouble(j))
          == Double.doubleToRawLongBits(sums[j] / 1) ? 0 : 1;
    }
    assertThat(differ).isZero();
    byte[] cut = java.util.Arrays.copyOf(got.toArray(), got.toArray().length - 20);
    assertThatThrownBy(() -> LinearAccumulator.read(Types.parse(member),
        new PassCodec.In(cut, "test")))
        .isInstanceOf(PassEngineException.class)
        .hasMessageContaining("more elements than the");
  }

  @Test
  void linearAccumulator_emptyLeaves_stayEmpty() {
    LinearAccumulator a = LinearAccumulator.forType(Types.parse("float32[2]"));
    LinearAccumulator back = roundTrip(a, "float32[2]");
    assertThat(back.count()).isZero();
    assertThat(back.result(LinearAccumulator.Mode.SUM))
        .isEqualTo(a.result(LinearAccumulator.Mode.SUM));
  }

  @Test
  void linearAccumulator_otherMemberType_isRefused() {
    LinearAccumulator a = LinearAccumulator.forType(Types.parse("<float32,float32>"));
    PassCodec.Out out = new PassCodec.Out();
    a.write(out);
    assertThatThrownBy(() -> LinearAccumulator.read(Types.parse("float32"),
        new PassCodec.In(out.toArray(), "test")))
        .isInstanceOf(PassEngineException.class)
        .hasMessageContaining("sum leaves");
  }

  @Test
  void value_structsListsAndNames_roundTrip() {
    Object v = List.of(StructValue.named("a", Tensor.ofFloats(Shape.of(2), 1f, Float.NaN),
        "b", StructValue.of(Tensor.ofStrings(Shape.scalar(), "x"))), List.of());
    PassCodec.Out out = new PassCodec.Out();
    PassCodec.writeValue(v, out);
    PassCodec.In in = new PassCodec.In(out.toArray(), "test");
    assertThat(PassCodec.readValue(in, 0)).isEqualTo(v);
    in.end();
  }

  @Test
  void value_otherObject_cannotTravel() {
    assertThatThrownBy(() -> PassCodec.writeValue("text", new PassCodec.Out()))
        .isInstanceOf(PassEngineException.class)
        .hasMessageContaining("java.lang.String cannot travel");
  }

  @Test
  void shape_moreElementsThanBytes_isRefusedBeforeAllocating() {
    PassCodec.Out out = new PassCodec.Out();
    out.i32(2);
    out.i64(1L << 40);
    out.i64(1L << 40);
    assertThatThrownBy(() -> PassCodec.readShape(new PassCodec.In(out.toArray(), "test"), 8))
        .isInstanceOf(PassEngineException.class)
        .hasMessageContaining("more elements than");
  }

  @Test
  void earlier_roundTripAndHostileBytes() {
    byte[] pass = PassCodec.encodePass(new Object[] {Tensor.ofInts(Shape.of(1), 5)});
    byte[] earlier = PassCodec.encodeEarlier(List.of(pass));
    assertThat(PassCodec.decodeEarlier(earlier, 1))
        .containsExactly(List.of(Tensor.ofInts(Shape.of(1), 5)));

    assertThatThrownBy(() -> PassCodec.decodeEarlier(earlier, 2))
        .isInstanceOf(PassEngineException.class).hasMessageContaining("hold 1 passes");
    byte[] bad = earlier.clone();
    bad[1] = 'X';
    assertThatThrownBy(() -> PassCodec.decodeEarlier(bad, 1))
        .isInstanceOf(PassEngineException.class).hasMessageContaining("wrong magic");
    assertThatThrownBy(() -> PassCodec.decodeEarlier(
        java.util.Arrays.copyOf(earlier, earlier.length - 1), 1))
        .isInstanceOf(PassEngineException.class).hasMessageContaining("truncated");
  }

  @Test
  void encodeValue_namedStructOfTensors_decodesBitForBitAndBadBytesAreNamed() {
    StructValue v = StructValue.named("w", Tensor.ofFloats(Shape.of(2), -0f, Float.NaN),
        "n", Tensor.ofLongs(Shape.scalar(), 7));
    assertThat(io.tributary.runtime.PassEngine.decodeValue(
        io.tributary.runtime.PassEngine.encodeValue(v))).isEqualTo(v);
    assertThatThrownBy(() -> io.tributary.runtime.PassEngine.decodeValue(new byte[] {1, 2, 3}))
        .isInstanceOf(PassEngineException.class).hasMessageContaining("an engine's value");
  }
}
