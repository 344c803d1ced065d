package io.tributary.flower.server;

import com.google.protobuf.ByteString;
import io.tributary.flower.internal.ParametersWire;
import io.tributary.flower.internal.proto.ClientMessage;
import io.tributary.flower.internal.proto.ServerMessage;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.TensorBuilder;
import io.tributary.tensor.serialization.NumpyNdarraySerializer;
import io.tributary.tensor.serialization.SerializationException;
import io.tributary.tensor.serialization.SerializerRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/** Client behaviours for the fake clients: honest ones with a known update, and hostile ones. */
public final class Behaviours {
  public static final SerializerRegistry REGISTRY = SerializerRegistry.load();

  private Behaviours() {}

  /** Adds {@code shift} to every parameter, reports {@code examples} and loss {@code shift}. */
  public static Function<ServerMessage, Optional<ClientMessage>> honest(float shift, long examples) {
    return m -> Optional.of(switch (m.getMsgCase()) {
      case FIT_INS -> fitRes(ParametersWire.toProto(npy(shifted(decode(
          m.getFitIns().getParameters()), shift))), examples, shift);
      case EVALUATE_INS -> evaluateRes(shift, examples);
      case GET_PARAMETERS_INS -> ClientMessage.newBuilder().setGetParametersRes(
          ClientMessage.GetParametersRes.newBuilder().setParameters(
              ParametersWire.toProto(npy(List.of(Tensor.ofFloats(
                  io.tributary.tensor.Shape.of(2), shift, shift)))))).build();
      // As a Flower client that does not override get_properties answers.
      case GET_PROPERTIES_INS -> ClientMessage.newBuilder().setGetPropertiesRes(
          ClientMessage.GetPropertiesRes.newBuilder().setStatus(
              io.tributary.flower.internal.proto.Status.newBuilder().setCode(
                  io.tributary.flower.internal.proto.Code.GET_PROPERTIES_NOT_IMPLEMENTED)
                  .setMessage("Client does not implement `get_properties`"))).build();
      default -> throw new IllegalStateException("unexpected " + m.getMsgCase());
    });
  }

  /** Honest except that fit is answered with {@code fit}. */
  public static Function<ServerMessage, Optional<ClientMessage>> fitAnswer(
      Function<ServerMessage, ClientMessage> fit) {
    Function<ServerMessage, Optional<ClientMessage>> honest = honest(0, 1);
    return m -> m.hasFitIns() ? Optional.of(fit.apply(m)) : honest.apply(m);
  }

  /** Never answers a fit (answers everything else honestly). */
  public static Function<ServerMessage, Optional<ClientMessage>> silent() {
    Function<ServerMessage, Optional<ClientMessage>> honest = honest(0, 1);
    return m -> m.hasFitIns() ? null : honest.apply(m);
  }

  /** Dies (cancels its stream) when asked to fit. */
  public static Function<ServerMessage, Optional<ClientMessage>> diesOnFit() {
    Function<ServerMessage, Optional<ClientMessage>> honest = honest(0, 1);
    return m -> m.hasFitIns() ? Optional.empty() : honest.apply(m);
  }

  public static ClientMessage fitRes(io.tributary.flower.internal.proto.Parameters p,
      long examples, float loss) {
    return ClientMessage.newBuilder().setFitRes(ClientMessage.FitRes.newBuilder()
        .setParameters(p).setNumExamples(examples).putMetrics("loss",
            io.tributary.flower.internal.proto.Scalar.newBuilder().setDouble(loss).build()))
        .build();
  }

  public static ClientMessage evaluateRes(float loss, long examples) {
    return ClientMessage.newBuilder().setEvaluateRes(ClientMessage.EvaluateRes.newBuilder()
        .setLoss(loss).setNumExamples(examples)).build();
  }

  /** Parameters of one tensor whose bytes are {@code bytes}. */
  public static io.tributary.flower.internal.proto.Parameters raw(String type,
      byte[] bytes) {
    return io.tributary.flower.internal.proto.Parameters.newBuilder()
        .setTensorType(type).addTensors(ByteString.copyFrom(bytes)).build();
  }

  public static List<Tensor> decode(io.tributary.flower.internal.proto.Parameters p) {
    try {
      return ParametersWire.decode(REGISTRY, p);
    } catch (SerializationException e) {
      throw new IllegalStateException(e);
    }
  }

  public static io.tributary.tensor.serialization.Parameters npy(List<Tensor> tensors) {
    try {
      return new NumpyNdarraySerializer().serialize(tensors);
    } catch (SerializationException e) {
      throw new IllegalStateException(e);
    }
  }

  public static List<Tensor> shifted(List<Tensor> tensors, float shift) {
    List<Tensor> out = new ArrayList<>();
    for (Tensor t : tensors) {
      TensorBuilder b = TensorBuilder.allocate(t.dtype(), t.shape());
      for (long i = 0; i < t.size(); i++) {
        b.setFloat(i, t.getFloat(i) + shift);
      }
      out.add(b.build());
    }
    return out;
  }
}
