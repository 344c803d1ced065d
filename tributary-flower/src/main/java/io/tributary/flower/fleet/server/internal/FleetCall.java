package io.tributary.flower.fleet.server.internal;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.protobuf.Parser;
import io.tributary.flower.fleet.internal.proto.ActivateNodeRequest;
import io.tributary.flower.fleet.internal.proto.ConfirmMessageReceivedRequest;
import io.tributary.flower.fleet.internal.proto.DeactivateNodeRequest;
import io.tributary.flower.fleet.internal.proto.GetFabRequest;
import io.tributary.flower.fleet.internal.proto.GetRunRequest;
import io.tributary.flower.fleet.internal.proto.PullMessagesRequest;
import io.tributary.flower.fleet.internal.proto.PullObjectRequest;
import io.tributary.flower.fleet.internal.proto.PushMessagesRequest;
import io.tributary.flower.fleet.internal.proto.PushObjectRequest;
import io.tributary.flower.fleet.internal.proto.RegisterNodeFleetRequest;
import io.tributary.flower.fleet.internal.proto.SendNodeHeartbeatRequest;
import io.tributary.flower.fleet.internal.proto.UnregisterNodeFleetRequest;
import java.util.Map;
import java.util.Optional;

/**
 * The twelve Fleet calls by their HTTP names ({@code register-node}, ...), each with its
 * request parser and its handler in {@link FleetService}: what an HTTP transport dispatches on.
 */
public enum FleetCall {
  REGISTER_NODE("register-node", RegisterNodeFleetRequest.parser()),
  ACTIVATE_NODE("activate-node", ActivateNodeRequest.parser()),
  DEACTIVATE_NODE("deactivate-node", DeactivateNodeRequest.parser()),
  UNREGISTER_NODE("unregister-node", UnregisterNodeFleetRequest.parser()),
  SEND_NODE_HEARTBEAT("send-node-heartbeat", SendNodeHeartbeatRequest.parser()),
  PULL_MESSAGES("pull-messages", PullMessagesRequest.parser()),
  PUSH_MESSAGES("push-messages", PushMessagesRequest.parser()),
  GET_RUN("get-run", GetRunRequest.parser()),
  GET_FAB("get-fab", GetFabRequest.parser()),
  PUSH_OBJECT("push-object", PushObjectRequest.parser()),
  PULL_OBJECT("pull-object", PullObjectRequest.parser()),
  CONFIRM_MESSAGE_RECEIVED("confirm-message-received", ConfirmMessageReceivedRequest.parser());

  private static final Map<String, FleetCall> BY_NAME = java.util.Arrays.stream(values())
      .collect(java.util.stream.Collectors.toUnmodifiableMap(FleetCall::httpName, c -> c));

  private final String httpName;
  private final Parser<? extends Message> parser;

  FleetCall(String httpName, Parser<? extends Message> parser) {
    this.httpName = httpName;
    this.parser = parser;
  }

  /** The last part of the call's HTTP path. */
  public String httpName() {
    return httpName;
  }

  /** The call named {@code name} in an HTTP path. */
  public static Optional<FleetCall> byHttpName(String name) {
    return Optional.ofNullable(BY_NAME.get(name));
  }

  /**
   * Parses {@code body} and runs the call.
   *
   * @throws FleetCallException if the body is not the call's request, or the call is refused
   */
  public Message invoke(FleetService s, byte[] body, FleetService.Caller caller)
      throws FleetCallException {
    return invoke(s, parse(body), caller);
  }

  /**
   * The call's request in {@code body}.
   *
   * @throws FleetCallException (INVALID_ARGUMENT) if the body is not the call's request
   */
  public Message parse(byte[] body) throws FleetCallException {
    try {
      return parser.parseFrom(body);
    } catch (InvalidProtocolBufferException e) {
      throw new FleetCallException(FleetCallException.Code.INVALID_ARGUMENT,
          "the body is not a " + httpName + " request: " + e.getMessage());
    }
  }

  /**
   * Runs the call on a parsed request of its type.
   *
   * @throws FleetCallException if the call is refused
   */
  public Message invoke(FleetService s, Message req, FleetService.Caller caller)
      throws FleetCallException {
    return switch (this) {
      case REGISTER_NODE -> s.registerNode((RegisterNodeFleetRequest) req, caller);
      case ACTIVATE_NODE -> s.activateNode((ActivateNodeRequest) req, caller);
      case DEACTIVATE_NODE -> s.deactivateNode((DeactivateNodeRequest) req, caller);
      case UNREGISTER_NODE -> s.unregisterNode((UnregisterNodeFleetRequest) req, caller);
      case SEND_NODE_HEARTBEAT -> s.heartbeat((SendNodeHeartbeatRequest) req, caller);
      case PULL_MESSAGES -> s.pullMessages((PullMessagesRequest) req, caller);
      case PUSH_MESSAGES -> s.pushMessages((PushMessagesRequest) req, caller);
      case GET_RUN -> s.getRun((GetRunRequest) req, caller);
      case GET_FAB -> s.getFab((GetFabRequest) req, caller);
      case PUSH_OBJECT -> s.pushObject((PushObjectRequest) req, caller);
      case PULL_OBJECT -> s.pullObject((PullObjectRequest) req, caller);
      case CONFIRM_MESSAGE_RECEIVED -> s.confirmMessageReceived(
          (ConfirmMessageReceivedRequest) req, caller);
    };
  }
}
