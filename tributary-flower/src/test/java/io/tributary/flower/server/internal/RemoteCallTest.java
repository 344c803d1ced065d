package io.tributary.flower.server.internal;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.flower.internal.proto.ClientMessage;
import io.tributary.flower.internal.proto.ServerMessage;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class RemoteCallTest {
  @Test
  void await_answerFailedUnexpectedly_messageNamesTheCause() {
    CompletableFuture<ClientMessage> f = new CompletableFuture<>();
    f.completeExceptionally(new OutOfMemoryError("Direct buffer memory"));

    assertThatThrownBy(() -> RemoteCall.await(new InertClient("client-7"), ServerMessage.MsgCase.FIT_INS, f,
        ClientMessage.MsgCase.FIT_RES, () -> {}))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("unexpected failure waiting for client client-7: OutOfMemoryError: Direct"
            + " buffer memory")
        .hasCauseInstanceOf(OutOfMemoryError.class);
  }
}
