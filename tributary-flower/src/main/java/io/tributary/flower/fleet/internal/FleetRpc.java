package io.tributary.flower.fleet.internal;

import com.google.protobuf.MessageLite;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.MethodDescriptor;
import io.grpc.protobuf.ProtoUtils;
import io.grpc.stub.ClientCalls;
import io.tributary.flower.fleet.internal.proto.ActivateNodeRequest;
import io.tributary.flower.fleet.internal.proto.ActivateNodeResponse;
import io.tributary.flower.fleet.internal.proto.ConfirmMessageReceivedRequest;
import io.tributary.flower.fleet.internal.proto.ConfirmMessageReceivedResponse;
import io.tributary.flower.fleet.internal.proto.DeactivateNodeRequest;
import io.tributary.flower.fleet.internal.proto.DeactivateNodeResponse;
import io.tributary.flower.fleet.internal.proto.GetFabRequest;
import io.tributary.flower.fleet.internal.proto.GetFabResponse;
import io.tributary.flower.fleet.internal.proto.GetRunRequest;
import io.tributary.flower.fleet.internal.proto.GetRunResponse;
import io.tributary.flower.fleet.internal.proto.PullMessagesRequest;
import io.tributary.flower.fleet.internal.proto.PullMessagesResponse;
import io.tributary.flower.fleet.internal.proto.PullObjectRequest;
import io.tributary.flower.fleet.internal.proto.PullObjectResponse;
import io.tributary.flower.fleet.internal.proto.PushMessagesRequest;
import io.tributary.flower.fleet.internal.proto.PushMessagesResponse;
import io.tributary.flower.fleet.internal.proto.PushObjectRequest;
import io.tributary.flower.fleet.internal.proto.PushObjectResponse;
import io.tributary.flower.fleet.internal.proto.RegisterNodeFleetRequest;
import io.tributary.flower.fleet.internal.proto.RegisterNodeFleetResponse;
import io.tributary.flower.fleet.internal.proto.SendNodeHeartbeatRequest;
import io.tributary.flower.fleet.internal.proto.SendNodeHeartbeatResponse;
import io.tributary.flower.fleet.internal.proto.UnregisterNodeFleetRequest;
import io.tributary.flower.fleet.internal.proto.UnregisterNodeFleetResponse;
import java.util.concurrent.TimeUnit;

/**
 * The unary calls of {@code flwr.proto.Fleet} (Flower 1.27's {@code fleet.proto}), described for
 * grpc-java by hand, as {@link io.tributary.flower.internal.FlowerRpc} does for the legacy service,
 * and a blocking client of them.
 */
public final class FleetRpc {
  public static final String SERVICE = "flwr.proto.Fleet";

  static <Q extends MessageLite, R extends MessageLite> MethodDescriptor<Q, R> unary(String name,
      Q req, R res) {
    return MethodDescriptor.<Q, R>newBuilder()
        .setType(MethodDescriptor.MethodType.UNARY)
        .setFullMethodName(MethodDescriptor.generateFullMethodName(SERVICE, name))
        .setRequestMarshaller(marshaller(req))
        .setResponseMarshaller(marshaller(res))
        .build();
  }

  @SuppressWarnings("unchecked")
  private static <T extends MessageLite> MethodDescriptor.Marshaller<T> marshaller(T t) {
    return (MethodDescriptor.Marshaller<T>) ProtoUtils.marshaller((com.google.protobuf.Message) t);
  }

  public static final MethodDescriptor<RegisterNodeFleetRequest, RegisterNodeFleetResponse>
      REGISTER_NODE = unary("RegisterNode", RegisterNodeFleetRequest.getDefaultInstance(),
          RegisterNodeFleetResponse.getDefaultInstance());
  public static final MethodDescriptor<ActivateNodeRequest, ActivateNodeResponse> ACTIVATE_NODE =
      unary("ActivateNode", ActivateNodeRequest.getDefaultInstance(),
          ActivateNodeResponse.getDefaultInstance());
  public static final MethodDescriptor<DeactivateNodeRequest, DeactivateNodeResponse>
      DEACTIVATE_NODE = unary("DeactivateNode", DeactivateNodeRequest.getDefaultInstance(),
          DeactivateNodeResponse.getDefaultInstance());
  public static final MethodDescriptor<UnregisterNodeFleetRequest, UnregisterNodeFleetResponse>
      UNREGISTER_NODE = unary("UnregisterNode", UnregisterNodeFleetRequest.getDefaultInstance(),
          UnregisterNodeFleetResponse.getDefaultInstance());
  public static final MethodDescriptor<SendNodeHeartbeatRequest, SendNodeHeartbeatResponse>
      HEARTBEAT = unary("SendNodeHeartbeat", SendNodeHeartbeatRequest.getDefaultInstance(),
          SendNodeHeartbeatResponse.getDefaultInstance());
  public static final MethodDescriptor<PullMessagesRequest, PullMessagesResponse> PULL_MESSAGES =
      unary("PullMessages", PullMessagesRequest.getDefaultInstance(),
          PullMessagesResponse.getDefaultInstance());
  public static final MethodDescriptor<PushMessagesRequest, PushMessagesResponse> PUSH_MESSAGES =
      unary("PushMessages", PushMessagesRequest.getDefaultInstance(),
          PushMessagesResponse.getDefaultInstance());
  public static final MethodDescriptor<GetRunRequest, GetRunResponse> GET_RUN =
      unary("GetRun", GetRunRequest.getDefaultInstance(), GetRunResponse.getDefaultInstance());
  public static final MethodDescriptor<GetFabRequest, GetFabResponse> GET_FAB =
      unary("GetFab", GetFabRequest.getDefaultInstance(), GetFabResponse.getDefaultInstance());
  public static final MethodDescriptor<PushObjectRequest, PushObjectResponse> PUSH_OBJECT =
      unary("PushObject", PushObjectRequest.getDefaultInstance(),
          PushObjectResponse.getDefaultInstance());
  public static final MethodDescriptor<PullObjectRequest, PullObjectResponse> PULL_OBJECT =
      unary("PullObject", PullObjectRequest.getDefaultInstance(),
          PullObjectResponse.getDefaultInstance());
  public static final MethodDescriptor<ConfirmMessageReceivedRequest,
      ConfirmMessageReceivedResponse> CONFIRM_MESSAGE_RECEIVED = unary("ConfirmMessageReceived",
          ConfirmMessageReceivedRequest.getDefaultInstance(),
          ConfirmMessageReceivedResponse.getDefaultInstance());

  private final Channel channel;
  private final long timeoutMillis;

  /** Calls over {@code channel}, each with a deadline of {@code timeoutMillis}. */
  public FleetRpc(Channel channel, long timeoutMillis) {
    this.channel = channel;
    this.timeoutMillis = timeoutMillis;
  }

  /** One blocking call. */
  public <Q, R> R call(MethodDescriptor<Q, R> method, Q request) {
    return ClientCalls.blockingUnaryCall(channel, method,
        CallOptions.DEFAULT.withDeadlineAfter(timeoutMillis, TimeUnit.MILLISECONDS), request);
  }

  /** One blocking call with its own deadline. */
  public <Q, R> R call(MethodDescriptor<Q, R> method, Q request, long millis) {
    return ClientCalls.blockingUnaryCall(channel, method,
        CallOptions.DEFAULT.withDeadlineAfter(millis, TimeUnit.MILLISECONDS), request);
  }
}
