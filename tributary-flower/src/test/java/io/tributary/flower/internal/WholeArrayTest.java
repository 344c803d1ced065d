package io.tributary.flower.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import com.google.protobuf.UnsafeByteOperations;
import io.tributary.flower.internal.proto.ClientMessage;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class WholeArrayTest {
  private static byte[] bytes(int n) {
    byte[] b = new byte[n];
    for (int i = 0; i < n; i++) {
      b[i] = (byte) (i * 31 + 7);
    }
    return b;
  }

  @Test
  void of_wholeArray_sharesIt() {
    byte[] a = bytes(1000);
    assertThat(WholeArray.of(UnsafeByteOperations.unsafeWrap(a))).isSameAs(a);
  }

  @Test
  void of_sliceRopeOrEmpty_copiesExactly() {
    byte[] a = bytes(1000);
    ByteString slice = UnsafeByteOperations.unsafeWrap(a, 10, 500);
    ByteString rope = ByteString.copyFrom(a, 0, 300).concat(ByteString.copyFrom(a, 300, 700));
    assertThat(WholeArray.of(slice)).isEqualTo(Arrays.copyOfRange(a, 10, 510));
    assertThat(WholeArray.of(rope)).isEqualTo(a).isNotSameAs(a);
    assertThat(WholeArray.of(ByteString.EMPTY)).isEmpty();
  }

  @Test
  void of_largeFieldOfAParsedStream_isTheParsedBytes() throws Exception {
    byte[] a = bytes(3 << 20);
    ClientMessage m = ClientMessage.newBuilder().setFitRes(ClientMessage.FitRes.newBuilder()
        .setParameters(io.tributary.flower.internal.proto.Parameters.newBuilder()
            .addTensors(ByteString.copyFrom(a)))).build();
    ClientMessage parsed = ClientMessage.parseFrom(
        new java.io.ByteArrayInputStream(m.toByteArray()));
    assertThat(WholeArray.of(parsed.getFitRes().getParameters().getTensors(0))).isEqualTo(a);
  }
}
