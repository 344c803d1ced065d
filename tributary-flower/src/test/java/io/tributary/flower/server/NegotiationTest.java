package io.tributary.flower.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.Status;
import io.tributary.flower.TensorTypes;
import io.tributary.flower.internal.proto.ServerMessage;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Each client gets the parameters in its negotiated tensor type; the aggregate is the same. */
class NegotiationTest {
  @Test
  void run_clientsOfTwoFormats_eachGetsItsTypeAndTheServerAggregatesBoth() throws Exception {
    try (Harness h = new Harness(Harness.config().rounds(1).minClients(2).build())) {
      FakeClient proto = h.client(FakeClient.tensorTypes("proto.ndarray,numpy.ndarray"),
          Behaviours.honest(1, 1));
      FakeClient numpy = h.client(Behaviours.honest(3, 1));
      h.awaitClients(2);
      RunResult result = h.server.run();

      assertThat(proto.responseHeaders.get(5, TimeUnit.SECONDS).get(TensorTypes.HEADER))
          .isEqualTo("proto.ndarray");
      assertThat(numpy.responseHeaders.get(5, TimeUnit.SECONDS).get(TensorTypes.HEADER))
          .isEqualTo("numpy.ndarray");
      assertThat(proto.received.stream().filter(ServerMessage::hasFitIns).findFirst()
          .orElseThrow().getFitIns().getParameters().getTensorType()).isEqualTo("proto.ndarray");
      assertThat(numpy.received.stream().filter(ServerMessage::hasFitIns).findFirst()
          .orElseThrow().getFitIns().getParameters().getTensorType()).isEqualTo("numpy.ndarray");
      assertThat(result.finalParameters().get("w"))
          .isEqualTo(Tensor.ofFloats(Shape.of(2), 2, 2));
    }
  }

  @Test
  void join_clientReadingNoServerType_refusedBeforeRegistering() throws Exception {
    try (Harness h = new Harness(Harness.config().build())) {
      FakeClient c = h.client(FakeClient.tensorTypes("safetensors"), Behaviours.honest(1, 1));
      Status s = c.closed.get(5, TimeUnit.SECONDS);
      assertThat(s.getCode()).isEqualTo(Status.Code.FAILED_PRECONDITION);
      assertThat(s.getDescription()).contains("safetensors");
      assertThat(h.server.connectedClients()).isEmpty();
    }
  }
}
