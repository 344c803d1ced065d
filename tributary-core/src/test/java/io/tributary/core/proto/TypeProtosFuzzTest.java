package io.tributary.core.proto;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.tributary.core.types.Type;

/**
 * Fuzzes the reader of serialized {@code federated_language.Type} messages: any bytes read as a
 * type or fail with {@link MalformedComputationException}, and a type that reads is written and
 * read back equal.
 */
class TypeProtosFuzzTest {
  @FuzzTest(maxDuration = "5s")
  void fromBytes(byte[] input) throws MalformedComputationException {
    Type read;
    try {
      read = TypeProtos.fromBytes(input);
    } catch (MalformedComputationException e) {
      return;
    }
    assertThat(TypeProtos.fromBytes(TypeProtos.toBytes(read))).isEqualTo(read);
  }
}
