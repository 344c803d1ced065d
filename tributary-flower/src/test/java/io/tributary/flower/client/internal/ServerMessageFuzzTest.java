package io.tributary.flower.client.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.grpc.StatusRuntimeException;
import io.tributary.flower.EvaluateIns;
import io.tributary.flower.EvaluateRes;
import io.tributary.flower.FitIns;
import io.tributary.flower.FitRes;
import io.tributary.flower.FlowerClient;
import io.tributary.flower.Scalar;
import io.tributary.flower.internal.FlowerRpc;
import io.tributary.flower.internal.MalformedMessageException;
import io.tributary.flower.internal.ParametersWire;
import io.tributary.flower.internal.ScalarCodec;
import io.tributary.flower.internal.proto.ClientMessage;
import io.tributary.flower.internal.proto.Code;
import io.tributary.flower.internal.proto.ServerMessage;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.serialization.SerializationException;
import io.tributary.tensor.serialization.SerializerRegistry;
import java.io.ByteArrayInputStream;
import java.util.List;
import java.util.Map;

/**
 * Fuzzes what the client decodes from the server: the {@code ServerMessage} bytes through the
 * client's marshaller, then the instruction through {@link InstructionHandler} with a client that
 * echoes what it is given.
 *
 * <p>The marshaller fails only with {@code INTERNAL}; the handler always answers, with the result
 * message of the instruction's kind. Since the handler turns any exception into a failure status,
 * the test decodes the parameters and config itself: when they decode (typed errors only), the
 * answer must be OK and carry them back unchanged.
 */
class ServerMessageFuzzTest {
  static {
    // The handler logs every failed instruction with its stack trace; fuzzing makes thousands.
    System.setProperty(
        "org.slf4j.simpleLogger.log." + InstructionHandler.class.getName(), "off");
  }

  private static final SerializerRegistry REGISTRY = SerializerRegistry.load();

  /** Answers every operation with what it was given. */
  private static final FlowerClient ECHO = new FlowerClient() {
    @Override
    public Map<String, Scalar> getProperties(Map<String, Scalar> config) {
      return config;
    }

    @Override
    public List<Tensor> getParameters(Map<String, Scalar> config) {
      return List.of();
    }

    @Override
    public FitRes fit(FitIns ins) {
      return new FitRes(ins.parameters(), 1, ins.config());
    }

    @Override
    public EvaluateRes evaluate(EvaluateIns ins) {
      return new EvaluateRes(0.5f, 1, ins.config());
    }
  };

  @FuzzTest(maxDuration = "5s")
  void handle(byte[] input) throws Exception {
    ServerMessage m;
    try {
      m = FlowerRpc.JOIN.parseResponse(new ByteArrayInputStream(input));
    } catch (StatusRuntimeException e) {
      assertThat(e.getStatus().getCode()).isEqualTo(io.grpc.Status.Code.INTERNAL);
      return;
    }
    var params = switch (m.getMsgCase()) {
      case FIT_INS -> m.getFitIns().getParameters();
      case EVALUATE_INS -> m.getEvaluateIns().getParameters();
      default -> null;
    };
    var config = switch (m.getMsgCase()) {
      case FIT_INS -> m.getFitIns().getConfigMap();
      case EVALUATE_INS -> m.getEvaluateIns().getConfigMap();
      case GET_PROPERTIES_INS -> m.getGetPropertiesIns().getConfigMap();
      case GET_PARAMETERS_INS -> m.getGetParametersIns().getConfigMap();
      default -> Map.<String, io.tributary.flower.internal.proto.Scalar>of();
    };
    boolean decodes = true;
    List<Tensor> tensors = List.of();
    String sendType = "numpy.ndarray";
    try {
      ScalarCodec.fromProto(config);
      if (params != null) {
        tensors = ParametersWire.decode(REGISTRY, params);
        sendType = REGISTRY.forType(params.getTensorType()).tensorType();
        // The client refuses a model with NaN or infinite values from the server (an error
        // status naming the tensor), as it must: such input is not "decodes" either.
        if (io.tributary.tensor.Finite.problem(tensors, null).isPresent()) {
          decodes = false;
        }
      }
    } catch (MalformedMessageException | SerializationException e) {
      decodes = false;
    }

    InstructionHandler.Reply reply = new InstructionHandler(ECHO, REGISTRY).handle(m, sendType);
    ClientMessage answer = reply.message();
    switch (m.getMsgCase()) {
      case FIT_INS -> {
        assertThat(answer.hasFitRes()).isTrue();
        assertOk(answer.getFitRes().getStatus(), decodes);
        if (decodes) {
          assertThat(ParametersWire.decode(REGISTRY, answer.getFitRes().getParameters()))
              .isEqualTo(tensors);
        }
      }
      case EVALUATE_INS -> {
        assertThat(answer.hasEvaluateRes()).isTrue();
        assertOk(answer.getEvaluateRes().getStatus(), decodes);
      }
      case GET_PROPERTIES_INS -> {
        assertThat(answer.hasGetPropertiesRes()).isTrue();
        assertOk(answer.getGetPropertiesRes().getStatus(), decodes);
      }
      case GET_PARAMETERS_INS -> {
        assertThat(answer.hasGetParametersRes()).isTrue();
        assertOk(answer.getGetParametersRes().getStatus(), decodes);
      }
      case RECONNECT_INS -> assertThat(reply.reconnectSeconds()).isPresent();
      case MSG_NOT_SET -> assertThat(answer.hasDisconnectRes()).isTrue();
    }
  }

  private static void assertOk(io.tributary.flower.internal.proto.Status status, boolean decodes) {
    assertThat(status.getCode() == Code.OK).as(status.getMessage()).isEqualTo(decodes);
  }
}
