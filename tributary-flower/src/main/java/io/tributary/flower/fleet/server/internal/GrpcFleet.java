package io.tributary.flower.fleet.server.internal;

import io.grpc.Attributes;
import io.grpc.Context;
import io.grpc.Contexts;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.ServerBuilder;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.ServerServiceDefinition;
import io.grpc.ServerTransportFilter;
import io.grpc.Status;
import io.grpc.stub.ServerCalls;
import io.tributary.flower.fleet.internal.FleetRpc;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;

/**
 * The Fleet API as the gRPC service {@code flwr.proto.Fleet} (grpc-rere, Flower 1.27-1.42), on
 * the method descriptors the node side uses, behind the check Flower's SuperLink makes of every
 * call: the node's signed timestamp ({@link NodeSignatures}); the key it proves is the caller's,
 * to which the node id every call names must belong.
 */
public final class GrpcFleet {
  private static final Metadata.Key<byte[]> PUBLIC_KEY =
      Metadata.Key.of("flwr-public-key-bin", Metadata.BINARY_BYTE_MARSHALLER);
  private static final Metadata.Key<byte[]> SIGNATURE =
      Metadata.Key.of("flwr-signature-bin", Metadata.BINARY_BYTE_MARSHALLER);
  private static final Metadata.Key<String> TIMESTAMP =
      Metadata.Key.of("flwr-timestamp", Metadata.ASCII_STRING_MARSHALLER);
  private static final Context.Key<byte[]> CALLER_KEY = Context.key("flwr-caller-key");
  private static final Attributes.Key<ProvenKeys> PROVEN =
      Attributes.Key.create("tributary-fleet-proven-keys");

  private GrpcFleet() {}

  /**
   * The keys whose signature one connection has checked out: later calls on that connection
   * under the same key skip the ECDSA verification (the time window is still checked). A
   * signature covers only its timestamp, never the call, so it proves who opened the connection
   * and nothing per call; on the connection that proved it, checking it again proves nothing
   * more, while costing the server about a millisecond per call (SECP384R1), most of its work
   * with many nodes polling. A new connection proves its key anew. Few keys per connection
   * (a SuperNode has one); beyond {@link #MAX} every call is verified.
   */
  private static final class ProvenKeys {
    static final int MAX = 8;
    private final Map<ByteBuffer, byte[]> keys = new HashMap<>();

    synchronized byte[] get(byte[] pem) {
      return keys.get(ByteBuffer.wrap(pem));
    }

    synchronized void add(byte[] pem, byte[] der) {
      if (keys.size() < MAX) {
        keys.put(ByteBuffer.wrap(pem.clone()), der);
      }
    }
  }

  /**
   * Gives each connection its own record of proven keys; the server builder of
   * {@link #service} must add it.
   */
  public static ServerTransportFilter transportFilter() {
    return new ServerTransportFilter() {
      @Override
      public Attributes transportReady(Attributes attributes) {
        return attributes.toBuilder().set(PROVEN, new ProvenKeys()).build();
      }
    };
  }

  /**
   * Serves {@code service} on {@code b}: the service behind the signature check, each
   * connection's record of proven keys, and a virtual thread per call. A node's
   * {@code PushMessages} may wait for the read-ahead budget, and a thousand waiting nodes must
   * not hold a thousand platform threads (gRPC's default executor would start one per call).
   * Nothing is pooled, so nothing needs stopping after the server.
   */
  public static void serve(ServerBuilder<?> b, FleetService service) {
    b.executor(Executors.newVirtualThreadPerTaskExecutor());
    b.addService(service(service));
    b.addTransportFilter(transportFilter());
  }

  /** The service over {@code service}, behind the signature check. */
  public static ServerServiceDefinition service(FleetService service) {
    ServerServiceDefinition def = ServerServiceDefinition.builder(FleetRpc.SERVICE)
        .addMethod(FleetRpc.REGISTER_NODE, unary(service, FleetCall.REGISTER_NODE))
        .addMethod(FleetRpc.ACTIVATE_NODE, unary(service, FleetCall.ACTIVATE_NODE))
        .addMethod(FleetRpc.DEACTIVATE_NODE, unary(service, FleetCall.DEACTIVATE_NODE))
        .addMethod(FleetRpc.UNREGISTER_NODE, unary(service, FleetCall.UNREGISTER_NODE))
        .addMethod(FleetRpc.HEARTBEAT, unary(service, FleetCall.SEND_NODE_HEARTBEAT))
        .addMethod(FleetRpc.PULL_MESSAGES, unary(service, FleetCall.PULL_MESSAGES))
        .addMethod(FleetRpc.PUSH_MESSAGES, unary(service, FleetCall.PUSH_MESSAGES))
        .addMethod(FleetRpc.GET_RUN, unary(service, FleetCall.GET_RUN))
        .addMethod(FleetRpc.GET_FAB, unary(service, FleetCall.GET_FAB))
        .addMethod(FleetRpc.PUSH_OBJECT, unary(service, FleetCall.PUSH_OBJECT))
        .addMethod(FleetRpc.PULL_OBJECT, unary(service, FleetCall.PULL_OBJECT))
        .addMethod(FleetRpc.CONFIRM_MESSAGE_RECEIVED,
            unary(service, FleetCall.CONFIRM_MESSAGE_RECEIVED))
        .build();
    return ServerInterceptors.intercept(def, new Check());
  }

