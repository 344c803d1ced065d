package io.tributary.flower.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.flower.Scalar;
import io.tributary.flower.records.ConfigRecord;
import io.tributary.flower.records.Message;
import io.tributary.flower.records.MessageError;
import io.tributary.flower.records.Metadata;
import io.tributary.flower.records.RecordDict;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The capability query recognised in both of its forms, a Join {@code GetPropertiesIns}'s config
 * and a query message's config record, alike for the same entries: exactly {@value
 * NodeCapabilities#QUERY_KEY} = {@value NodeCapabilities#QUERY_VALUE} as a string, nothing near
 * it.
 */
class NodeCapabilitiesTest {
  private static Message message(String type, RecordDict content) {
    return Message.ofContent(new Metadata(5, "abc", 1, 9, "", "", 60, type, 0), content);
  }

  /** A query message whose config record holds {@code config}'s values as a record holds them. */
  private static Message query(String recordKey, Map<String, Scalar> config) {
    Map<String, Object> values = new LinkedHashMap<>();
    config.forEach((k, v) -> values.put(k, v.recordValue()));
    return message(ClientApp.QUERY, RecordDict.of(recordKey, new ConfigRecord(values)));
  }

  static Stream<Arguments> configs() {
    String key = NodeCapabilities.QUERY_KEY;
    return Stream.of(
        Arguments.of(Map.of(key, Scalar.of("capabilities")), true),
        Arguments.of(Map.of(key, Scalar.of("capabilities"), "lr", Scalar.of(0.1)), true),
        Arguments.of(Map.of(), false),
        Arguments.of(Map.of("lr", Scalar.of(0.1)), false),
        Arguments.of(Map.of("tributary.Query", Scalar.of("capabilities")), false),
        Arguments.of(Map.of("query", Scalar.of("capabilities")), false),
        Arguments.of(Map.of(key, Scalar.of("Capabilities")), false),
        Arguments.of(Map.of(key, Scalar.of("capabilities ")), false),
        Arguments.of(Map.of(key, Scalar.of("capability")), false),
        Arguments.of(Map.of(key, Scalar.of("")), false),
        Arguments.of(Map.of(key, new Scalar.Bytes("capabilities".getBytes(
            StandardCharsets.UTF_8))), false),
        Arguments.of(Map.of(key, Scalar.of(1L)), false),
        Arguments.of(Map.of(key, Scalar.of(true)), false));
  }

  @ParameterizedTest
  @MethodSource("configs")
  void isQuery_joinConfigOrQueryMessageOfTheSameEntries_sameAnswer(Map<String, Scalar> config,
      boolean query) {
    assertThat(NodeCapabilities.isQuery(config)).isEqualTo(query);
    assertThat(NodeCapabilities.isQuery(query("config", config))).isEqualTo(query);
    assertThat(NodeCapabilities.isQuery(query("getpropertiesins.config", config)))
        .isEqualTo(query);
  }

  @Test
  void isQuery_queryConfigInAMessageOfAnotherTypeOrRecord_false() {
    Map<String, Scalar> config = Map.of(NodeCapabilities.QUERY_KEY, Scalar.of("capabilities"));

    assertThat(NodeCapabilities.isQuery(query("properties", config))).isFalse();
    assertThat(NodeCapabilities.isQuery(message("train", query("config", config).content())))
        .isFalse();
    assertThat(NodeCapabilities.isQuery(message("query.other", query("config", config)
        .content()))).isFalse();
    assertThat(NodeCapabilities.isQuery(Message.ofError(new Metadata(5, "abc", 1, 9, "", "",
        60, ClientApp.QUERY, 0), new MessageError(MessageError.UNKNOWN, "no")))).isFalse();
  }
}
