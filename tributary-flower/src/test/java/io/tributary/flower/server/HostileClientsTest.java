package io.tributary.flower.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.flower.internal.ParametersWire;
import io.tributary.flower.internal.proto.ClientMessage;
import io.tributary.flower.internal.proto.ServerMessage;
import io.tributary.learning.rounds.RoundRecord;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** Malformed and hostile answers fail only their client's result; the server runs on. */
class HostileClientsTest {
  /** An NPY v1.0 file whose header claims 2^40 float32s, followed by 4 bytes of data. */
  static byte[] hugeClaim() {
    String dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (1099511627776,), }";
    int total = 10 + dict.length() + 1;
    int pad = (64 - total % 64) % 64;
    String header = dict + " ".repeat(pad) + "\n";
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(0x93);
    out.writeBytes("NUMPY".getBytes(StandardCharsets.US_ASCII));
    out.write(1);
    out.write(0);
    out.write(header.length() & 0xff);
    out.write(header.length() >> 8);
    out.writeBytes(header.getBytes(StandardCharsets.US_ASCII));
    out.writeBytes(new byte[4]);
    return out.toByteArray();
  }

  static Function<ServerMessage, Optional<ClientMessage>> answeringFit(
      Function<ServerMessage, ClientMessage> fit) {
    return Behaviours.fitAnswer(fit);
  }

  @Test
  void run_garbageAnswers_failOnlyThoseClientsAndTheRoundAggregatesTheRest() throws Exception {
    List<Function<ServerMessage, Optional<ClientMessage>>> hostile = List.of(
        answeringFit(m -> Behaviours.fitRes(Behaviours.raw("numpy.ndarray",
            "not an npy file".getBytes(StandardCharsets.US_ASCII)), 1, 0)),
        answeringFit(m -> Behaviours.fitRes(Behaviours.raw("numpy.ndarray", hugeClaim()), 1, 0)),
        answeringFit(m -> Behaviours.fitRes(ParametersWire.toProto(Behaviours.npy(List.of(
            Tensor.ofFloats(Shape.of(3), 1, 2, 3), Tensor.scalar(1f)))), 1, 0)),
        answeringFit(m -> Behaviours.fitRes(ParametersWire.toProto(Behaviours.npy(List.of(
            Tensor.ofDoubles(Shape.of(2), 1, 2), Tensor.scalar(1f)))), 1, 0)),
        answeringFit(m -> Behaviours.fitRes(Behaviours.raw("foo.bar", new byte[8]), 1, 0)),
        answeringFit(m -> Behaviours.evaluateRes(1, 1)),
        answeringFit(m -> Behaviours.fitRes(m.getFitIns().getParameters(), -5, 0)));
    try (Harness h = new Harness(Harness.config().rounds(2).minClients(hostile.size() + 1)
        .build())) {
      h.client(Behaviours.honest(2, 1));
      hostile.forEach(h::client);
      h.awaitClients(hostile.size() + 1);
      RunResult result = h.server.run();

      for (RoundRecord m : result.rounds()) {
        assertThat(m.clients()).isEqualTo(8);
        assertThat(m.failures()).isEqualTo(7);
        assertThat(String.join("\n", m.failureReasons())).contains(
            "do not decode", "do not fit the model: tensor 0 is float32[3]",
            "do not fit the model: tensor 0 is float64[2]", "'foo.bar'",
            "answered FIT_INS with EVALUATE_RES instead of FIT_RES", "num_examples -5");
        assertThat(m.clientLoss()).isEqualTo(2.0);
        // Every client evaluates honestly: losses 2 and seven times 0, one example each.
        assertThat(m.evalLoss()).isEqualTo(0.25);
      }
      assertThat(result.finalParameters().get("w"))
          .isEqualTo(Tensor.ofFloats(Shape.of(2), 4, 4));
      assertThat(h.server.connectedClients()).hasSize(8);
    }
  }
}
