package io.tributary.flower.testing;

import io.grpc.ForwardingServerCall;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Server;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.Status;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.stub.StreamObserver;
import io.tributary.flower.TensorTypes;
import io.tributary.flower.internal.FlowerRpc;
import io.tributary.flower.internal.proto.ClientMessage;
import io.tributary.flower.internal.proto.ServerMessage;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An in-process Flower server that plays one script per {@code Join} stream: it sends each
 * instruction, waits for the client's one answer and records it, and checks that the client
 * never speaks out of turn.
 */
public final class ScriptedServer implements AutoCloseable {
  /** One step of a stream's script. */
  public sealed interface Step {}

  /** Send an instruction and wait for its answer. */
  public record Send(ServerMessage message) implements Step {}

  /** End the stream with an error status. */
  public record Fail(Status status) implements Step {}

  /** Wait, saying nothing, until the client goes away. */
  public record Hang() implements Step {}

  /** What happened on one stream. */
  public record Stream(Metadata headers, List<ClientMessage> answers, List<String> violations,
      long startNanos) {}

  private final String name = InProcessServerBuilder.generateName();
  private final List<List<Step>> scripts;
  private final String responseTensorType;
  private final List<Stream> streams = Collections.synchronizedList(new ArrayList<>());
  private final AtomicInteger next = new AtomicInteger();
  private Server server;

  /**
   * A server playing {@code scripts[k]} on its k-th stream (later streams fail UNAVAILABLE).
   *
   * @param responseTensorType the tensor type to answer in the response header, or null
   */
  public ScriptedServer(String responseTensorType, List<List<Step>> scripts) {
    this.scripts = List.copyOf(scripts);
    this.responseTensorType = responseTensorType;
  }

  /** Starts serving. */
  public ScriptedServer start() throws IOException {
    server = InProcessServerBuilder.forName(name)
        .addService(ServerInterceptors.intercept(FlowerRpc.service(this::join), new Headers()))
        .build().start();
    return this;
  }

  /** Starts serving on a localhost TCP port (see {@link #port()}) with these credentials. */
  public ScriptedServer startTcp(io.grpc.ServerCredentials credentials) throws IOException {
    server = io.grpc.Grpc.newServerBuilderForPort(0, credentials)
        .addService(ServerInterceptors.intercept(FlowerRpc.service(this::join), new Headers()))
        .build().start();
    return this;
  }

  /** The TCP port of a server started with {@link #startTcp}. */
  public int port() {
    return server.getPort();
  }

  /** The in-process name clients connect to. */
  public String name() {
    return name;
  }

  /** A channel to this server. */
  public ManagedChannel channel() {
    return InProcessChannelBuilder.forName(name).build();
  }

  /** The streams so far, in order of arrival. */
  public List<Stream> streams() {
    synchronized (streams) {
      return List.copyOf(streams);
    }
  }

  private final io.grpc.Context.Key<Metadata> headersKey = io.grpc.Context.key("headers");

  private StreamObserver<ClientMessage> join(StreamObserver<ServerMessage> out) {
    int k = next.getAndIncrement();
    Metadata headers = headersKey.get();
    Stream stream = new Stream(headers, Collections.synchronizedList(new ArrayList<>()),
        Collections.synchronizedList(new ArrayList<>()), System.nanoTime());
    streams.add(stream);
    BlockingQueue<Object> in = new LinkedBlockingQueue<>();
    List<Step> script = k < scripts.size() ? scripts.get(k) : List.of(
        new Fail(Status.UNAVAILABLE.withDescription("no script for stream " + k)));
    Thread.ofPlatform().daemon().name("scripted-stream-" + k).start(() -> play(script, in, out,
        stream));
    return new StreamObserver<>() {
      @Override
      public void onNext(ClientMessage m) {
        in.add(m);
      }

      @Override
      public void onError(Throwable t) {
        in.add(Status.fromThrowable(t));
      }

      @Override
      public void onCompleted() {
        in.add(Status.OK);
      }
    };
  }

  private static void play(List<Step> script, BlockingQueue<Object> in,
      StreamObserver<ServerMessage> out, Stream stream) {
    try {
      for (Step step : script) {
        switch (step) {
          case Fail f -> {
            out.onError(f.status().asRuntimeException());
            return;
          }
          case Hang h -> {
            in.take();
            return;
          }
          case Send s -> {
            out.onNext(s.message());
            Object reply = in.poll(20, TimeUnit.SECONDS);
            if (!(reply instanceof ClientMessage m)) {
              stream.violations().add("no answer to " + s.message().getMsgCase() + ": " + reply);
              return;
            }
            stream.answers().add(m);
            if (!in.isEmpty() && in.peek() instanceof ClientMessage extra) {
              stream.violations().add("a second message before the next instruction: "
                  + extra.getMsgCase());
            }
          }
        }
      }
      // After the script (normally ReconnectIns) the client must close its side, and say nothing.
      Object last = in.poll(20, TimeUnit.SECONDS);
      if (last instanceof ClientMessage m) {
        stream.violations().add("message after the script: " + m.getMsgCase());
      }
      out.onCompleted();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (IllegalStateException e) {
      // The client cancelled the stream while a message was being sent: nothing left to do.
    }
  }

  private final class Headers implements ServerInterceptor {
    @Override
    public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
        ServerCallHandler<Q, R> handler) {
      ServerCall<Q, R> withHeader = new ForwardingServerCall.SimpleForwardingServerCall<>(call) {
        @Override
        public void sendHeaders(Metadata h) {
          if (responseTensorType != null) {
            h.put(TensorTypes.HEADER, responseTensorType);
          }
          super.sendHeaders(h);
        }
      };
      return io.grpc.Contexts.interceptCall(io.grpc.Context.current().withValue(headersKey,
          headers), withHeader, headers, handler);
    }
  }

  @Override
  public void close() throws InterruptedException {
    if (server != null) {
      server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
  }
}
