package io.tributary.flower;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.flower.internal.proto.ClientMessage;
import io.tributary.flower.testing.Messages;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Every Flower scalar kind goes to the client and back unchanged, on its own wire field. */
@Timeout(60)
class ScalarWireTest {
  @Test
  void run_propertiesEchoConfig_everyScalarKindRoundTrips() throws Exception {
    Map<String, Scalar> config = new LinkedHashMap<>();
    config.put("sint64", Scalar.of(-5L));
    config.put("min", Scalar.of(Long.MIN_VALUE));
    config.put("uint64", new Scalar.UInt(-1L)); // 2^64 - 1, above Long.MAX_VALUE
    config.put("double", Scalar.of(0.1));
    config.put("bool", Scalar.of(true));
    config.put("string", Scalar.of("h\u00e9llo \uD83C\uDF32"));
    config.put("bytes", new Scalar.Bytes(new byte[] {0, -1, 2}));
    FlowerClient echo = new FlowerClient() {
      @Override
      public Map<String, Scalar> getProperties(Map<String, Scalar> c) {
        return c;
      }
    };

    List<ClientMessage> answers = ConversationTest.converse(echo, null,
        Messages.getProperties(config), Messages.reconnect(0));

    var props = answers.getFirst().getGetPropertiesRes().getPropertiesMap();
    assertThat(props.get("sint64").getScalarCase())
        .isEqualTo(io.tributary.flower.internal.proto.Scalar.ScalarCase.SINT64);
    assertThat(props.get("sint64").getSint64()).isEqualTo(-5L);
    assertThat(props.get("min").getSint64()).isEqualTo(Long.MIN_VALUE);
    assertThat(props.get("uint64").getScalarCase())
        .isEqualTo(io.tributary.flower.internal.proto.Scalar.ScalarCase.UINT64);
    assertThat(Long.toUnsignedString(props.get("uint64").getUint64()))
        .isEqualTo("18446744073709551615");
    assertThat(props.get("double").getDouble()).isEqualTo(0.1);
    assertThat(props.get("bool").getBool()).isTrue();
    assertThat(props.get("string").getString()).isEqualTo("h\u00e9llo \uD83C\uDF32");
    assertThat(props.get("bytes").getBytes().toByteArray()).containsExactly(0, -1, 2);
    assertThat(io.tributary.flower.internal.ScalarCodec.fromProto(props)).isEqualTo(config);
  }
}
