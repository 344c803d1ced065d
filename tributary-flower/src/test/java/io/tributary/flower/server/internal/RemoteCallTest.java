package io.tributary.flower.server.internal;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.flower.internal.proto.ClientMessage;
import io.tributary.flower.internal.proto.ServerMessage;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class RemoteCallTest {
  /** A client whose answers are whatever the test completes them with. */
  private static final class Stub implements RemoteClient {
    @Override
    public String id() {
      return "client-7";
    }

    @Override
    public String tensorType() {
      return "numpy.ndarray";
    }

    @Override
    public boolean isClosed() {
      return false;
    }

    @Override
    public CompletableFuture<ClientMessage> request(ServerMessage message,
        Optional<Duration> timeout) {
      return new CompletableFuture<>();
    }

    @Override
    public void abandon(CompletableFuture<ClientMessage> f, String why) {}

    @Override
    public void finish() {}
  }

  @Test
  void await_answerFailedUnexpectedly_messageNamesTheCause() {
    CompletableFuture<ClientMessage> f = new CompletableFuture<>();
    f.completeExceptionally(new OutOfMemoryError("Direct buffer memory"));

    assertThatThrownBy(() -> RemoteCall.await(new Stub(), ServerMessage.MsgCase.FIT_INS, f,
        ClientMessage.MsgCase.FIT_RES, () -> {}))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("unexpected failure waiting for client client-7: OutOfMemoryError: Direct"
            + " buffer memory")
        .hasCauseInstanceOf(OutOfMemoryError.class);
  }
}
