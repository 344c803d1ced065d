package io.tributary.cli;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the CLI's JSON output in tests with Jackson held to RFC 8259 (no NaN, comments, trailing
 * commas or tokens, duplicate keys or bad escapes), so the output is checked by a reader that
 * rejects what any strict JSON library would.
 *
 * <p>Objects become {@link LinkedHashMap}, arrays {@link List}, numbers {@link BigDecimal} (as
 * written: {@code 0.5} is {@code new BigDecimal("0.5")}), strings {@link String}, booleans
 * {@link Boolean}, and {@code null} is {@link #NULL}.
 */
final class StrictJson {
  /** Stands for JSON {@code null}, since maps and lists here hold no Java nulls. */
  static final Object NULL = new Object() {
    @Override
    public String toString() {
      return "null";
    }
  };

  private static final ObjectMapper MAPPER = JsonMapper.builder()
      .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
      .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
      .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
      .nodeFactory(JsonNodeFactory.withExactBigDecimals(true))
      .build();

  private StrictJson() {}

  /**
   * Parses {@code text}, which must hold exactly one JSON value and optional whitespace.
   *
   * @throws IllegalArgumentException naming the problem and where, if it is not such JSON
   */
  static Object parse(String text) {
    try {
      return toJava(MAPPER.readTree(text));
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("not strict JSON: " + e.getOriginalMessage() + " at "
          + e.getLocation(), e);
    }
  }

  private static Object toJava(JsonNode n) {
    return switch (n.getNodeType()) {
      case OBJECT -> {
        Map<String, Object> m = new LinkedHashMap<>();
        n.properties().forEach(e -> m.put(e.getKey(), toJava(e.getValue())));
        yield m;
      }
      case ARRAY -> {
        List<Object> l = new ArrayList<>();
        n.forEach(v -> l.add(toJava(v)));
        yield l;
      }
      case NUMBER -> n.isIntegralNumber() ? new BigDecimal(n.bigIntegerValue()) : n.decimalValue();
      case STRING -> n.textValue();
      case BOOLEAN -> n.booleanValue();
      case NULL -> NULL;
      case MISSING -> throw new IllegalArgumentException("not strict JSON: no value");
      case BINARY, POJO -> throw new IllegalArgumentException("not strict JSON: " + n);
    };
  }
}
