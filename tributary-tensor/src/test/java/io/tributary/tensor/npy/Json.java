package io.tributary.tensor.npy;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;

/**
 * The interop manifests' JSON, through Jackson: objects read as maps, arrays as lists, integers
 * as {@code Integer}/{@code Long}, other numbers as {@code Double}; maps and lists written back.
 */
final class Json {
  private static final ObjectMapper MAPPER = JsonMapper.builder()
      .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
      .build();

  private Json() {}

  static Object parse(String text) {
    try {
      return MAPPER.readValue(text, Object.class);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("bad manifest JSON: " + e.getOriginalMessage(), e);
    }
  }

  static String write(Object v) {
    try {
      return MAPPER.writeValueAsString(v);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("cannot write " + v + " as JSON", e);
    }
  }
}
