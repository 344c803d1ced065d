package io.tributary.flower.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.tributary.flower.internal.proto.ClientMessage;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class AliasingMarshallerTest {
  private final AliasingMarshaller<ClientMessage> marshaller =
      new AliasingMarshaller<>(ClientMessage.getDefaultInstance());

  private static ClientMessage fitRes(int bytes) {
    byte[] b = new byte[bytes];
    Arrays.fill(b, (byte) 7);
    return ClientMessage.newBuilder().setFitRes(ClientMessage.FitRes.newBuilder()
        .setNumExamples(3).setParameters(io.tributary.flower.internal.proto.Parameters
            .newBuilder().setTensorType("numpy.ndarray")
            .addTensors(ByteString.copyFrom(b)))).build();
  }

  /** A stream of known length, as grpc hands messages to marshallers. */
  private static InputStream known(byte[] bytes) {
    return new KnownLengthStream(bytes);
  }

  @Test
  void parse_smallAndLargeMessages_roundTrip() throws Exception {
    for (int size : new int[] {10, 3 << 20}) {
      ClientMessage m = fitRes(size);
      assertThat(marshaller.parse(known(marshaller.stream(m).readAllBytes()))).isEqualTo(m);
    }
  }

  @Test
  void parse_largeCorruptMessage_failsWithInternal() throws Exception {
    byte[] bytes = fitRes(3 << 20).toByteArray();
    byte[] cut = Arrays.copyOf(bytes, bytes.length - 100);
    assertThatThrownBy(() -> marshaller.parse(known(cut)))
        .isInstanceOf(StatusRuntimeException.class)
        .satisfies(e -> assertThat(((StatusRuntimeException) e).getStatus().getCode())
            .isEqualTo(Status.Code.INTERNAL));
  }

  private static final class KnownLengthStream extends ByteArrayInputStream
      implements io.grpc.KnownLength {
    KnownLengthStream(byte[] b) {
      super(b);
    }
  }
}