  private static <Q extends com.google.protobuf.Message, R extends com.google.protobuf.Message>
      ServerCallHandler<Q, R> unary(FleetService service, FleetCall call) {
    return ServerCalls.asyncUnaryCall((request, out) -> {
      byte[] key = CALLER_KEY.get();
      // Only PushMessages waits (for the read-ahead budget): a node that cancels it, or whose
      // connection drops, must not be held online by a call nobody waits for any more.
      CallWatch watch = call == FleetCall.PUSH_MESSAGES ? CallWatch.start() : null;
      try {
        @SuppressWarnings("unchecked")
        R res = (R) call.invoke(service, request,
            new FleetService.Caller(Optional.ofNullable(key)));
        out.onNext(res);
        out.onCompleted();
      } catch (FleetCallException e) {
        out.onError(status(e).asRuntimeException());
      } finally {
        if (watch != null) {
          watch.stop();
        }
      }
    });
  }

  /**
   * Interrupts the thread serving a call when the call's context is cancelled (the client
   * cancelled it, or its connection closed), until {@link #stop}; so a call waiting for
   * admission ends ({@link FleetNode}).
   */
  private static final class CallWatch implements Context.CancellationListener {
    private final Context context = Context.current();
    private final Thread thread = Thread.currentThread();
    private boolean serving = true;

    static CallWatch start() {
      CallWatch w = new CallWatch();
      w.context.addListener(w, Runnable::run);
      return w;
    }

    @Override
    public synchronized void cancelled(Context c) {
      if (serving) {
        thread.interrupt();
      }
    }

    synchronized void stop() {
      serving = false;
      context.removeListener(this);
      // A cancellation that came after the call's work was done must not reach the thread's
      // next task.
      Thread.interrupted();
    }
  }

  private static Status status(FleetCallException e) {
    Status s = switch (e.code()) {
      case INVALID_ARGUMENT -> Status.INVALID_ARGUMENT;
      case UNAUTHENTICATED -> Status.UNAUTHENTICATED;
      case PERMISSION_DENIED -> Status.PERMISSION_DENIED;
      case NOT_FOUND -> Status.NOT_FOUND;
      case FAILED_PRECONDITION -> Status.FAILED_PRECONDITION;
      case RESOURCE_EXHAUSTED -> Status.RESOURCE_EXHAUSTED;
      case UNAVAILABLE -> Status.UNAVAILABLE;
    };
    return s.withDescription(e.getMessage());
  }

  /**
   * Checks every call's signature before it reaches the service, as Flower's SuperLink (once per
   * connection and key: {@link ProvenKeys}).
   */
  private static final class Check implements ServerInterceptor {
    @Override
    public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
        ServerCallHandler<Q, R> next) {
      MethodDescriptor<Q, R> m = call.getMethodDescriptor();
      byte[] key;
      byte[] pem = headers.get(PUBLIC_KEY);
      String timestamp = headers.get(TIMESTAMP);
      byte[] signature = headers.get(SIGNATURE);
      ProvenKeys proven = call.getAttributes().get(PROVEN);
      try {
        key = proven == null || pem == null ? null : proven.get(pem);
        if (key != null) {
          NodeSignatures.checkProven(pem, timestamp, signature, Instant.now());
        } else {
          key = NodeSignatures.verify(pem, timestamp, signature, Instant.now());
          if (proven != null) {
            proven.add(pem, key);
          }
        }
      } catch (FleetCallException e) {
        call.close(Status.UNAUTHENTICATED.withDescription(e.getMessage() + " ("
            + m.getBareMethodName() + ")"), new Metadata());
        return new ServerCall.Listener<>() { };
      }
      return Contexts.interceptCall(Context.current().withValue(CALLER_KEY, key), call, headers,
          next);
    }
  }
}
