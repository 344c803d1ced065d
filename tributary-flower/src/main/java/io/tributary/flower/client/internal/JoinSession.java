package io.tributary.flower.client.internal;

import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.Metadata;
import io.grpc.Status;
import io.tributary.flower.TensorTypes;
import io.tributary.flower.internal.FlowerRpc;
import io.tributary.flower.internal.proto.ClientMessage;
import io.tributary.flower.internal.proto.ServerMessage;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * One {@code Join} stream, driven from a single thread: gRPC's callbacks only queue events, and
 * the owner takes them one by one. The stream asks for one server message at a time and the next
 * only after the answer is sent, which is Flower's one-message-each-way rule.
 */
public final class JoinSession {
  /** What happened on the stream. */
  public sealed interface Event {}

  /** The server sent an instruction. */
  public record Message(ServerMessage message) implements Event {}

  /** The stream ended, normally or not. */
  public record Closed(Status status) implements Event {}

  /** The owner was asked to stop (queued by another thread). */
  public record StopRequested() implements Event {}

  private final ClientCall<ClientMessage, ServerMessage> call;
  private final BlockingQueue<Event> events = new LinkedBlockingQueue<>();
  private volatile String chosenType;
  private boolean closed;

  private JoinSession(ClientCall<ClientMessage, ServerMessage> call) {
    this.call = call;
  }

  /** Opens a stream on {@code channel} with these request headers and asks for a message. */
  public static JoinSession open(Channel channel, CallOptions options, Metadata headers) {
    JoinSession s = new JoinSession(channel.newCall(FlowerRpc.JOIN, options));
    s.call.start(s.new Listener(), headers);
    s.call.request(1);
    return s;
  }

  /** The next event, waiting for it. */
  public Event take() throws InterruptedException {
    Event e = events.take();
    if (e instanceof Closed) {
      closed = true;
    }
    return e;
  }

  /** The next event within {@code timeout}, or null. */
  public Event poll(Duration timeout) throws InterruptedException {
    Event e = events.poll(timeout.toNanos(), TimeUnit.NANOSECONDS);
    if (e instanceof Closed) {
      closed = true;
    }
    return e;
  }

  /** Sends an answer and asks for the next instruction. */
  public void send(ClientMessage m) {
    call.sendMessage(m);
    call.request(1);
  }

  /** Sends the last answer and says the client sends nothing more. */
  public void sendLast(ClientMessage m) {
    call.sendMessage(m);
    call.halfClose();
  }

  /** Ends the stream from this side, unless it has already ended. */
  public void cancel(String why) {
    if (!closed) {
      call.cancel(why, null);
    }
  }

  /** Queues a stop request for the owner; safe from any thread. */
  public void requestStop() {
    events.add(new StopRequested());
  }

  /**
   * The tensor type the server said it sends this client, from the response header; null when
   * the server sent no such header (Python Flower) or has not answered yet.
   */
  public String chosenType() {
    return chosenType;
  }

  private final class Listener extends ClientCall.Listener<ServerMessage> {
    @Override
    public void onHeaders(Metadata headers) {
      String v = headers.get(TensorTypes.HEADER);
      if (v != null) {
        var types = TensorTypes.parse(v);
        chosenType = types.isEmpty() ? null : types.get(0);
      }
    }

    @Override
    public void onMessage(ServerMessage message) {
      events.add(new Message(message));
    }

    @Override
    public void onClose(Status status, Metadata trailers) {
      events.add(new Closed(status));
    }
  }
}
