package io.tributary.flower.server.internal;

import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.ServerCalls;
import io.grpc.stub.StreamObserver;
import io.tributary.flower.TensorTypes;
import io.tributary.flower.internal.proto.ClientMessage;
import io.tributary.flower.internal.proto.ServerMessage;
import java.util.concurrent.ScheduledExecutorService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Handles {@code FlowerService.Join}: each stream becomes a {@link ClientProxy} with a fresh id,
 * registered with the {@link ClientManager} until the stream ends.
 */
public final class JoinService implements ServerCalls.BidiStreamingMethod<ClientMessage,
    ServerMessage> {
  private static final Logger LOG = LoggerFactory.getLogger(JoinService.class);

  private final ClientManager manager;
  private final ScheduledExecutorService timer;
  private final Traffic traffic;
  private final int maxMessageSize;
  private final OutboundBudget budget;
  private final InboundBudget inbound;

  public JoinService(ClientManager manager, ScheduledExecutorService timer, Traffic traffic,
      int maxMessageSize, OutboundBudget budget, InboundBudget inbound) {
    this.manager = manager;
    this.budget = budget;
    this.inbound = inbound;
    this.maxMessageSize = maxMessageSize;
    this.timer = timer;
    this.traffic = traffic;
  }

  @Override
  public StreamObserver<ClientMessage> invoke(StreamObserver<ServerMessage> responseObserver) {
    String type = TensorTypeInterceptor.NEGOTIATED.get();
    long seq = manager.nextSequence();
    var out = (ServerCallStreamObserver<ServerMessage>) responseObserver;
    // Inbound flow control: a message is read only when the proxy asks for one (see ClientProxy).
    out.disableAutoRequest();
    boolean relay = Boolean.TRUE.equals(TensorTypeInterceptor.RELAY.get());
    // A relay's id says so, in the round's failure reasons too.
    ClientProxy proxy = new ClientProxy((relay ? "relay-" : "client-") + seq,
        type == null ? TensorTypes.DEFAULT : type, out, timer, traffic, manager::unregister,
        maxMessageSize, budget, inbound, relay);
    out.setOnReadyHandler(proxy::onReady);
    manager.register(seq, proxy);
    LOG.info("{} {} joined (tensor_type {})", relay ? "relay" : "client", proxy.id(),
        proxy.tensorType());
    return new StreamObserver<>() {
      @Override
      public void onNext(ClientMessage value) {
        proxy.received(value);
      }

      @Override
      public void onError(Throwable t) {
        proxy.streamEnded(t);
      }

      @Override
      public void onCompleted() {
        proxy.streamEnded(null);
      }
    };
  }
}
