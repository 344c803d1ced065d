package io.tributary.flower.server.internal;

import io.tributary.flower.internal.proto.ClientMessage;
import io.tributary.flower.internal.proto.ServerMessage;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/** A connected client that is never asked anything: tests that hand answers in directly. */
record InertClient(String id) implements RemoteClient {
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
    throw new UnsupportedOperationException("an inert client is not sent instructions");
  }

  @Override
  public void abandon(CompletableFuture<ClientMessage> f, String why) {}

  @Override
  public void finish() {}
}
