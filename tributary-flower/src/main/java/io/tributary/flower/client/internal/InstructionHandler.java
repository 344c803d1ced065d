package io.tributary.flower.client.internal;

import io.tributary.flower.EvaluateIns;
import io.tributary.flower.EvaluateRes;
import io.tributary.flower.FitIns;
import io.tributary.flower.FitRes;
import io.tributary.flower.FlowerClient;
import io.tributary.flower.FlowerClientException;
import io.tributary.flower.OperationNotImplementedException;
import io.tributary.flower.internal.MalformedMessageException;
import io.tributary.flower.internal.ParametersWire;
import io.tributary.flower.internal.ScalarCodec;
import io.tributary.flower.internal.proto.ClientMessage;
import io.tributary.flower.internal.proto.Code;
import io.tributary.flower.internal.proto.Reason;
import io.tributary.flower.internal.proto.ServerMessage;
import io.tributary.flower.internal.proto.Status;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.serialization.SerializationException;
import io.tributary.tensor.serialization.SerializerRegistry;
import java.util.List;
import java.util.OptionalLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns one {@link ServerMessage} into the one {@link ClientMessage} that answers it, by calling
 * the {@link FlowerClient}.
 *
 * <p>Nothing the server sends and nothing the client throws (short of an {@link Error}) escapes:
 * a malformed instruction or a failed operation is logged with its reason and answered with the
 * operation's non-OK status, since Flower's {@code Code} enum has no generic error value and
 * Flower servers count any non-OK result as a failure.
 */
public final class InstructionHandler {
  private static final Logger log = LoggerFactory.getLogger(InstructionHandler.class);
  static final String OK_MESSAGE = "Success";

  /**
   * The answer to an instruction.
   *
   * @param message the message to send
   * @param reconnectSeconds present when the instruction was {@code ReconnectIns}: 0 to stop,
   *     else the seconds to wait before joining again
   */
  public record Reply(ClientMessage message, OptionalLong reconnectSeconds) {}

  private final FlowerClient client;
  private final SerializerRegistry registry;

  public InstructionHandler(FlowerClient client, SerializerRegistry registry) {
    this.client = client;
    this.registry = registry;
  }

  /** The answer to {@code m}; tensors the client returns are written as {@code sendType}. */
  public Reply handle(ServerMessage m, String sendType) {
    return switch (m.getMsgCase()) {
      case RECONNECT_INS -> reconnect(m.getReconnectIns().getSeconds());
      case GET_PROPERTIES_INS -> new Reply(getProperties(m.getGetPropertiesIns()),
          OptionalLong.empty());
      case GET_PARAMETERS_INS -> new Reply(getParameters(m.getGetParametersIns(), sendType),
          OptionalLong.empty());
      case FIT_INS -> new Reply(fit(m.getFitIns(), sendType), OptionalLong.empty());
      case EVALUATE_INS -> new Reply(evaluate(m.getEvaluateIns()), OptionalLong.empty());
      case MSG_NOT_SET -> {
        // An instruction this client does not know (empty, or from a newer protocol): there is
        // no matching result message, and the one-for-one rule still wants an answer.
        log.warn("the server sent an instruction this client does not know (no known field set, "
            + "{} unknown bytes); answering DisconnectRes(UNKNOWN)", m.getUnknownFields()
            .getSerializedSize());
        yield new Reply(disconnect(Reason.UNKNOWN), OptionalLong.empty());
      }
    };
  }

  private static Reply reconnect(long seconds) {
    if (seconds < 0) {
      log.warn("ReconnectIns with negative seconds {}: treated as 0, disconnect", seconds);
    }
    return new Reply(disconnect(Reason.RECONNECT), OptionalLong.of(Math.max(0, seconds)));
  }

  private static ClientMessage disconnect(Reason reason) {
    return ClientMessage.newBuilder()
        .setDisconnectRes(ClientMessage.DisconnectRes.newBuilder().setReason(reason)).build();
  }

  private ClientMessage getProperties(ServerMessage.GetPropertiesIns ins) {
    var res = ClientMessage.GetPropertiesRes.newBuilder();
    try {
      var properties = client.getProperties(ScalarCodec.fromProto(ins.getConfigMap()));
      res.putAllProperties(ScalarCodec.toProto(properties)).setStatus(ok());
    } catch (MalformedMessageException | FlowerClientException | RuntimeException e) {
      res.setStatus(failure("get_properties", Code.GET_PROPERTIES_NOT_IMPLEMENTED, e));
    }
    return ClientMessage.newBuilder().setGetPropertiesRes(res).build();
  }

