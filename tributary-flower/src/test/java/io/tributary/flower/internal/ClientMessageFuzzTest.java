package io.tributary.flower.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.grpc.StatusRuntimeException;
import io.tributary.flower.Scalar;
import io.tributary.flower.internal.proto.ClientMessage;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.serialization.SerializationException;
import io.tributary.tensor.serialization.SerializerRegistry;
import java.io.ByteArrayInputStream;
import java.util.List;
import java.util.Map;

/**
 * Fuzzes what the server decodes from a client: the {@code ClientMessage} bytes through the
 * server's marshaller, then, as {@code RemoteClientWork} and {@code ClientManager} do, the
 * parameters of {@code FitRes} and {@code GetParametersRes} through {@link ParametersWire} and the
 * metrics and properties through {@link ScalarCodec}.
 *
 * <p>Each step yields a value or fails with its typed error: {@link StatusRuntimeException}
 * ({@code INTERNAL}) from the marshaller, {@link SerializationException} for parameters,
 * {@link MalformedMessageException} for scalars. What decodes encodes again and decodes equal.
 */
class ClientMessageFuzzTest {
  private static final SerializerRegistry REGISTRY = SerializerRegistry.load();

  @FuzzTest(maxDuration = "5s")
  void decode(byte[] input) throws Exception {
    ClientMessage m;
    try {
      m = FlowerRpc.JOIN.parseRequest(new ByteArrayInputStream(input));
    } catch (StatusRuntimeException e) {
      assertThat(e.getStatus().getCode()).isEqualTo(io.grpc.Status.Code.INTERNAL);
      return;
    }
    switch (m.getMsgCase()) {
      case FIT_RES -> {
        parameters(m.getFitRes().getParameters());
        scalars(m.getFitRes().getMetricsMap());
      }
      case GET_PARAMETERS_RES -> parameters(m.getGetParametersRes().getParameters());
      case EVALUATE_RES -> scalars(m.getEvaluateRes().getMetricsMap());
      case GET_PROPERTIES_RES -> scalars(m.getGetPropertiesRes().getPropertiesMap());
      default -> { }
    }
  }

  private static void parameters(io.tributary.flower.internal.proto.Parameters p)
      throws SerializationException {
    List<Tensor> tensors;
    try {
      tensors = ParametersWire.decode(REGISTRY, p);
    } catch (SerializationException e) {
      return;
    }
    var again = ParametersWire.encode(REGISTRY.forType(p.getTensorType()), tensors);
    assertThat(ParametersWire.decode(REGISTRY, again)).isEqualTo(tensors);
  }

  private static void scalars(Map<String, io.tributary.flower.internal.proto.Scalar> wire)
      throws MalformedMessageException {
    Map<String, Scalar> decoded;
    try {
      decoded = ScalarCodec.fromProto(wire);
    } catch (MalformedMessageException e) {
      return;
    }
    for (Scalar s : decoded.values()) {
      s.asDouble();
    }
    assertThat(ScalarCodec.fromProto(ScalarCodec.toProto(decoded))).isEqualTo(decoded);
  }
}
