package io.tributary.core.proto;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.tributary.core.compiler.BuildingBlock;

/**
 * Fuzzes the reader of serialized {@code federated_language.Computation} messages: any bytes
 * read as a well-typed computation or fail with {@link MalformedComputationException}.
 *
 * <p>A computation that reads is written again and must read back equal. The resolver knows the
 * local functions of {@link RandomComputations}, whose computations seed the corpus.
 */
class ComputationProtosFuzzTest {
  @FuzzTest(maxDuration = "5s")
  void fromBytes(byte[] input) throws MalformedComputationException {
    BuildingBlock read;
    try {
      read = ComputationProtos.fromBytes(input, RandomComputations.LOCALS);
    } catch (MalformedComputationException e) {
      return;
    }
    byte[] written = ComputationProtos.toBytes(read);
    assertThat(ComputationProtos.fromBytes(written, RandomComputations.LOCALS)).isEqualTo(read);
  }
}