  private ClientMessage getParameters(ServerMessage.GetParametersIns ins, String sendType) {
    var res = ClientMessage.GetParametersRes.newBuilder();
    try {
      List<Tensor> params = client.getParameters(ScalarCodec.fromProto(ins.getConfigMap()));
      res.setParameters(ParametersWire.encode(registry.forType(sendType), params)).setStatus(ok());
    } catch (MalformedMessageException | FlowerClientException | SerializationException
        | RuntimeException e) {
      res.setStatus(failure("get_parameters", Code.GET_PARAMETERS_NOT_IMPLEMENTED, e));
    }
    return ClientMessage.newBuilder().setGetParametersRes(res).build();
  }

  private ClientMessage fit(ServerMessage.FitIns ins, String sendType) {
    var res = ClientMessage.FitRes.newBuilder();
    try {
      FitIns in = new FitIns(decode("fit", ins.getParameters()),
          ScalarCodec.fromProto(ins.getConfigMap()));
      long t0 = System.nanoTime();
      FitRes out = client.fit(in);
      res.setParameters(ParametersWire.encode(registry.forType(sendType), out.parameters()))
          .setNumExamples(out.numExamples())
          .putAllMetrics(ScalarCodec.toProto(out.metrics()))
          .setStatus(ok());
      log.info("fit: {} tensors in, {} out as {}, {} examples, {} ms, metrics {}",
          in.parameters().size(), out.parameters().size(), sendType, out.numExamples(),
          (System.nanoTime() - t0) / 1_000_000, out.metrics());
    } catch (MalformedMessageException | FlowerClientException | SerializationException
        | RuntimeException e) {
      res.clear().setStatus(failure("fit", Code.FIT_NOT_IMPLEMENTED, e));
    }
    return ClientMessage.newBuilder().setFitRes(res).build();
  }

  private ClientMessage evaluate(ServerMessage.EvaluateIns ins) {
    var res = ClientMessage.EvaluateRes.newBuilder();
    try {
      EvaluateIns in = new EvaluateIns(decode("evaluate", ins.getParameters()),
          ScalarCodec.fromProto(ins.getConfigMap()));
      EvaluateRes out = client.evaluate(in);
      res.setLoss(out.loss()).setNumExamples(out.numExamples())
          .putAllMetrics(ScalarCodec.toProto(out.metrics())).setStatus(ok());
      log.info("evaluate: loss {}, {} examples, metrics {}", out.loss(), out.numExamples(),
          out.metrics());
    } catch (MalformedMessageException | FlowerClientException | RuntimeException e) {
      res.clear().setStatus(failure("evaluate", Code.EVALUATE_NOT_IMPLEMENTED, e));
    }
    return ClientMessage.newBuilder().setEvaluateRes(res).build();
  }

  private List<Tensor> decode(String op,
      io.tributary.flower.internal.proto.Parameters p)
      throws MalformedMessageException {
    List<Tensor> tensors;
    try {
      tensors = ParametersWire.decode(registry, p);
    } catch (SerializationException e) {
      throw new MalformedMessageException(op + ": the server's parameters (tensor_type '"
          + p.getTensorType() + "') cannot be read: " + e.getMessage(), e);
    }
    // A model with NaN or infinite values is refused before the client trains on it.
    java.util.Optional<String> nonFinite = io.tributary.tensor.Finite.problem(tensors, null);
    if (nonFinite.isPresent()) {
      throw new MalformedMessageException(op + ": the server's parameters are not finite: "
          + nonFinite.get(), null);
    }
    return tensors;
  }

  private static Status ok() {
    return Status.newBuilder().setCode(Code.OK).setMessage(OK_MESSAGE).build();
  }

  private static Status failure(String op, Code code, Exception e) {
    if (e instanceof OperationNotImplementedException) {
      log.info("{}: not implemented by this client; answering {}", op, code);
      return Status.newBuilder().setCode(code).setMessage(e.getMessage()).build();
    }
    String reason = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    if (e instanceof RuntimeException) {
      // One line at WARN; the stack trace only for those who ask for DEBUG.
      log.warn("{} failed with an unexpected {}: {}; answering {} with the reason", op,
          e.getClass().getName(), reason.replaceAll("\\R", " "), code);
      log.debug("{} failed", op, e);
    } else {
      log.warn("{} failed: {}; answering {} with the reason", op, reason, code);
    }
    return Status.newBuilder().setCode(code).setMessage("error: " + reason).build();
  }
}
