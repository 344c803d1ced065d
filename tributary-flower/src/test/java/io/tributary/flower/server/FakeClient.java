package io.tributary.flower.server;

import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptors;
import io.grpc.ForwardingClientCall;
import io.grpc.ForwardingClientCallListener;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.StreamObserver;
import io.tributary.flower.TensorTypes;
import io.tributary.flower.internal.FlowerRpc;
import io.tributary.flower.internal.proto.ClientMessage;
import io.tributary.flower.internal.proto.Reason;
import io.tributary.flower.internal.proto.ServerMessage;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * A client made of a raw {@code Join} stream: answers each server message with what {@code
 * behaviour} returns, dies (cancels its stream) when it returns empty, and stays silent when it
 * returns null. Answers ReconnectIns
 * with DisconnectRes(RECONNECT) and closes, as Flower's client does.
 */
public final class FakeClient {
  public final List<ServerMessage> received = new CopyOnWriteArrayList<>();
  public final CompletableFuture<Status> closed = new CompletableFuture<>();
  public final CompletableFuture<Metadata> responseHeaders = new CompletableFuture<>();
  private final StreamObserver<ClientMessage> requests;

  public FakeClient(Channel channel, Metadata headers,
      Function<ServerMessage, Optional<ClientMessage>> behaviour) {
    Channel ch = ClientInterceptors.intercept(channel, new io.grpc.ClientInterceptor() {
      @Override
      public <Q, R> ClientCall<Q, R> interceptCall(MethodDescriptor<Q, R> method,
          CallOptions options, Channel next) {
        return new ForwardingClientCall.SimpleForwardingClientCall<>(
            next.newCall(method, options)) {
          @Override
          public void start(Listener<R> listener, Metadata h) {
            h.merge(headers);
            super.start(new ForwardingClientCallListener.SimpleForwardingClientCallListener<>(
                listener) {
              @Override
              public void onHeaders(Metadata m) {
                responseHeaders.complete(m);
                super.onHeaders(m);
              }
            }, h);
          }
        };
      }
    });
    ClientCall<ClientMessage, ServerMessage> call = ch.newCall(FlowerRpc.JOIN,
        CallOptions.DEFAULT);
    FakeClient self = this;
    requests = ClientCalls.asyncBidiStreamingCall(call, new StreamObserver<>() {
      @Override
      public void onNext(ServerMessage m) {
        self.onMessage(m, behaviour);
      }

      @Override
      public void onError(Throwable t) {
        closed.complete(Status.fromThrowable(t));
      }

      @Override
      public void onCompleted() {
        closed.complete(Status.OK);
      }
    });
  }

  private synchronized void onMessage(ServerMessage m,
      Function<ServerMessage, Optional<ClientMessage>> behaviour) {
    received.add(m);
    if (m.hasReconnectIns()) {
      requests.onNext(ClientMessage.newBuilder().setDisconnectRes(ClientMessage.DisconnectRes
          .newBuilder().setReason(Reason.RECONNECT)).build());
      requests.onCompleted();
      return;
    }
    Optional<ClientMessage> answer = behaviour.apply(m);
    if (answer == null) {
      return; // stays silent
    }
    if (answer.isPresent()) {
      requests.onNext(answer.get());
    } else {
      requests.onError(Status.CANCELLED.withDescription("client died").asRuntimeException());
    }
  }

  public static Metadata noHeaders() {
    return new Metadata();
  }

  public static Metadata tensorTypes(String value) {
    Metadata m = new Metadata();
    m.put(TensorTypes.HEADER, value);
    return m;
  }

  public static Metadata bearer(String token) {
    Metadata m = new Metadata();
    m.put(Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER), "Bearer " + token);
    return m;
  }
}
