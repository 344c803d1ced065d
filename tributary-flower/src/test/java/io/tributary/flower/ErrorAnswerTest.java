package io.tributary.flower;

import static io.tributary.flower.testing.Messages.fit;
import static io.tributary.flower.testing.Messages.getParameters;
import static io.tributary.flower.testing.Messages.reconnect;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.tributary.flower.internal.proto.ClientMessage;
import io.tributary.flower.internal.proto.ClientMessage.MsgCase;
import io.tributary.flower.internal.proto.Code;
import io.tributary.flower.internal.proto.Parameters;
import io.tributary.flower.internal.proto.ServerMessage;
import io.tributary.flower.testing.Messages;
import io.tributary.tensor.Tensor;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Hostile instructions and failing clients get an error status, and the conversation goes on. */
@Timeout(60)
class ErrorAnswerTest {
  private static ServerMessage fitWith(Parameters p) {
    return ServerMessage.newBuilder().setFitIns(ServerMessage.FitIns.newBuilder()
        .setParameters(p)).build();
  }

  private static Parameters npy(String tensorType, byte[]... blobs) {
    Parameters.Builder b = Parameters.newBuilder().setTensorType(tensorType);
    for (byte[] blob : blobs) {
      b.addTensors(ByteString.copyFrom(blob));
    }
    return b.build();
  }

  /** A v1.0 NPY blob with this header dict, followed by 8 bytes of data. */
  private static byte[] npyWithHeader(String dict) {
    StringBuilder h = new StringBuilder(dict);
    while ((10 + h.length() + 1) % 64 != 0) {
      h.append(' ');
    }
    h.append('\n');
    byte[] header = h.toString().getBytes(StandardCharsets.US_ASCII);
    byte[] out = new byte[10 + header.length + 8];
    byte[] magic = {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0};
    System.arraycopy(magic, 0, out, 0, 8);
    out[8] = (byte) header.length;
    out[9] = (byte) (header.length >> 8);
    System.arraycopy(header, 0, out, 10, header.length);
    return out;
  }

  @ParameterizedTest
  @ValueSource(strings = {"garbage", "truncated", "huge", "pickle", "unknown-type"})
  void run_malformedFitParameters_answersErrorStatusAndGoesOn(String kind) throws Exception {
    Parameters bad = switch (kind) {
      case "garbage" -> npy("numpy.ndarray", "not an npy file".getBytes(StandardCharsets.UTF_8));
      case "truncated" -> npy("numpy.ndarray", java.util.Arrays.copyOf(
          Messages.numpy(ConversationTest.PARAMS).getTensors(0).toByteArray(), 40));
      case "huge" -> npy("numpy.ndarray", npyWithHeader(
          "{'descr': '<f4', 'fortran_order': False, 'shape': (1099511627776,), }"));
      case "pickle" -> npy("numpy.ndarray", npyWithHeader(
          "{'descr': '|O', 'fortran_order': False, 'shape': (1,), }"));
      default -> npy("proto.tftensor", new byte[] {1, 2, 3});
    };

    List<ClientMessage> answers = ConversationTest.converse(new ConversationTest.DoublingClient(),
        null, fitWith(bad), getParameters(), reconnect(0));

    assertThat(Messages.kinds(answers)).containsExactly(MsgCase.FIT_RES,
        MsgCase.GET_PARAMETERS_RES, MsgCase.DISCONNECT_RES);
    ClientMessage.FitRes res = answers.getFirst().getFitRes();
    assertThat(res.getStatus().getCode()).isEqualTo(Code.FIT_NOT_IMPLEMENTED);
    assertThat(res.getStatus().getMessage()).startsWith("error: fit: the server's parameters");
    assertThat(res.hasParameters()).isFalse();
    assertThat(answers.get(1).getGetParametersRes().getStatus().getCode()).isEqualTo(Code.OK);
  }

  @Test
  void run_clientThrowsRuntimeException_answersErrorStatusAndGoesOn() throws Exception {
    FlowerClient broken = new FlowerClient() {
      @Override
      public FitRes fit(FitIns ins) {
        throw new IllegalStateException("out of disk");
      }
    };

    List<ClientMessage> answers = ConversationTest.converse(broken, null,
        fit(ConversationTest.PARAMS, Map.of()), reconnect(0));

    assertThat(answers.getFirst().getFitRes().getStatus().getCode())
        .isEqualTo(Code.FIT_NOT_IMPLEMENTED);
    assertThat(answers.getFirst().getFitRes().getStatus().getMessage())
        .isEqualTo("error: out of disk");
    assertThat(answers.get(1).getMsgCase()).isEqualTo(MsgCase.DISCONNECT_RES);
  }

  @Test
  void run_clientThrowsFlowerClientException_sendsItsReason() throws Exception {
    FlowerClient picky = new FlowerClient() {
      @Override
      public List<Tensor> getParameters(Map<String, Scalar> config) throws FlowerClientException {
        throw new FlowerClientException("no model yet");
      }
    };

    List<ClientMessage> answers = ConversationTest.converse(picky, null, getParameters(),
        reconnect(0));

    assertThat(answers.getFirst().getGetParametersRes().getStatus().getMessage())
        .isEqualTo("error: no model yet");
    assertThat(answers.getFirst().getGetParametersRes().getStatus().getCode())
        .isEqualTo(Code.GET_PARAMETERS_NOT_IMPLEMENTED);
  }
}
