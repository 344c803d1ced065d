package io.tributary.tensor.npy;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.tensor.DType;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.TensorBuilder;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** Random tensors of every numpy dtype and random shapes survive NPY and NPZ unchanged. */
class NpyRoundTripProperties {

  @Property(tries = 300)
  void fromBytes_toBytesOfAnyTensor_returnsEqualTensor(@ForAll("tensors") Tensor t) throws IOException {
    byte[] npy = Npy.toBytes(t);
    assertThat(Npy.fromBytes(npy)).isEqualTo(t);
    NpyHeader header = Npy.readHeader(npy);
    assertThat(header.dataOffset() % 64).isZero();
    assertThat(header.shape()).isEqualTo(t.shape());
    assertThat(header.fortranOrder()).isFalse();
    if (t.dtype() != DType.STRING) {
      assertThat(npy.length - header.dataOffset()).isEqualTo(t.byteSize());
    }
  }

  @Property(tries = 200)
  void read_writtenStreamInAnyVersion_returnsEqualTensorAndStopsAtItsEnd(
      @ForAll("tensors") Tensor t, @ForAll NpyVersion version) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Npy.write(t, out, version);
    Npy.write(t, out, version);
    byte[] two = out.toByteArray();
    ByteArrayInputStream in = new ByteArrayInputStream(two);
    assertThat(Npy.read(in, two.length)).isEqualTo(t);
    assertThat(Npy.read(in, two.length)).isEqualTo(t);
    assertThat(in.available()).isZero();
  }

  @Property(tries = 100)
  void npzRead_toBytesOfAnyTensors_returnsEqualArraysInOrder(
      @ForAll("tensorLists") List<Tensor> tensors, @ForAll boolean compressed) throws IOException {
    LinkedHashMap<String, Tensor> arrays = Npz.named(tensors);
    LinkedHashMap<String, Tensor> back = Npz.read(Npz.toBytes(arrays, compressed));
    assertThat(back).containsExactlyEntriesOf(arrays);
  }

  @Provide
  Arbitrary<List<Tensor>> tensorLists() {
    return tensors().list().ofMinSize(1).ofMaxSize(4);
  }

  @Provide
  Arbitrary<Tensor> tensors() {
    Arbitrary<DType> dtypes = Arbitraries.of(TestTensors.numpyDtypes());
    Arbitrary<long[]> dims = Arbitraries.longs().between(0, 5).array(long[].class).ofMaxSize(4);
    Arbitrary<Integer> chunkShifts = Arbitraries.of(4, 5, 30);
    Arbitrary<Boolean> sliced = Arbitraries.of(false, true);
    return Combinators.combine(dtypes, dims, chunkShifts, sliced, Arbitraries.randoms())
        .as((dtype, d, shift, slice, random) -> {
          long[] full = d.clone();
          if (slice && full.length > 0) {
            full[0] += 2;
          }
          Tensor t = fill(TensorBuilder.allocate(dtype, Shape.of(full), shift), random);
          return slice && full.length > 0 ? t.slice(0, 1, 1 + d[0]) : t;
        });
  }

  private static Tensor fill(TensorBuilder b, java.util.Random random) {
    long n = b.shape().size();
    if (b.dtype() == DType.STRING) {
      for (long i = 0; i < n; i++) {
        b.setString(i, randomText(random));
      }
    } else if (b.dtype() == DType.BOOL) {
      for (long i = 0; i < n; i++) {
        b.setBoolean(i, random.nextBoolean());
      }
    } else {
      byte[] bytes = new byte[(int) b.byteSize()];
      random.nextBytes(bytes);
      b.putBytes(0, bytes, 0, bytes.length);
    }
    return b.build();
  }

  /** Text of any code points; numpy drops trailing NULs, so none end a string. */
  private static String randomText(java.util.Random random) {
    int len = random.nextInt(6);
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < len; i++) {
      int cp = switch (random.nextInt(4)) {
        case 0 -> 'a' + random.nextInt(26);
        case 1 -> 0x80 + random.nextInt(0x700);
        case 2 -> 0x1F300 + random.nextInt(0x300);
        default -> random.nextInt(0x20);
      };
      sb.appendCodePoint(cp);
    }
    while (!sb.isEmpty() && sb.charAt(sb.length() - 1) == 0) {
      sb.setLength(sb.length() - 1);
    }
    return sb.toString();
  }
}
