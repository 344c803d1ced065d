package io.tributary.flower;

import static io.tributary.flower.testing.Messages.evaluate;
import static io.tributary.flower.testing.Messages.fit;
import static io.tributary.flower.testing.Messages.reconnect;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.grpc.ManagedChannel;
import io.tributary.flower.internal.proto.ClientMessage;
import io.tributary.flower.internal.proto.ClientMessage.MsgCase;
import io.tributary.flower.internal.proto.Code;
import io.tributary.flower.testing.Messages;
import io.tributary.flower.testing.ScriptedServer;
import io.tributary.flower.testing.ScriptedServer.Send;
import io.tributary.flower.testing.ScriptedServer.Step;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The Java client verifies what a server sends: models must be finite, delays in range. */
@Timeout(60)
class UntrustedServerTest {
  @Test
  void run_modelWithNaNOrInf_isRefusedWithOneLineAndNotTrainedOn() throws Exception {
    AtomicInteger calls = new AtomicInteger();
    ConversationTest.DoublingClient doubling = new ConversationTest.DoublingClient();
    FlowerClient counting = new FlowerClient() {
      @Override
      public FitRes fit(FitIns ins) {
        calls.incrementAndGet();
        return doubling.fit(ins);
      }

      @Override
      public EvaluateRes evaluate(EvaluateIns ins) {
        calls.incrementAndGet();
        return doubling.evaluate(ins);
      }
    };
    List<Tensor> nan = List.of(Tensor.ofFloats(Shape.of(2, 2), 1, Float.NaN, 3, 4),
        Tensor.ofLongs(Shape.of(1), 7));
    List<Tensor> inf = List.of(Tensor.ofFloats(Shape.of(2, 2), 1, 2, 3,
        Float.NEGATIVE_INFINITY), Tensor.ofLongs(Shape.of(1), 7));

    List<ClientMessage> answers = ConversationTest.converse(counting, null,
        fit(nan, Map.of()), evaluate(inf, Map.of()), fit(ConversationTest.PARAMS, Map.of()),
        reconnect(0));

    assertThat(Messages.kinds(answers)).containsExactly(MsgCase.FIT_RES, MsgCase.EVALUATE_RES,
        MsgCase.FIT_RES, MsgCase.DISCONNECT_RES);
    ClientMessage.FitRes refused = answers.get(0).getFitRes();
    assertThat(refused.getStatus().getCode()).isEqualTo(Code.FIT_NOT_IMPLEMENTED);
    assertThat(refused.getStatus().getMessage())
        .isEqualTo("error: fit: the server's parameters are not finite: tensor 0 (float32[2,2])"
            + " holds NaN at element 1");
    assertThat(answers.get(1).getEvaluateRes().getStatus().getMessage())
        .contains("not finite").contains("-Inf at element 3").doesNotContain("\n");
    // Only the finite model reached the client's code.
    assertThat(calls).hasValue(1);
    assertThat(answers.get(2).getFitRes().getStatus().getCode()).isEqualTo(Code.OK);
  }

  @Test
  void run_reconnectDelayThatOverflows_endsWithOneLineProtocolError() throws Exception {
    List<Step> script = List.of(new Send(reconnect(Long.MAX_VALUE)));
    try (ScriptedServer server = new ScriptedServer(null, List.of(script)).start()) {
      ManagedChannel channel = server.channel();
      try (FlowerClientRunner r = FlowerClientRunner.builder(
          new ConversationTest.DoublingClient()).channel(channel).build()) {
        assertThatThrownBy(r::run).isInstanceOf(ConnectionFailedException.class)
            .hasMessage("protocol error: the server asked this client to reconnect in "
                + Long.MAX_VALUE + " s, more than the longest wait it can take ("
                + FlowerClientRunner.MAX_RECONNECT_SECONDS + " s)");
        assertThat(r.connections()).isEqualTo(1);
      } finally {
        channel.shutdownNow();
      }
    }
  }
}
