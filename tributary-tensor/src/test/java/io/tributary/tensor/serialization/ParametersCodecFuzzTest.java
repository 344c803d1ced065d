package io.tributary.tensor.serialization;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * Fuzzes the {@code Parameters} protobuf decoder: any bytes decode or fail with
 * {@link SerializationException}, and what decodes encodes to bytes that decode equal.
 */
class ParametersCodecFuzzTest {
  @FuzzTest(maxDuration = "5s")
  void decode(byte[] input) throws SerializationException {
    Parameters decoded;
    try {
      decoded = ParametersCodec.decode(input);
    } catch (SerializationException e) {
      return;
    }
    byte[] encoded = ParametersCodec.encode(decoded);
    assertThat(ParametersCodec.decode(encoded)).isEqualTo(decoded);
    assertThat(encoded.length).isLessThanOrEqualTo(input.length);
  }
}
