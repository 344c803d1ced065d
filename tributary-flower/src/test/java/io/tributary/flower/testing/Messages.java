package io.tributary.flower.testing;

import io.tributary.flower.Scalar;
import io.tributary.flower.internal.ParametersWire;
import io.tributary.flower.internal.ScalarCodec;
import io.tributary.flower.internal.proto.ClientMessage;
import io.tributary.flower.internal.proto.ServerMessage;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.serialization.SerializationException;
import io.tributary.tensor.serialization.SerializerRegistry;
import java.util.List;
import java.util.Map;

/** Server instructions for tests, and readers of client answers. */
public final class Messages {
  private static final SerializerRegistry REGISTRY = SerializerRegistry.load();

  private Messages() {}

  public static ServerMessage reconnect(long seconds) {
    return ServerMessage.newBuilder().setReconnectIns(
        ServerMessage.ReconnectIns.newBuilder().setSeconds(seconds)).build();
  }

  public static ServerMessage getProperties(Map<String, Scalar> config) {
    return ServerMessage.newBuilder().setGetPropertiesIns(ServerMessage.GetPropertiesIns
        .newBuilder().putAllConfig(ScalarCodec.toProto(config))).build();
  }

  public static ServerMessage getParameters() {
    return ServerMessage.newBuilder().setGetParametersIns(
        ServerMessage.GetParametersIns.getDefaultInstance()).build();
  }

  public static ServerMessage fit(List<Tensor> params, Map<String, Scalar> config) {
    return ServerMessage.newBuilder().setFitIns(ServerMessage.FitIns.newBuilder()
        .setParameters(numpy(params)).putAllConfig(ScalarCodec.toProto(config))).build();
  }

  public static ServerMessage evaluate(List<Tensor> params, Map<String, Scalar> config) {
    return ServerMessage.newBuilder().setEvaluateIns(ServerMessage.EvaluateIns.newBuilder()
        .setParameters(numpy(params)).putAllConfig(ScalarCodec.toProto(config))).build();
  }

  /** Parameters as a Python server sends them: NPY bytes, {@code numpy.ndarray}. */
  public static io.tributary.flower.internal.proto.Parameters numpy(
      List<Tensor> params) {
    try {
      return ParametersWire.encode(REGISTRY.forType("numpy.ndarray"), params);
    } catch (SerializationException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The tensors of a client's parameters, whatever their type. */
  public static List<Tensor> tensors(
      io.tributary.flower.internal.proto.Parameters p) {
    try {
      return ParametersWire.decode(REGISTRY, p);
    } catch (SerializationException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The kind of each answer, in order. */
  public static List<ClientMessage.MsgCase> kinds(List<ClientMessage> answers) {
    return answers.stream().map(ClientMessage::getMsgCase).toList();
  }
}
