package io.tributary.flower.server.internal;

import io.grpc.Context;
import io.grpc.Contexts;
import io.grpc.ForwardingServerCall;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import io.tributary.flower.TensorTypes;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Negotiates each stream's {@code tensor_type} from the client's {@value TensorTypes#HEADER_NAME}
 * header, answers with the chosen type in the response header, and hands it to the stream
 * handler; a client that reads none of the server's types is refused with FAILED_PRECONDITION
 * before it is registered.
 */
public final class TensorTypeInterceptor implements ServerInterceptor {
  private static final Logger LOG = LoggerFactory.getLogger(TensorTypeInterceptor.class);

  /** The negotiated type of the current call. */
  static final Context.Key<String> NEGOTIATED = Context.key("flwr-tensor-type");
  /** Whether the current call is a relay's ({@link io.tributary.flower.internal.EdgeHeader}). */
  static final Context.Key<Boolean> RELAY = Context.key("tributary-edge");

  private final List<String> supported;

  public TensorTypeInterceptor(List<String> supported) {
    this.supported = List.copyOf(supported);
  }

  @Override
  public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
      ServerCallHandler<Q, R> next) {
    List<String> announced = TensorTypes.parse(headers.get(TensorTypes.HEADER));
    String chosen;
    try {
      chosen = TensorTypes.choose(announced, supported);
    } catch (IllegalArgumentException e) {
      LOG.warn("refused a client: {}", e.getMessage());
      call.close(Status.FAILED_PRECONDITION.withDescription(e.getMessage()), new Metadata());
      return new ServerCall.Listener<>() {};
    }
    ServerCall<Q, R> answering = new ForwardingServerCall.SimpleForwardingServerCall<>(call) {
      @Override
      public void sendHeaders(Metadata responseHeaders) {
        responseHeaders.put(TensorTypes.HEADER, chosen);
        super.sendHeaders(responseHeaders);
      }
    };
    return Contexts.interceptCall(Context.current().withValue(NEGOTIATED, chosen)
        .withValue(RELAY, io.tributary.flower.internal.EdgeHeader.announcesRelay(headers)),
        answering, headers, next);
  }
}
